import { createReadStream } from 'node:fs';
import { Readable } from 'node:stream';
import { setImmediate as nextTurn } from 'node:timers/promises';
import type { RateTable } from '../domain/fx.js';
import type { KnownLine, NormalizedRecord } from '../domain/ingest-record.js';
import type { CatalogStore, IngestBatchResult, KnownLinesCapability } from '../store/types.js';
import { emptyBatch, overLimit, parseLine, parseLines, MAX_LINE_BYTES } from './ingest-lines.js';
import { parallelAvailable, parseInWorker, type IngestInput, type WorkerRunner } from './ingest-parallel.js';
import { isObject, type Rejection } from './normalize.js';
import type { ParsedBatch } from './ingest-lines.js';
import { withFields } from '../domain/with-fields.js';

export interface IngestSummary {
  lines: number;
  inserted: number;
  updated: number;
  unchanged: number;
  rejected: number;
  rejections: Rejection[];
  events: number;
}

export interface IngestOptions {
  batchSize?: number;
  /** Keep at most this many rejections in the summary (the count stays exact). */
  maxRejections?: number;
  onProgress?: (s: IngestSummary, bytes: number) => void;
  now?: () => Date;
  /**
   * Parse, validate and normalize in a worker thread while this one writes (a large import on a
   * machine with a core to spare). Needs the wall clock (no `now`) and the compiled build; the
   * result is the same either way.
   */
  parallel?: boolean;
  /**
   * With `parallel`: whether the workers may build records' matching profiles (default true). They
   * do while at least half of the records last written were new or changed: a listing that
   * changes nothing needs none, and in a re-imported feed most lines change nothing, where the
   * profiles cost more than the rest of the import. A bulk load matches after storing, from the
   * stored rows, and needs none.
   */
  profiles?: boolean;
  /** With `parallel`: the parse workers' module (tests run the sources); the compiled build's by default. */
  runner?: WorkerRunner;
  /** Let the event loop turn between batches (a request's ingest: other requests are served meanwhile). */
  yieldBetweenBatches?: boolean;
}

/** A rejected record of a JSON list, by its position in the list (from 0). */
export interface RecordRejection { index: number; field: string; reason: string }

export interface RecordsSummary {
  inserted: number;
  updated: number;
  unchanged: number;
  rejected: number;
  rejections: RecordRejection[];
  events: number;
}

const hasSource = (r: Record<string, unknown>) => r.source != null && !(typeof r.source === 'string' && !r.source.trim());

/**
 * Streams NDJSON into the catalog: one line at a time, never the whole input in memory, batched
 * transactions, a bad line reported by number while every good line is stored.
 */
export class IngestService {
  constructor(private readonly store: CatalogStore, private readonly rates: () => RateTable) {}

  async ingestStream(input: IngestInput, opts: IngestOptions = {}): Promise<IngestSummary> {
    const batchSize = opts.batchSize ?? 1000;
    const maxRejections = opts.maxRejections ?? 1000;
    const summary: IngestSummary = { lines: 0, inserted: 0, updated: 0, unchanged: 0, rejected: 0, rejections: [], events: 0 };
    const mayProfile = opts.profiles ?? true;
    let profiles = mayProfile;
    const parallel = opts.parallel && !opts.now && (opts.runner !== undefined || parallelAvailable());
    const known = parallel ? this.store.knownLines?.() ?? null : null;
    // The workers look lines up in the store while most lines last written changed nothing (a feed
    // imported again): such a line is then passed on unnormalized, and its listing only touched.
    let lookUp = false;
    const batches = parallel
      ? parseInWorker(input, batchSize, this.rates(), () => profiles, opts.runner, known ? { lookup: known.file, now: () => lookUp } : undefined)
      : parseLines(input instanceof Readable ? input : createReadStream(input.path, { highWaterMark: 1 << 20 }),
        { batchSize, rates: this.rates(), now: opts.now ?? (() => new Date()), prepare: false });
    for await (const b of batches) {
      const mostlyWritten = await this.take(b, summary, maxRejections, known);
      if (mayProfile) profiles = mostlyWritten;
      lookUp = !mostlyWritten;
      opts.onProgress?.(summary, b.bytes);
      if (opts.yieldBetweenBatches) await nextTurn();
    }
    return summary;
  }

