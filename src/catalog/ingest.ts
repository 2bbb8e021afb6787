import { createReadStream } from 'node:fs';
import { Readable } from 'node:stream';
import type { RateTable } from '../domain/fx.js';
import type { CatalogStore } from '../store/types.js';
import { parseLines } from './ingest-lines.js';
import { parallelAvailable, parseInWorker, type IngestInput } from './ingest-parallel.js';
import type { Rejection } from './normalize.js';

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
}

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
      summary.lines += b.lines;
      summary.rejected += b.rejections.length;
      for (const r of b.rejections) if (summary.rejections.length < maxRejections) summary.rejections.push(r);
      if (!b.records.length) continue;
      const res = await this.store.ingestBatch(b.records);
      let written = 0;
      for (const o of res.outcomes) {
        summary[o.outcome]++;
        if (o.outcome !== 'unchanged') written++;
      }
      if (mayProfile) profiles = 2 * written >= res.outcomes.length;
      summary.events += res.events;
      opts.onProgress?.(summary, b.bytes);
    }
    return summary;
  }

  /** Ingests already-parsed records (the JSON-array form of POST /v1/ingest/products). */
  async ingestRecords(records: unknown[], now = new Date()): Promise<IngestSummary> {
    const ndjson = records.map((r) => JSON.stringify(r)).join('\n');
    return this.ingestStream(Readable.from([ndjson]), { now: () => now });
  }
}
