import { createReadStream } from 'node:fs';
import { Readable } from 'node:stream';
import { setImmediate as nextTurn } from 'node:timers/promises';
import type { RateTable } from '../domain/fx.js';
import type { CatalogStore } from '../store/types.js';
import { overLimit, parseLines, MAX_LINE_BYTES } from './ingest-lines.js';
import { parallelAvailable, parseInWorker, type IngestInput } from './ingest-parallel.js';
import type { Rejection } from './normalize.js';
import type { ParsedBatch } from './ingest-lines.js';

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

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
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
    const batches = opts.parallel && !opts.now && parallelAvailable()
      ? parseInWorker(input, batchSize, this.rates(), () => profiles)
      : parseLines(input instanceof Readable ? input : createReadStream(input.path, { highWaterMark: 1 << 20 }),
        { batchSize, rates: this.rates(), now: opts.now ?? (() => new Date()), prepare: false });
    for await (const b of batches) {
      const mostlyWritten = await this.take(b, summary, maxRejections);
      if (mayProfile) profiles = mostlyWritten;
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
      const line = JSON.stringify(opts.source !== undefined && !hasSource(r) ? { ...r, source: opts.source } : r);
      // The stream would end at an overlong line; here only that record is refused.
      if (overLimit(line)) {
        early.push({ index, field: '(record)', reason: `larger than ${MAX_LINE_BYTES} bytes as JSON` });
        return '';
      }
      return line;
    });
    const s = await this.ingestStream(Readable.from([lines.join('\n')]), { ...opts, maxRejections: Math.max(opts.maxRejections ?? 0, records.length) });
    const rejections = early.concat(s.rejections.map((r) => ({ index: r.line - 1, field: r.field, reason: r.reason }))).sort((a, b) => a.index - b.index);
    return {
      inserted: s.inserted, updated: s.updated, unchanged: s.unchanged, rejected: rejections.length, rejections, events: s.events,
    };
  }

  /** Stores one batch into the summary; true when at least half its records were new or changed. */
  private async take(b: ParsedBatch, summary: IngestSummary, maxRejections: number): Promise<boolean> {
    summary.lines += b.lines;
    summary.rejected += b.rejections.length;
    for (const r of b.rejections) if (summary.rejections.length < maxRejections) summary.rejections.push(r);
    if (!b.records.length) return true;
    const res = await this.store.ingestBatch(b.records);
    let written = 0;
    for (const o of res.outcomes) {
      summary[o.outcome]++;
      if (o.outcome !== 'unchanged') written++;
    }
    summary.events += res.events;
    return 2 * written >= res.outcomes.length;
  }
}