  /**
   * A list of records already parsed (a JSON body): each becomes one NDJSON line of the same
   * stream, so the rules, batches and events are those of every other ingest. A record without a
   * source of its own takes `source`. Rejections are reported by position in the list.
   */
  async ingestRecords(records: readonly unknown[], opts: IngestOptions & { source?: string } = {}): Promise<RecordsSummary> {
    const early: RecordRejection[] = [];
    // A position that cannot be a record stays a blank line: the line numbers keep the positions.
    const lines = records.map((r, index) => {
      if (!isObject(r)) {
        early.push({ index, field: '(record)', reason: 'each product must be a JSON object' });
        return '';
      }
      // A client's record: spread, since withFields would take an own `__proto__` member as the prototype.
      // eslint-disable-next-line no-restricted-syntax
      const line = JSON.stringify(opts.source !== undefined && !hasSource(r) ? { ...r, source: opts.source } : r);
      // The stream would end at an overlong line; here only that record is refused.
      if (overLimit(line)) {
        early.push({ index, field: '(record)', reason: `larger than ${MAX_LINE_BYTES} bytes as JSON` });
        return '';
      }
      return line;
    });
    const s = await this.ingestStream(Readable.from([lines.join('\n')]), withFields(opts, { maxRejections: Math.max(opts.maxRejections ?? 0, records.length) }));
    const rejections = early.concat(s.rejections.map((r) => ({ index: r.line - 1, field: r.field, reason: r.reason }))).sort((a, b) => a.index - b.index);
    return {
      inserted: s.inserted, updated: s.updated, unchanged: s.unchanged, rejected: rejections.length, rejections, events: s.events,
    };
  }

  /** Stores one batch into the summary; true when at least half its records were new or changed. */
  private async take(b: ParsedBatch, summary: IngestSummary, maxRejections: number, known: KnownLinesCapability | null): Promise<boolean> {
    summary.lines += b.lines;
    const reject = (rs: Rejection[]) => {
      summary.rejected += rs.length;
      for (const r of rs) if (summary.rejections.length < maxRejections) summary.rejections.push(r);
    };
    reject(b.rejections);
    if (!b.records.length && !b.known.length) return true;
    const res = b.known.length ? await this.writeWithKnown(b, known!, reject) : await this.store.ingestBatch(b.records);
    let written = 0;
    for (const o of res.outcomes) {
      summary[o.outcome]++;
      if (o.outcome !== 'unchanged') written++;
    }
    summary.events += res.events;
    return 2 * written >= res.outcomes.length;
  }

  /**
   * A batch with known lines, in line order. A known line whose listing changed after the worker
   * read it (an earlier line of the feed, or another writer) stops the store there: it is
   * normalized here after all, and sent again with the lines after it.
   */
  private async writeWithKnown(b: ParsedBatch, known: KnownLinesCapability, reject: (rs: Rejection[]) => void): Promise<IngestBatchResult> {
    let items = byLine(b.records, b.known);
    const result: IngestBatchResult = { outcomes: [], events: 0 };
    while (items.length) {
      const r = await known.ingest(items);
      result.outcomes.push(...r.outcomes);
      result.events += r.events;
      if (r.stoppedAt === undefined) return result;
      const stale = items[r.stoppedAt] as KnownLine;
      const parsed = emptyBatch();
      // Observed as the worker read it: its own time, or (without one) when its piece was parsed.
      parseLine(stale.text(), stale.line, parsed, { rates: this.rates(), now: () => new Date(stale.observedAt), prepare: false });
      reject(parsed.rejections);
      items = [...parsed.records, ...items.slice(r.stoppedAt + 1)];
    }
    return result;
  }
}

/** Records and known lines, each in line order, merged in line order. */
function byLine(records: NormalizedRecord[], known: KnownLine[]): Array<NormalizedRecord | KnownLine> {
  const out: Array<NormalizedRecord | KnownLine> = [];
  let i = 0;
  let j = 0;
  while (i < records.length || j < known.length) {
    out.push(j >= known.length || (i < records.length && records[i].line < known[j].line) ? records[i++] : known[j++]);
  }
  return out;
}
