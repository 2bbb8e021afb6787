import { availableParallelism } from 'node:os';
import type { Readable } from 'node:stream';
import { Worker } from 'node:worker_threads';
import type { Currency } from '../domain/currencies.js';
import type { RateTable } from '../domain/fx.js';
import { compiledWorkerAvailable, type WorkerModule } from '../store/worker-module.js';
import { emptyBatch, MAX_LINE_BYTES, tooLong, type ParsedBatch } from './ingest-lines.js';
import { unpackRecords } from './record-codec.js';

export interface WorkerSetup {
  rates: { date: string; source: string; perEur: Record<Currency, string> };
}
/** One piece of the input: whole lines, numbered from 1 within it; `prepare`: attach matching profiles (see ParseOptions.prepare). */
export interface ToWorker { seq: number; data: Uint8Array; prepare: boolean }
export type FromWorker =
  | {
    type: 'piece'; seq: number;
    /** Its records packed (record-codec.ts). */
    batch: Omit<ParsedBatch, 'records'> & { records: unknown[][] };
    lineCount: number;
    /** The piece's line over MAX_LINE_BYTES, where it stopped. */
    tooLongAt?: number;
  }
  | { type: 'error'; message: string };

/** Input handed to a worker at a time (cut at the last line end in it): about 750 listings. */
const PIECE_BYTES = 1 << 20;
/** Input sent but not yet taken back as records: past this, reading pauses. */
const IN_FLIGHT_BYTES = 8 << 20;
const WORKER = new URL('./ingest-worker.js', import.meta.url);

/** Whether a buffer has its memory to itself (a small one may share Node's pool, which must never move). */
const owns = (b: Buffer) => b.byteOffset === 0 && b.buffer.byteLength === b.length;

/** Whether the compiled worker is there (it is not when the sources run directly, as in tests). */
export function parallelAvailable(): boolean {
  return compiledWorkerAvailable(WORKER);
}

/**
 * Parse workers: a core each beside the writer's, at most four; one on two cores. Two there
 * competed with the writer and the WAL checkpointer for the cores: a 1,000,000-line bulk load
 * stored and served in 41.6/42.7 s with two, 37.8/36.6 s with one; a 200,000-line re-import took
 * 8.3/7.8 s against 7.3/7.0 s.
 */
const defaultWorkers = () => Math.min(4, Math.max(1, availableParallelism() - 1));

export interface WorkerRunner extends WorkerModule {
  workers?: number;
  pieceBytes?: number;
  inFlightBytes?: number;
}

/**
 * What `parseLines` yields, parsed by worker threads while the caller writes: the input is cut
 * into pieces of whole lines, dealt to the workers in turn, and their records put back in input
 * order, line numbers counted across pieces, into batches of about `batchSize` records. `prepare`
 * is asked as each piece goes out: whether its records get matching profiles. Memory
 * stays bounded: reading pauses while more than IN_FLIGHT_BYTES are out with the workers or
 * waiting for the caller. A line over MAX_LINE_BYTES ends the input there and is reported, as
 * parseLines does.
 */
