import type { Currency } from '../domain/currencies.js';
import type { NormalizedRecord, PreparedRecord, StoredColumns } from '../domain/ingest-record.js';
import type { Variant } from '../domain/listing.js';
import type { MatchProfile } from '../domain/matching/index.js';
import { fromJsonColumn } from '../domain/listing-columns.js';

/**
 * Normalized records as flat arrays of their fields, the form a parse worker posts them in.
 * Cloning objects writes every member's name and rebuilds each object member by member; a flat
 * array of strings and numbers clones densely, doing neither. The nested fields travel as
 * the JSON texts the store writes (their `stored` columns) and are parsed back when read: the same
 * values, JSON being their stored form anyway.
 */
const FIELDS = 41;

/**
 * Records per packed array. Each array stays under V8's large-object size (128 KB: 256 records of
 * 41 fields are 84 KB), so it is made in the young generation with the strings stored into it;
 * every string stored into a large object takes the write barrier's slow path.
 */
const CHUNK_RECORDS = 256;

/**
 * Every record must carry its `stored` columns (parseLine adds them). Each array must be packed:
 * V8 clones a packed array densely, a holey one (`new Array(n)`) member by member, which is
 * slower each way. It is made packed at its full length first (one-value pushes), then written
 * by index.
 */
export function packRecords(records: NormalizedRecord[]): unknown[][] {
  const chunks: unknown[][] = [];
  for (let from = 0; from < records.length; from += CHUNK_RECORDS) {
    const to = Math.min(records.length, from + CHUNK_RECORDS);
    const out: unknown[] = [];
    for (let n = (to - from) * FIELDS; out.length < n;) out.push(null);
    let i = 0;
    for (let k = from; k < to; k++) {
      const r = records[k];
      const s = r.stored!;
      out[i++] = r.line; out[i++] = r.source; out[i++] = r.sku; out[i++] = r.merchantId; out[i++] = r.title;
      out[i++] = r.description; out[i++] = r.brand; out[i++] = r.category; out[i++] = r.gtin; out[i++] = r.mpn;
      out[i++] = r.price; out[i++] = r.currency; out[i++] = r.priceSgd; out[i++] = r.priceUsd; out[i++] = r.priceSgdMinor;
      out[i++] = r.originalPrice; out[i++] = r.url; out[i++] = r.affiliateUrl; out[i++] = r.imageUrl; out[i++] = r.rating;
      out[i++] = r.reviewCount; out[i++] = r.region; out[i++] = r.countryCode; out[i++] = r.inStock; out[i++] = r.stockLevel;
      out[i++] = r.shippingDays; out[i++] = r.observedAt;
      out[i++] = s.uuid; out[i++] = s.categoryPath; out[i++] = s.specs; out[i++] = s.metadata; out[i++] = s.variants;
      out[i++] = s.categoryKey; out[i++] = s.domain; out[i++] = s.discountPct; out[i++] = s.searchCategory; out[i++] = s.createdEventTail;
      out[i++] = s.accessory; out[i++] = s.lineHash ?? null; out[i++] = r.matchProfile; out[i++] = r.prepared;
    }
    chunks.push(out);
  }
  return chunks;
}

/**
 * A record as a worker posted it. Its nested fields are parsed from their JSON texts (its `stored`
 * columns) when first read: a writer storing a new listing writes those texts as they are and
 * never needs the values.
 */
class UnpackedRecord implements NormalizedRecord {
  line: number; source: string; sku: string; merchantId: string | null; title: string; description: string | null;
  brand: string | null; category: string | null; gtin: string | null; mpn: string | null; price: string; currency: Currency;
  priceSgd: string; priceUsd: string; priceSgdMinor: number; originalPrice: string | null; url: string;
  affiliateUrl: string | null; imageUrl: string | null; rating: string | null; reviewCount: number | null; region: string;
  countryCode: string; inStock: boolean | null; stockLevel: string | null; shippingDays: number | null; observedAt: string;
  stored: StoredColumns; matchProfile?: MatchProfile; prepared?: PreparedRecord;
  #categoryPath?: string[] | null;
  #specs?: Record<string, unknown> | null;
  #metadata?: Record<string, unknown> | null;
  #variants?: Variant[];

  constructor(f: unknown[], i: number) {
    this.line = f[i] as number; this.source = f[i + 1] as string; this.sku = f[i + 2] as string; this.merchantId = f[i + 3] as string | null;
    this.title = f[i + 4] as string; this.description = f[i + 5] as string | null; this.brand = f[i + 6] as string | null;
    this.category = f[i + 7] as string | null; this.gtin = f[i + 8] as string | null; this.mpn = f[i + 9] as string | null;
    this.price = f[i + 10] as string; this.currency = f[i + 11] as Currency; this.priceSgd = f[i + 12] as string;
    this.priceUsd = f[i + 13] as string; this.priceSgdMinor = f[i + 14] as number; this.originalPrice = f[i + 15] as string | null;
    this.url = f[i + 16] as string; this.affiliateUrl = f[i + 17] as string | null; this.imageUrl = f[i + 18] as string | null;
    this.rating = f[i + 19] as string | null; this.reviewCount = f[i + 20] as number | null; this.region = f[i + 21] as string;
    this.countryCode = f[i + 22] as string; this.inStock = f[i + 23] as boolean | null; this.stockLevel = f[i + 24] as string | null;
    this.shippingDays = f[i + 25] as number | null; this.observedAt = f[i + 26] as string;
    this.stored = {
      uuid: f[i + 27] as string, categoryPath: f[i + 28] as string | null, specs: f[i + 29] as string | null,
      metadata: f[i + 30] as string | null, variants: f[i + 31] as string | null, categoryKey: f[i + 32] as string | null,
      domain: f[i + 33] as string | null, discountPct: f[i + 34] as number, searchCategory: f[i + 35] as string,
      createdEventTail: f[i + 36] as string | undefined, accessory: f[i + 37] as boolean, lineHash: f[i + 38] as string | null,
    };
    this.matchProfile = (f[i + 39] ?? undefined) as MatchProfile | undefined;
    this.prepared = (f[i + 40] ?? undefined) as PreparedRecord | undefined;
  }

  // A stored JSON text is never "null" (jsonColumn writes NULL), so a parsed value is never null: ??= parses once.
  get categoryPath() { return (this.#categoryPath ??= fromJsonColumn(this.stored.categoryPath)); }
  get specs() { return (this.#specs ??= fromJsonColumn(this.stored.specs)); }
  get metadata() { return (this.#metadata ??= fromJsonColumn(this.stored.metadata)); }
  get variants() { return (this.#variants ??= fromJsonColumn(this.stored.variants) ?? []); }
}

export function unpackRecords(chunks: unknown[][]): NormalizedRecord[] {
  const records: NormalizedRecord[] = [];
  for (const f of chunks) for (let i = 0; i < f.length; i += FIELDS) records.push(new UnpackedRecord(f, i));
  return records;
}
