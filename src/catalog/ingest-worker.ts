// The parse side of a parallel import, in a worker thread: pieces of whole NDJSON lines in,
// their normalized records (with matching profiles when asked) out. See `parseInWorker` in
// ingest-parallel.ts, which deals the pieces out and puts the records back in order.
import { parentPort, workerData } from 'node:worker_threads';
import Big from 'big.js';
import BetterSqlite3 from 'better-sqlite3';
import type { Currency } from '../domain/currencies.js';
import type { RateTable } from '../domain/fx.js';
import { emptyBatch, knownBytes, MAX_LINE_BYTES, parseLine } from './ingest-lines.js';
import { KnownRows } from './known-rows.js';
import { packKnown, type FromWorker, type ToWorker, type WorkerSetup } from './ingest-parallel.js';
import { packRecords } from './record-codec.js';
import { withFields } from '../domain/with-fields.js';

const setup = workerData as WorkerSetup;
const port = parentPort!;
const rates: RateTable = {
  date: setup.rates.date,
  source: setup.rates.source,
  perEur: Object.fromEntries(Object.entries(setup.rates.perEur).map(([c, v]) => [c, new Big(v)])) as Record<Currency, Big>,
};

// Read-only, on a connection of its own: what the store holds for a (source, sku) when its piece is parsed.
let lookup: KnownRows | null = null;
const known = (source: string, sku: string) => lookup!.get(source, sku);

port.on('message', (m: ToWorker) => {
  try {
    const data = Buffer.from(m.data.buffer, m.data.byteOffset, m.data.byteLength);
    // A record without observed_at is observed when its piece is parsed.
    const at = new Date();
    if (m.known && setup.lookup && !lookup) {
      const db = new BetterSqlite3(setup.lookup, { readonly: true });
      // The (source, sku) index and the rows' pages a re-import walks through, in order.
      db.pragma('cache_size = -65536');
      lookup = new KnownRows(
        db.prepare('SELECT id, line_hash FROM listings WHERE source = ? AND sku = ?').raw(),
        db.prepare('SELECT id, source, sku, line_hash FROM listings WHERE id > ? ORDER BY id LIMIT ?').raw(),
      );
    }
    const opts = { rates, now: () => at, prepare: m.prepare, known: m.known && lookup ? known : undefined };
    const batch = emptyBatch();
    // Where each known line lies in the piece's memory, which goes back with them.
    const spans: number[] = [];
    let lineCount = 0;
    let tooLongAt: number | undefined;
    for (let start = 0; start < data.length;) {
      let end = data.indexOf(10, start);
      if (end < 0) end = data.length;
      // As split2 splits: on \n, a \r before it dropped.
      const stop = end > start && data[end - 1] === 13 ? end - 1 : end;
      lineCount++;
      if (stop - start > MAX_LINE_BYTES) {
        tooLongAt = lineCount;
        break;
      }
      // A line stored as it is, known from its bytes, is never decoded here.
      const line = opts.known ? data.subarray(start, stop) : null;
      const looked = line ? knownBytes(line, lineCount, batch, opts) : undefined;
      // Each line decoded alone: a line of ASCII becomes a one-byte string, which parses faster than
      // a slice of a piece holding any other character (and the piece's decoding takes the slow path).
      if (looked !== true) parseLine(data.toString('utf8', start, stop), lineCount, batch, opts, looked);
      if (spans.length < 2 * batch.known.length) spans.push(m.data.byteOffset + start, m.data.byteOffset + stop);
      start = end + 1;
    }
    const { records, known: knownLines, ...rest } = batch;
    const packed = packKnown(knownLines, spans);
    // The piece's memory goes back, to be read into again (and its known lines' text from).
    const memory = m.data.buffer as ArrayBuffer;
    const moved = [memory, packed.lines.buffer, packed.ids.buffer, packed.spans.buffer] as ArrayBuffer[];
    port.postMessage({ type: 'piece', seq: m.seq, batch: withFields(rest, { records: packRecords(records), known: packed }), lineCount, tooLongAt, memory } satisfies FromWorker, moved);
  } catch (e) {
    port.postMessage({ type: 'error', message: (e as Error).message } satisfies FromWorker);
  }
});
