import { availableParallelism } from 'node:os';
import { closeSync, openSync, readSync } from 'node:fs';
import { Readable } from 'node:stream';
import { Worker } from 'node:worker_threads';
import type { Currency } from '../domain/currencies.js';
import type { RateTable } from '../domain/fx.js';
import type { KnownLine } from '../domain/ingest-record.js';
import { compiledWorkerAvailable, type WorkerModule } from '../runtime/worker-module.js';
import { emptyBatch, MAX_LINE_BYTES, tooLong, type ParsedBatch } from './ingest-lines.js';
import { unpackRecords } from './record-codec.js';

export interface WorkerSetup {
  rates: { date: string; source: string; perEur: Record<Currency, string> };
  /** An embedded store's file, which the workers read the line hashes of stored listings from (ParseOptions.known). */
  lookup?: string;
}
/**
 * One piece of the input: whole lines, numbered from 1 within it; `prepare`: attach matching
 * profiles (see ParseOptions.prepare); `known`: look its lines up in the store (WorkerSetup.lookup).
 */
export interface ToWorker { seq: number; data: Uint8Array; prepare: boolean; known: boolean }
/**
 * A piece's known lines, packed: one array per field, the hashes and times each joined by
 * newlines, and where each line lies in the piece's memory (start and end, in bytes), from which
 * the writer decodes one only if it must normalize it after all. Cloning an object a line cost
 * more than the rest of a known line.
 */
export interface PackedKnown {
  lines: Int32Array;
  ids: Float64Array;
  spans: Int32Array;
  hashes: string;
  observed: string;
}

