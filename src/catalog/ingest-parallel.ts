import { existsSync } from 'node:fs';
import type { Readable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { Currency } from '../domain/currencies.js';
import type { RateTable } from '../domain/fx.js';
import type { ParsedBatch } from './ingest-lines.js';

export interface WorkerSetup {
  batchSize: number;
  rates: { date: string; source: string; perEur: Record<Currency, string> };
}
export type ToWorker = { type: 'chunk'; data: Uint8Array } | { type: 'end' };
export type FromWorker = { type: 'batch'; batch: ParsedBatch } | { type: 'done' } | { type: 'error'; message: string };

/** Input read but not yet returned as batches: past this, reading pauses (memory stays bounded). */
const IN_FLIGHT_BYTES = 8 << 20;
const WORKER = new URL('./ingest-worker.js', import.meta.url);

/** Whether the compiled worker is there (it is not when the sources run directly, as in tests). */
export function parallelAvailable(): boolean {
  return WORKER.protocol === 'file:' && existsSync(fileURLToPath(WORKER));
}

/**
 * `parseLines` in a worker thread, so parsing, validation, money normalization and matching
 * profiles of the next batch run on the other core while the caller writes this one. Yields the
 * same batches in the same order; the input is read as the batches are taken, never ahead by
 * more than IN_FLIGHT_BYTES.
 */
export async function* parseInWorker(
  input: Readable, batchSize: number, rates: RateTable, runner: { url: URL; argv?: string[] } = { url: WORKER },
): AsyncGenerator<ParsedBatch> {
  const perEur = Object.fromEntries(Object.entries(rates.perEur).map(([c, v]) => [c, v.toFixed()])) as Record<Currency, string>;
  const setup: WorkerSetup = { batchSize, rates: { date: rates.date, source: rates.source, perEur } };
  const worker = new Worker(runner.url, { workerData: setup, argv: runner.argv });
  const queue: FromWorker[] = [];
  let failure: Error | null = null;
  let wake: (() => void) | null = null;
  const notify = () => {
    wake?.();
    wake = null;
  };
  worker.on('message', (m: FromWorker) => {
    queue.push(m);
    notify();
  });
  worker.on('error', (e) => {
    failure ??= e;
    notify();
  });
  worker.on('exit', (code) => {
    if (code !== 0) failure ??= new Error(`ingest worker exited with code ${code}`);
    notify();
  });
  let sent = 0;
  let consumed = 0;
  let paused = false;
  const onData = (chunk: Buffer) => {
    worker.postMessage({ type: 'chunk', data: chunk } satisfies ToWorker);
    sent += chunk.length;
    if (sent - consumed > IN_FLIGHT_BYTES && !paused) {
      paused = true;
      input.pause();
    }
  };
  const onEnd = () => worker.postMessage({ type: 'end' } satisfies ToWorker);
  const onError = (e: Error) => {
    failure ??= e;
    notify();
  };
  input.on('data', onData);
  input.once('end', onEnd);
  input.once('error', onError);
  try {
    for (;;) {
      if (failure) throw failure;
      const m = queue.shift();
      if (!m) {
        await new Promise<void>((resolve) => { wake = resolve; });
        continue;
      }
      if (m.type === 'error') throw new Error(m.message);
      if (m.type === 'done') return;
      consumed = m.batch.bytes;
      if (paused && sent - consumed < IN_FLIGHT_BYTES / 2) {
        paused = false;
        input.resume();
      }
      yield m.batch;
    }
  } finally {
    input.off('data', onData);
    input.off('end', onEnd);
    input.off('error', onError);
    await worker.terminate();
  }
}
