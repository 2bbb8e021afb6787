import { Readable } from 'node:stream';
import split2 from 'split2';
import type { RateTable } from '../domain/fx.js';
import type { NormalizedRecord } from '../domain/ingest-record.js';
import type { CatalogStore } from '../store/types.js';
import { normalizeRecord, type Rejection } from './normalize.js';

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
}

const MAX_LINE_BYTES = 1_000_000;

/**
 * Streams NDJSON into the catalog: one line at a time, never the whole input in memory, batched
 * transactions, a bad line reported by number while every good line is stored.
 */
export class IngestService {
  constructor(private readonly store: CatalogStore, private readonly rates: () => RateTable) {}

  async ingestStream(input: Readable, opts: IngestOptions = {}): Promise<IngestSummary> {
    const batchSize = opts.batchSize ?? 1000;
    const maxRejections = opts.maxRejections ?? 1000;
    const now = opts.now ?? (() => new Date());
    const summary: IngestSummary = { lines: 0, inserted: 0, updated: 0, unchanged: 0, rejected: 0, rejections: [], events: 0 };
    const reject = (r: Rejection) => {
      summary.rejected++;
      if (summary.rejections.length < maxRejections) summary.rejections.push(r);
    };
    let batch: NormalizedRecord[] = [];
    let bytes = 0;
    const flush = async () => {
      if (!batch.length) return;
      const res = await this.store.ingestBatch(batch);
      for (const o of res.outcomes) summary[o.outcome]++;
      summary.events += res.events;
      batch = [];
      opts.onProgress?.(summary, bytes);
    };
    const rates = this.rates();
    const lines = input.pipe(split2({ maxLength: MAX_LINE_BYTES }));
    input.on('error', (e) => lines.destroy(e));
    let lineNo = 0;
    try {
      for await (const text of lines as AsyncIterable<string>) {
        lineNo++;
        bytes += Buffer.byteLength(text) + 1;
        if (!text.trim()) continue;
        summary.lines++;
        let raw: unknown;
        try {
          raw = JSON.parse(text);
        } catch {
          reject({ line: lineNo, field: '(line)', reason: 'not valid JSON' });
          continue;
        }
        const n = normalizeRecord(raw, lineNo, rates, now());
        if (!n.ok) reject(n.rejection);
        else batch.push(n.record);
        if (batch.length >= batchSize) await flush();
      }
    } catch (e) {
      // split2 refuses a line over its limit; everything before it is kept and the reason reported.
      if ((e as Error).message?.includes('maximum buffer')) reject({ line: lineNo + 1, field: '(line)', reason: `line longer than ${MAX_LINE_BYTES} bytes; input ended there` });
      else throw e;
    }
    await flush();
    return summary;
  }

  /** Ingests already-parsed records (the JSON-array form of POST /v1/ingest/products). */
  async ingestRecords(records: unknown[], now = new Date()): Promise<IngestSummary> {
    const ndjson = records.map((r) => JSON.stringify(r)).join('\n');
    return this.ingestStream(Readable.from([ndjson]), { now: () => now });
  }
}