export type FromWorker =
  | {
    type: 'piece'; seq: number;
    /** Its records packed (record-codec.ts), and its known lines. */
    batch: Omit<ParsedBatch, 'records' | 'known'> & { records: unknown[][]; known: PackedKnown };
    lineCount: number;
    /** The piece's line over MAX_LINE_BYTES, where it stopped. */
    tooLongAt?: number;
    /** The piece's memory, given back to be read into again. */
    memory: ArrayBuffer;
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
 * Parse workers: a core each beside the writer's, at most four; one on two cores, where a second
 * would compete with the writer and the WAL checkpointer for the cores.
 */
const defaultWorkers = () => Math.min(4, Math.max(1, availableParallelism() - 1));

export interface WorkerRunner extends WorkerModule {
  workers?: number;
  pieceBytes?: number;
  inFlightBytes?: number;
}

/** What an import reads: a stream, or a file, which parallel parsing reads ahead of the writer. */
export type IngestInput = Readable | { path: string };

/**
 * What `parseLines` yields, parsed by worker threads while the caller writes: the input is cut
 * into pieces of whole lines, dealt to the workers in turn, and their records put back in input
 * order, line numbers counted across pieces, into batches of about `batchSize` records. `prepare`
 * is asked as each piece goes out: whether its records get matching profiles. Memory
 * stays bounded: no more than IN_FLIGHT_BYTES are out with the workers or waiting for the caller
 * (a stream is paused past it). A line over MAX_LINE_BYTES ends the input there and is reported,
 * as parseLines does.
 *
 * A file is read here, synchronously, before each step of the caller, until that much is out.
 * A stream deals its pieces as its reads come in, and they come in on this thread's event loop,
 * one read a turn: while the caller writes a batch (synchronously) no read comes in, so the
 * workers run dry between batches; a file read here keeps them fed.
 */
export async function* parseInWorker(
  input: IngestInput, batchSize: number, rates: RateTable, prepare: () => boolean,
  runner: WorkerRunner = { url: WORKER }, known?: { lookup: string; now: () => boolean },
): AsyncGenerator<ParsedBatch> {
  const pieceBytes = runner.pieceBytes ?? PIECE_BYTES;
  const inFlightLimit = runner.inFlightBytes ?? IN_FLIGHT_BYTES;
  const perEur = Object.fromEntries(Object.entries(rates.perEur).map(([c, v]) => [c, v.toFixed()])) as Record<Currency, string>;
  const setup: WorkerSetup = { rates: { date: rates.date, source: rates.source, perEur }, lookup: known?.lookup };
  const workers = Array.from({ length: runner.workers ?? defaultWorkers() }, () => new Worker(runner.url, { workerData: setup, argv: runner.argv }));

  const done = new Map<number, Extract<FromWorker, { type: 'piece' }>>();
  const pieceEnd: number[] = []; // input bytes read through each piece
  let failure: Error | null = null;
  let wake: (() => void) | null = null;
  const notify = () => {
    wake?.();
    wake = null;
  };
  const fail = (e: Error) => {
    failure ??= e;
    notify();
  };
  for (const w of workers) {
    w.on('message', (m: FromWorker) => {
      if (m.type === 'error') failure ??= new Error(m.message);
      else done.set(m.seq, m);
      notify();
    });
    w.on('error', fail);
    w.on('exit', (code) => {
      if (code !== 0) fail(new Error(`ingest worker exited with code ${code}`));
      notify();
    });
  }

  let carry: Buffer[] = [];
  let carried = 0;
  let sent = 0;
  let read = 0;
  let inFlight = 0;
  let ended = false;
  let overflow = false;
  /** Sends a piece; its memory moves to the worker (no copy) when nothing else here uses it. */
  const dispatch = (piece: Buffer, movable: boolean) => {
    read += piece.length;
    pieceEnd.push(read);
    inFlight += piece.length;
    const message: ToWorker = { seq: sent, data: piece, prepare: prepare(), known: known?.now() ?? false };
    workers[sent++ % workers.length].postMessage(message, movable ? [piece.buffer as ArrayBuffer] : []);
  };
  /** Input read, the unfinished line before it included: its whole lines go out as a piece, the unfinished line at its end waits. */
  const deal = (all: Buffer, movable: boolean) => {
    const cut = all.lastIndexOf(10) + 1;
    // The unfinished line is copied out, so the piece's memory can go to the worker.
    const rest = Buffer.from(all.subarray(cut));
    if (cut > 0) dispatch(all.subarray(0, cut), movable);
    carry = [rest];
    carried = rest.length;
    if (carried > MAX_LINE_BYTES) {
      // No line end within the limit: the input ends at that line.
      overflow = ended = true;
      notify();
    }
  };
  /** A stream's read: dealt once there is a piece's worth. */
  const take = (buf: Buffer) => {
    if (ended) return;
    carry.push(buf);
    carried += buf.length;
    if (carried < pieceBytes) return;
    const all = Buffer.concat(carry, carried);
    deal(all, owns(all));
  };
  const finish = () => {
    if (ended) return;
    if (carried) {
      const last = Buffer.concat(carry, carried);
      dispatch(last, owns(last));
    }
    ended = true;
    notify();
  };
  const source = input instanceof Readable ? readStream(input) : readFile(input.path);

  /**
   * A file: read ahead, a piece at a time, until IN_FLIGHT_BYTES are out. Each read goes into a
   * piece's memory behind the unfinished line before it, memory the workers give back when they
   * are done with a piece (fresh memory costs its page faults at every read).
   */
  function readFile(path: string) {
    let fd: number | null = null;
    const spare: ArrayBuffer[] = [];
    return {
      fill() {
        try {
          fd ??= openSync(path, 'r');
          while (!ended && inFlight < inFlightLimit) {
            const size = carried + pieceBytes;
            const memory = spare.pop();
            const buf = memory && memory.byteLength >= size ? Buffer.from(memory) : Buffer.allocUnsafeSlow(Math.max(size, 2 * pieceBytes));
            let at = 0;
            for (const c of carry) at += c.copy(buf, at);
            const n = readSync(fd, buf, carried, pieceBytes, null);
            if (n === 0) finish();
            else deal(buf.subarray(0, carried + n), true);
          }
        } catch (e) {
          fail(e as Error);
        }
      },
      reuse(memory: ArrayBuffer) {
        if (spare.length < inFlightLimit / pieceBytes + 2) spare.push(memory);
      },
      close() {
        if (fd !== null) closeSync(fd);
      },
    };
  }

  /** A stream: pieces go out as its reads come in; it pauses while IN_FLIGHT_BYTES are out, and resumes at half. */
  function readStream(stream: Readable) {
    let paused = false;
    const onData = (chunk: Buffer | string) => {
      take(typeof chunk === 'string' ? Buffer.from(chunk) : chunk);
      if (!paused && (ended || inFlight > inFlightLimit)) {
        paused = true;
        stream.pause();
      }
    };
    stream.on('data', onData);
    stream.once('end', finish);
    stream.once('error', fail);
    return {
      reuse() {},
      fill() {
        if (paused && !ended && inFlight < inFlightLimit / 2) {
          paused = false;
          stream.resume();
        }
      },
      close() {
        stream.off('data', onData);
        stream.off('end', finish);
        stream.off('error', fail);
      },
    };
  }

  let next = 0;
  let lineOffset = 0;
  let out = emptyBatch();
  /** The memory of the pieces in `out`, which its known lines are read from until it is written. */
  let held: ArrayBuffer[] = [];
  const written = () => {
    for (const memory of held) source.reuse(memory);
    held = [];
  };
  try {
    for (;;) {
      source.fill();
      if (failure) throw failure;
      const m = done.get(next);
      if (m) {
        done.delete(next);
        const size = pieceEnd[next] - (next ? pieceEnd[next - 1] : 0);
        inFlight -= size;
        const records = unpackRecords(m.batch.records);
        for (const r of records) r.line += lineOffset;
        for (const r of m.batch.rejections) r.line += lineOffset;
        out.records.push(...records);
        unpackKnown(m.batch.known, m.memory, lineOffset, out.known);
        held.push(m.memory);
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
        if (out.records.length + out.known.length >= batchSize || out.rejections.length >= batchSize) {
          yield out;
          written();
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
    source.close();
    await Promise.all(workers.map((w) => w.terminate()));
  }
}

/** Known lines of a piece, packed (PackedKnown) from `batch.known`, each line's span in `spans` (piece memory offsets). */
export function packKnown(known: KnownLine[], spans: number[]): PackedKnown {
  return {
    lines: Int32Array.from(known, (k) => k.line),
    ids: Float64Array.from(known, (k) => k.id),
    spans: Int32Array.from(spans),
    hashes: known.map((k) => k.hash).join('\n'),
    observed: known.map((k) => k.observedAt).join('\n'),
  };
}

/** A piece's known lines into `into`, numbered from `lineOffset`, their text read from the piece's `memory` when asked. */
function unpackKnown(p: PackedKnown, memory: ArrayBuffer, lineOffset: number, into: KnownLine[]): void {
  if (!p.lines.length) return;
  const hashes = p.hashes.split('\n');
  const observed = p.observed.split('\n');
  for (let i = 0; i < p.lines.length; i++) into.push(new PieceLine(p.lines[i] + lineOffset, p.ids[i], hashes[i], observed[i], memory, p.spans[2 * i], p.spans[2 * i + 1]));
}

/** A known line of a piece whose memory came back with it. */
class PieceLine implements KnownLine {
  readonly known = true;
  constructor(
    readonly line: number, readonly id: number, readonly hash: string, readonly observedAt: string,
    private readonly memory: ArrayBuffer, private readonly start: number, private readonly end: number,
  ) {}

  text(): string {
    return Buffer.from(this.memory, this.start, this.end - this.start).toString('utf8');
  }
}