export async function* parseInWorker(
  input: Readable, batchSize: number, rates: RateTable, prepare: () => boolean,
  runner: WorkerRunner = { url: WORKER },
): AsyncGenerator<ParsedBatch> {
  const pieceBytes = runner.pieceBytes ?? PIECE_BYTES;
  const inFlightLimit = runner.inFlightBytes ?? IN_FLIGHT_BYTES;
  const perEur = Object.fromEntries(Object.entries(rates.perEur).map(([c, v]) => [c, v.toFixed()])) as Record<Currency, string>;
  const setup: WorkerSetup = { rates: { date: rates.date, source: rates.source, perEur } };
  const workers = Array.from({ length: runner.workers ?? defaultWorkers() }, () => new Worker(runner.url, { workerData: setup, argv: runner.argv }));

  const done = new Map<number, Extract<FromWorker, { type: 'piece' }>>();
  const pieceEnd: number[] = []; // input bytes read through each piece
  let failure: Error | null = null;
  let wake: (() => void) | null = null;
  const notify = () => {
    wake?.();
    wake = null;
  };
  for (const w of workers) {
    w.on('message', (m: FromWorker) => {
      if (m.type === 'error') failure ??= new Error(m.message);
      else done.set(m.seq, m);
      notify();
    });
    w.on('error', (e) => {
      failure ??= e;
      notify();
    });
    w.on('exit', (code) => {
      if (code !== 0) failure ??= new Error(`ingest worker exited with code ${code}`);
      notify();
    });
  }

  let carry: Buffer[] = [];
  let carried = 0;
  let sent = 0;
  let read = 0;
  let inFlight = 0;
  let paused = false;
  let ended = false;
  let overflow = false;
  /** Sends a piece; its memory moves to the worker (no copy) when nothing else here uses it. */
  const dispatch = (piece: Buffer, movable: boolean) => {
    read += piece.length;
    pieceEnd.push(read);
    inFlight += piece.length;
    const message: ToWorker = { seq: sent, data: piece, prepare: prepare() };
    workers[sent++ % workers.length].postMessage(message, movable ? [piece.buffer as ArrayBuffer] : []);
    if (inFlight > inFlightLimit && !paused) {
      paused = true;
      input.pause();
    }
  };
  const onData = (chunk: Buffer | string) => {
    if (ended) return;
    const buf = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
    carry.push(buf);
    carried += buf.length;
    if (carried < pieceBytes) return;
    const all = Buffer.concat(carry, carried);
    const cut = all.lastIndexOf(10) + 1;
    // The unfinished line is copied out, so the piece's memory can go to the worker.
    const rest = Buffer.from(all.subarray(cut));
    if (cut > 0) dispatch(all.subarray(0, cut), owns(all));
    carry = [rest];
    carried = rest.length;
    if (carried > MAX_LINE_BYTES) {
      // No line end within the limit: the input ends at that line.
      overflow = ended = true;
      input.pause();
      notify();
    }
  };
  const onEnd = () => {
    if (ended) return;
    if (carried) {
      const last = Buffer.concat(carry, carried);
      dispatch(last, owns(last));
    }
    ended = true;
    notify();
  };
  const onError = (e: Error) => {
    failure ??= e;
    notify();
  };
  input.on('data', onData);
  input.once('end', onEnd);
  input.once('error', onError);

  let next = 0;
  let lineOffset = 0;
  let out = emptyBatch();
  try {
    for (;;) {
      if (failure) throw failure;
      const m = done.get(next);
      if (m) {
        done.delete(next);
        const size = pieceEnd[next] - (next ? pieceEnd[next - 1] : 0);
        inFlight -= size;
        if (paused && inFlight < inFlightLimit / 2 && !ended) {
          paused = false;
          input.resume();
        }
        const records = unpackRecords(m.batch.records);
        for (const r of records) r.line += lineOffset;
        for (const r of m.batch.rejections) r.line += lineOffset;
        out.records.push(...records);
        out.rejections.push(...m.batch.rejections);
        out.lines += m.batch.lines;
        out.bytes = pieceEnd[next];
        if (m.tooLongAt) {
          out.rejections.push(tooLong(lineOffset + m.tooLongAt));
          yield out;
          return;
        }
        lineOffset += m.lineCount;
        next++;
        if (out.records.length >= batchSize || out.rejections.length >= batchSize) {
          yield out;
          out = emptyBatch();
        }
        continue;
      }
      if (ended && next === sent) {
        if (overflow) out.rejections.push(tooLong(lineOffset + 1));
        out.bytes = read;
        yield out;
        return;
      }
      await new Promise<void>((resolve) => { wake = resolve; });
    }
  } finally {
    input.off('data', onData);
    input.off('end', onEnd);
    input.off('error', onError);
    await Promise.all(workers.map((w) => w.terminate()));
  }
}
