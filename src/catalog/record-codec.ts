import type { Currency } from '../domain/currencies.js';
import type { NormalizedRecord, PreparedRecord, StoredColumns } from '../domain/ingest-record.js';
import type { MatchProfile } from '../domain/matching/index.js';

/**
 * Normalized records as one flat array of their fields, the form a parse worker posts them in.
 * Cloning objects writes every member's name and rebuilds each object member by member; a flat
 * array of strings and numbers clones in about a third of the time, and `unpackRecords` builds
 * each record in one literal. The nested fields travel as the JSON texts the store writes (their
 * `stored` columns) and are parsed back: the same values, JSON being their stored form anyway.
 */
const FIELDS = 38;
const parse = (json: string | null) => (json === null ? null : JSON.parse(json));

/** Every record must carry its `stored` columns (parseLine adds them). */
export function packRecords(records: NormalizedRecord[]): unknown[] {
  const out = new Array<unknown>(records.length * FIELDS);
  let i = 0;
  for (const r of records) {
    const s = r.stored!;
    out[i++] = r.line; out[i++] = r.source; out[i++] = r.sku; out[i++] = r.merchantId; out[i++] = r.title;
    out[i++] = r.description; out[i++] = r.brand; out[i++] = r.category; out[i++] = r.gtin; out[i++] = r.mpn;
    out[i++] = r.price; out[i++] = r.currency; out[i++] = r.priceSgd; out[i++] = r.priceUsd; out[i++] = r.priceSgdMinor;
    out[i++] = r.originalPrice; out[i++] = r.url; out[i++] = r.affiliateUrl; out[i++] = r.imageUrl; out[i++] = r.rating;
    out[i++] = r.reviewCount; out[i++] = r.region; out[i++] = r.countryCode; out[i++] = r.inStock; out[i++] = r.stockLevel;
    out[i++] = r.shippingDays; out[i++] = r.observedAt;
    out[i++] = s.uuid; out[i++] = s.categoryPath; out[i++] = s.specs; out[i++] = s.metadata; out[i++] = s.variants;
    out[i++] = s.categoryKey; out[i++] = s.domain; out[i++] = s.discountPct; out[i++] = s.createdEventTail;
    out[i++] = r.matchProfile; out[i++] = r.prepared;
  }
  return out;
}

export function unpackRecords(f: unknown[]): NormalizedRecord[] {
  const records = new Array<NormalizedRecord>(f.length / FIELDS);
  for (let i = 0, n = 0; i < f.length; i += FIELDS, n++) {
    const stored: StoredColumns = {
      uuid: f[i + 27] as string, categoryPath: f[i + 28] as string | null, specs: f[i + 29] as string | null,
      metadata: f[i + 30] as string | null, variants: f[i + 31] as string | null, categoryKey: f[i + 32] as string | null,
      domain: f[i + 33] as string | null, discountPct: f[i + 34] as number, createdEventTail: f[i + 35] as string | undefined,
    };
    records[n] = {
      line: f[i] as number, source: f[i + 1] as string, sku: f[i + 2] as string, merchantId: f[i + 3] as string | null,
      title: f[i + 4] as string, description: f[i + 5] as string | null, brand: f[i + 6] as string | null,
      category: f[i + 7] as string | null, categoryPath: parse(stored.categoryPath), gtin: f[i + 8] as string | null,
      mpn: f[i + 9] as string | null, price: f[i + 10] as string, currency: f[i + 11] as Currency,
      priceSgd: f[i + 12] as string, priceUsd: f[i + 13] as string, priceSgdMinor: f[i + 14] as number,
      originalPrice: f[i + 15] as string | null, url: f[i + 16] as string, affiliateUrl: f[i + 17] as string | null,
      imageUrl: f[i + 18] as string | null, rating: f[i + 19] as string | null, reviewCount: f[i + 20] as number | null,
      region: f[i + 21] as string, countryCode: f[i + 22] as string, inStock: f[i + 23] as boolean | null,
      stockLevel: f[i + 24] as string | null, shippingDays: f[i + 25] as number | null,
      specs: parse(stored.specs), metadata: parse(stored.metadata), variants: parse(stored.variants) ?? [],
      observedAt: f[i + 26] as string, stored,
      matchProfile: (f[i + 36] ?? undefined) as MatchProfile | undefined, prepared: (f[i + 37] ?? undefined) as PreparedRecord | undefined,
    };
  }
  return records;
}
