// The parse side of a parallel import, in a worker thread: NDJSON chunks in, batches of
// normalized records (with matching profiles) out. See `parseInWorker` in ingest-parallel.ts.
import { PassThrough, Transform } from 'node:stream';
import { parentPort, workerData } from 'node:worker_threads';
import Big from 'big.js';
import type { Currency } from '../domain/currencies.js';
import type { RateTable } from '../domain/fx.js';
import { parseLines } from './ingest-lines.js';
import { AHEAD_BATCHES, type FromWorker, type ToWorker, type WorkerSetup } from './ingest-parallel.js';

const setup = workerData as WorkerSetup;
const port = parentPort!;
const send = (m: FromWorker) => port.postMessage(m);
const rates: RateTable = {
  date: setup.rates.date,
  source: setup.rates.source,
  perEur: Object.fromEntries(Object.entries(setup.rates.perEur).map(([c, v]) => [c, new Big(v)])) as Record<Currency, Big>,
};

const input = new PassThrough();
let taken = 0;
let wake: (() => void) | null = null;
port.on('message', (m: ToWorker) => {
  if (m.type === 'chunk') input.write(m.data);
  else if (m.type === 'end') input.end();
  else {
    taken++;
    wake?.();
  }
});

// Bytes handed to the line splitter, reported so the sender keeps a bounded amount in flight.
let consumed = 0;
let reported = 0;
const counted = input.pipe(new Transform({
  transform(chunk: Buffer, _enc, done) {
    consumed += chunk.length;
    if (consumed - reported >= setup.reportEvery) {
      reported = consumed;
      send({ type: 'consumed', bytes: consumed });
    }
    done(null, chunk);
  },
}));

try {
  let sent = 0;
  for await (const batch of parseLines(counted, { batchSize: setup.batchSize, rates, now: () => new Date(), prepare: setup.prepare })) {
    send({ type: 'batch', batch });
    sent++;
    // Never more than AHEAD_BATCHES finished batches the writer has not taken yet.
    while (sent - taken >= AHEAD_BATCHES) await new Promise<void>((resolve) => { wake = resolve; });
  }
  send({ type: 'done' });
} catch (e) {
  send({ type: 'error', message: (e as Error).message });
}
