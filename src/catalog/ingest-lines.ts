import type { Readable } from 'node:stream';
import split2 from 'split2';
import type { RateTable } from '../domain/fx.js';
import type { KnownLine, NormalizedRecord, PreparedRecord } from '../domain/ingest-record.js';
import { createdTail } from '../domain/event-codec.js';
import { profileOfListing } from '../domain/listing-profile.js';
import { blockingKeys, compactProfile, encodeProfile, type MatchProfile } from '../domain/matching/index.js';
import { listingUuid } from '../domain/listing-id.js';
import { storedColumns } from '../domain/listing-columns.js';
import { bytesValueStart, lineHash, plainBytesEnd, unparsedBytesHash } from './line-hash.js';
import { isObject, listingKeyOf, normalizeRecord, observedAtOf, type Rejection } from './normalize.js';
import { withFields } from '../domain/with-fields.js';

export const MAX_LINE_BYTES = 1_000_000;

/** One step of the parse side: records ready to store and what was rejected, in line order. */
export interface ParsedBatch {
  records: NormalizedRecord[];
  /** Lines found stored as they are (ParseOptions.known), in line order like the records. */
  known: KnownLine[];
  rejections: Rejection[];
  /** Non-blank lines read for this batch (stored or rejected). */
  lines: number;
  /** Input bytes read so far. */
  bytes: number;
}

export interface ParseOptions {
  batchSize: number;
  rates: RateTable;
  now: () => Date;
  /** Attach what the writer would derive for matching (done where parsing runs beside the writer). */
  prepare: boolean;
  /**
   * The id and line hash stored for a (source, sku), where the parse side can read them (a parse
   * worker beside an embedded store): a line with the stored hash is then passed on as a KnownLine,
   * not normalized.
   */
  known?: (source: string, sku: string) => { id: number; hash: string | null } | undefined;
}

function prepare(r: NormalizedRecord, profile: MatchProfile): PreparedRecord {
  return { uuid: listingUuid(r.source, r.sku), profileText: encodeProfile(profile), keys: blockingKeys(profile), compact: compactProfile(profile) };
}

export const emptyBatch = (): ParsedBatch => ({ records: [], known: [], rejections: [], lines: 0, bytes: 0 });

type Stored = { id: number; hash: string | null } | undefined;
/** A (source, sku) looked up for a line, kept for the parse that may follow. */
export interface Lookup { source: string; sku: string; stored: Stored }

/** Whether the line is stored as it is (then it went into `out.known`); `before`: a look-up already made for it. */
function knownLine(text: string, line: number, raw: Record<string, unknown>, hash: string, out: ParsedBatch, opts: Omit<ParseOptions, 'batchSize'>, before: Lookup | null): boolean {
  const key = listingKeyOf(raw);
  if (!key) return false;
  const stored = before && before.source === key.source && before.sku === key.sku ? before.stored : opts.known!(key.source, key.sku);
  return stored?.hash === hash && pushKnown(() => text, line, stored.id, hash, raw.observed_at, out, opts);
}

const SOURCE_BYTES = Buffer.from('"source"');
const SKU_BYTES = Buffer.from('"sku"');

/**
 * knownLine before the line is decoded or parsed (a parse worker's pieces are bytes; decoding and
 * JSON.parse cost more than the rest of a known line): source and sku as the bytes write them
 * (plain strings), the hash from the bytes, only source, sku and observed_at decoded. Where the
 * bytes mislead (a nested `sku`, bytes that are not UTF-8), no stored hash is equal and the line
 * is parsed, knownLine deciding. True when the line went into `out.known` (and was counted); else
 * the look-up made, if any, for parseLine's `looked`.
 */
export function knownBytes(line: Buffer, lineNo: number, out: ParsedBatch, opts: Omit<ParseOptions, 'batchSize'>): true | Lookup | null {
  const source = plainBytes(line, SOURCE_BYTES);
  const sku = source === undefined ? undefined : plainBytes(line, SKU_BYTES);
  const key = sku === undefined ? null : listingKeyOf({ source, sku });
  if (!key) return null;
  const looked: Lookup = withFields(key, { stored: opts.known!(key.source, key.sku) });
  const stored = looked.stored?.hash;
  const u = stored ? unparsedBytesHash(line) : null;
  if (u && u.hash === stored && pushKnown(() => line.toString('utf8'), lineNo, looked.stored!.id, u.hash, u.observedAt, out, opts)) {
    out.lines++;
    return true;
  }
  return looked;
}

