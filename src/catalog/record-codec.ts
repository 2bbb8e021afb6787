import type { Currency } from '../domain/currencies.js';
import type { NormalizedRecord, PreparedRecord, StoredColumns } from '../domain/ingest-record.js';
import type { Variant } from '../domain/listing.js';
import type { MatchProfile } from '../domain/matching/index.js';
import { fromJsonColumn } from '../store/derived.js';

/**
 * Normalized records as one flat array of their fields, the form a parse worker posts them in.
 * Cloning objects writes every member's name and rebuilds each object member by member; a flat
 * array of strings and numbers clones in about a third of the time. The nested fields travel as
 * the JSON texts the store writes (their `stored` columns) and are parsed back when read: the same
 * values, JSON being their stored form anyway.
 */
const FIELDS = 38;

/**
 * Every record must carry its `stored` columns (parseLine adds them). The array is built by
 * pushing, so it stays packed: V8 clones a packed array densely, a holey one (`new Array(n)`)
 * member by member, about three times slower each way.
 */
export function packRecords(records: NormalizedRecord[]): unknown[] {
  const out: unknown[] = [];
  for (const r of records) {
    const s = r.stored!;
    out.push(
      r.line, r.source, r.sku, r.merchantId, r.title, r.description, r.brand, r.category, r.gtin, r.mpn,
      r.price, r.currency, r.priceSgd, r.priceUsd, r.priceSgdMinor, r.originalPrice, r.url, r.affiliateUrl, r.imageUrl, r.rating,
      r.reviewCount, r.region, r.countryCode, r.inStock, r.stockLevel, r.shippingDays, r.observedAt,
      s.uuid, s.categoryPath, s.specs, s.metadata, s.variants, s.categoryKey, s.domain, s.discountPct, s.createdEventTail,
      r.matchProfile, r.prepared,
    );
  }
  return out;
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
      domain: f[i + 33] as string | null, discountPct: f[i + 34] as number, createdEventTail: f[i + 35] as string | undefined,
    };
    this.matchProfile = (f[i + 36] ?? undefined) as MatchProfile | undefined;
    this.prepared = (f[i + 37] ?? undefined) as PreparedRecord | undefined;
  }

  // A stored JSON text is never "null" (jsonColumn writes NULL), so a parsed value is never null: ??= parses once.
  get categoryPath() { return (this.#categoryPath ??= fromJsonColumn(this.stored.categoryPath)); }
  get specs() { return (this.#specs ??= fromJsonColumn(this.stored.specs)); }
  get metadata() { return (this.#metadata ??= fromJsonColumn(this.stored.metadata)); }
  get variants() { return (this.#variants ??= fromJsonColumn(this.stored.variants) ?? []); }
}

export function unpackRecords(f: unknown[]): NormalizedRecord[] {
  const records = new Array<NormalizedRecord>(f.length / FIELDS);
  for (let i = 0, n = 0; i < f.length; i += FIELDS, n++) records[n] = new UnpackedRecord(f, i);
  return records;
}
