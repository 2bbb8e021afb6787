import { existsSync } from 'node:fs';
import type { Readable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { Currency } from '../domain/currencies.js';
import type { RateTable } from '../domain/fx.js';
import type { ParsedBatch } from './ingest-lines.js';

export interface WorkerSetup {
  batchSize: number;
  /** Report what was read every this many bytes (a quarter of the bytes allowed in flight). */
  reportEvery: number;
  /** Attach matching profiles (see ParseOptions.prepare). */
  prepare: boolean;
  rates: { date: string; source: string; perEur: Record<Currency, string> };
}
export type ToWorker = { type: 'chunk'; data: Uint8Array } | { type: 'end' } | { type: 'taken' };
export type FromWorker = { type: 'batch'; batch: ParsedBatch } | { type: 'consumed'; bytes: number } | { type: 'done' } | { type: 'error'; message: string };

/** Input sent but not yet read by the worker: past this, reading pauses. */
const IN_FLIGHT_BYTES = 8 << 20;
/** Finished batches the worker may hold before the writer takes them. */
export const AHEAD_BATCHES = 2;
const WORKER = new URL('./ingest-worker.js', import.meta.url);

/** Whether the compiled worker is there (it is not when the sources run directly, as in tests). */
export function parallelAvailable(): boolean {
  return WORKER.protocol === 'file:' && existsSync(fileURLToPath(WORKER));
}

/**
 * `parseLines` in a worker thread, so parsing, validation, money normalization and matching
 * profiles of the next batch run on the other core while the caller writes this one. Yields the
 * same batches in the same order. Memory stays bounded: the input is read at most
 * IN_FLIGHT_BYTES ahead of what the worker has read, and the worker stops at AHEAD_BATCHES
 * finished batches the caller has not taken.
 */
export async function* parseInWorker(
  input: Readable, batchSize: number, rates: RateTable, prepare: boolean,
  runner: { url: URL; argv?: string[]; inFlightBytes?: number } = { url: WORKER },
): AsyncGenerator<ParsedBatch> {
  const inFlight = runner.inFlightBytes ?? IN_FLIGHT_BYTES;
  const perEur = Object.fromEntries(Object.entries(rates.perEur).map(([c, v]) => [c, v.toFixed()])) as Record<Currency, string>;
  const setup: WorkerSetup = { batchSize, prepare, reportEvery: Math.max(1, inFlight >> 2), rates: { date: rates.date, source: rates.source, perEur } };
  const worker = new Worker(runner.url, { workerData: setup, argv: runner.argv });
  const queue: Array<Exclude<FromWorker, { type: 'consumed' }>> = [];
  let failure: Error | null = null;
  let wake: (() => void) | null = null;
  const notify = () => {
    wake?.();
    wake = null;
  };
  let sent = 0;
  let consumed = 0;
  let paused = false;
  worker.on('message', (m: FromWorker) => {
    if (m.type === 'consumed') {
      consumed = m.bytes;
      if (paused && sent - consumed < inFlight / 2) {
        paused = false;
        input.resume();
      }
      return;
    }
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
  const onData = (chunk: Buffer) => {
    worker.postMessage({ type: 'chunk', data: chunk } satisfies ToWorker);
    sent += chunk.length;
    if (sent - consumed > inFlight && !paused) {
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
      worker.postMessage({ type: 'taken' } satisfies ToWorker);
      yield m.batch;
    }
  } finally {
    input.off('data', onData);
    input.off('end', onEnd);
    input.off('error', onError);
    await worker.terminate();
  }
}