/**
 * Puts a known line of listing `id` into `out`, observed when its `observed_at` says (false when
 * that is no time); `text` gives the line, decoded only if it is wanted.
 */
function pushKnown(text: () => string, line: number, id: number, hash: string, observed: unknown, out: ParsedBatch, opts: Omit<ParseOptions, 'batchSize'>): boolean {
  const observedAt = observedAtOf({ observed_at: observed }, opts.now());
  if (observedAt === null) return false;
  out.known.push({ known: true, line, id, hash, observedAt, text });
  return true;
}

/** The first `key` member's value where the bytes write it as a string without escapes, else undefined. */
function plainBytes(line: Buffer, key: Buffer): string | undefined {
  const at = line.indexOf(key);
  const from = at < 0 ? -1 : bytesValueStart(line, at + key.length);
  const end = from < 0 ? -1 : plainBytesEnd(line, from);
  return end < 0 ? undefined : line.toString('utf8', from + 1, end);
}

/**
 * One input line (its number counts blank lines too) into `out`: a record, a rejection, or nothing
 * when blank. `looked`: the look-up knownBytes made for this line, where it was asked first.
 */
export function parseLine(text: string, lineNo: number, out: ParsedBatch, opts: Omit<ParseOptions, 'batchSize'>, looked?: Lookup | null): void {
  if (!text.trim()) return;
  out.lines++;
  const before = looked ?? null;
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    out.rejections.push({ line: lineNo, field: '(line)', reason: 'not valid JSON' });
    return;
  }
  try {
    const hash = isObject(raw) ? lineHash(text, raw) : null;
    if (hash !== null && opts.known && knownLine(text, lineNo, raw as Record<string, unknown>, hash, out, opts, before)) return;
    const n = normalizeRecord(raw, lineNo, opts.rates, opts.now());
    if (!n.ok) {
      out.rejections.push(n.rejection);
      return;
    }
    const stored = storedColumns(n.record);
    stored.createdEventTail = createdTail(n.record, stored);
    stored.lineHash = hash;
    n.record.stored = stored;
    if (opts.prepare) {
      n.record.matchProfile = profileOfListing(n.record);
      n.record.prepared = prepare(n.record, n.record.matchProfile);
    }
    out.records.push(n.record);
  } catch {
    // A record no rule foresaw must not stop the lines after it (nor say more than this to a client).
    out.rejections.push({ line: lineNo, field: '(record)', reason: 'could not be processed' });
  }
}

/** A line over the limit ends the input (a UTF-8 character is at most 3 bytes a UTF-16 unit: only a long line is measured). */
export const overLimit = (line: string): boolean => line.length * 3 > MAX_LINE_BYTES && Buffer.byteLength(line) > MAX_LINE_BYTES;

export const tooLong = (line: number): Rejection =>
  ({ line, field: '(line)', reason: `line longer than ${MAX_LINE_BYTES} bytes; input ended there` });

/**
 * NDJSON lines -> validated, normalized records, one batch at a time: never the whole input in
 * memory. A batch ends at `batchSize` records (or as many rejections); a line over the length
 * limit ends the input there and is reported.
 */
export async function* parseLines(input: Readable, opts: ParseOptions): AsyncGenerator<ParsedBatch> {
  // On \n alone, a \r before it dropped here: the bytes read are counted with it.
  const lines = input.pipe(split2('\n', { maxLength: MAX_LINE_BYTES }));
  input.on('error', (e) => lines.destroy(e));
  let batch = emptyBatch();
  let bytes = 0;
  let lineNo = 0;
  const take = (): ParsedBatch => {
    const out = withFields(batch, { bytes });
    batch = emptyBatch();
    return out;
  };
  try {
    for await (const read of lines as AsyncIterable<string>) {
      lineNo++;
      bytes += Buffer.byteLength(read) + 1;
      const text = read.endsWith('\r') ? read.slice(0, -1) : read;
      // split2 bounds only a line it holds unfinished; one that came whole is measured here.
      if (overLimit(text)) {
        batch.rejections.push(tooLong(lineNo));
        break;
      }
      parseLine(text, lineNo, batch, opts);
      if (batch.records.length >= opts.batchSize || batch.rejections.length >= opts.batchSize) yield take();
    }
  } catch (e) {
    // split2 refuses a line over its limit; everything before it is kept and the reason reported.
    if (!(e as Error).message?.includes('maximum buffer')) throw e;
    batch.rejections.push(tooLong(lineNo + 1));
  }
  yield take();
}
