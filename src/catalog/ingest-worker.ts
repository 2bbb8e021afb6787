// The parse side of a parallel import, in a worker thread: NDJSON chunks in, batches of
// normalized records (with matching profiles) out. See `parseInWorker` in ingest-parallel.ts.
import { PassThrough } from 'node:stream';
import { parentPort, workerData } from 'node:worker_threads';
import Big from 'big.js';
import type { Currency } from '../domain/currencies.js';
import type { RateTable } from '../domain/fx.js';
import { parseLines } from './ingest-lines.js';
import type { FromWorker, ToWorker, WorkerSetup } from './ingest-parallel.js';

const setup = workerData as WorkerSetup;
const port = parentPort!;
const rates: RateTable = {
  date: setup.rates.date,
  source: setup.rates.source,
  perEur: Object.fromEntries(Object.entries(setup.rates.perEur).map(([c, v]) => [c, new Big(v)])) as Record<Currency, Big>,
};
const input = new PassThrough();
port.on('message', (m: ToWorker) => {
  if (m.type === 'chunk') input.write(m.data);
  else input.end();
});

const send = (m: FromWorker) => port.postMessage(m);
try {
  for await (const batch of parseLines(input, { batchSize: setup.batchSize, rates, now: () => new Date(), profiles: true })) {
    send({ type: 'batch', batch });
  }
  send({ type: 'done' });
} catch (e) {
  send({ type: 'error', message: (e as Error).message });
}
