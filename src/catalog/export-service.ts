import { pipeline, Readable } from 'node:stream';
import { stringify } from 'csv-stringify';
import type { Listing } from '../domain/listing.js';
import type { ListingFilter } from '../store/types.js';

/** The export record (the spec leaves it open): flat, one row per listing, every column a scalar. */
export const EXPORT_COLUMNS = [
  'id', 'uuid', 'sku', 'source', 'merchant_id', 'name', 'brand', 'category', 'category_path', 'price', 'currency',
  'price_sgd', 'usd_price', 'original_price', 'in_stock', 'stock_level', 'rating', 'review_count', 'barcode', 'mpn',
  'buy_url', 'affiliate_url', 'image_url', 'region', 'country_code', 'last_checked', 'updated_at',
] as const;

export type ExportRecord = Record<(typeof EXPORT_COLUMNS)[number], string | number | boolean | null>;
export type ExportFormat = 'json' | 'csv';

export function exportRecord(l: Listing): ExportRecord {
  return {
    id: l.id, uuid: l.uuid, sku: l.sku, source: l.source, merchant_id: l.merchantId, name: l.title, brand: l.brand,
    category: l.category, category_path: l.categoryPath?.join(' > ') ?? null, price: l.price, currency: l.currency,
    price_sgd: l.priceSgd, usd_price: l.priceUsd, original_price: l.originalPrice, in_stock: l.inStock,
    stock_level: l.stockLevel, rating: l.rating, review_count: l.reviewCount, barcode: l.gtin, mpn: l.mpn,
    buy_url: l.url, affiliate_url: l.affiliateUrl, image_url: l.imageUrl, region: l.region, country_code: l.countryCode,
    last_checked: l.lastCheckedAt, updated_at: l.updatedAt,
  };
}

export interface ExportFile {
  contentType: string;
  filename: string;
  body: Readable;
}

async function* jsonArray(first: Listing | null, rest: AsyncIterator<Listing>): AsyncIterable<string> {
  yield '[';
  if (first) {
    yield JSON.stringify(exportRecord(first));
    for (let r = await rest.next(); !r.done; r = await rest.next()) yield ',' + JSON.stringify(exportRecord(r.value));
  }
  yield ']';
}

async function* records(first: Listing | null, rest: AsyncIterator<Listing>): AsyncIterable<ExportRecord> {
  if (!first) return;
  yield exportRecord(first);
  for (let r = await rest.next(); !r.done; r = await rest.next()) yield exportRecord(r.value);
}

/** Streams listings as a CSV or JSON file, never holding the whole result. */
export class ExportService {
  constructor(private readonly scan: (filter: ListingFilter, limit: number, offset: number) => AsyncIterable<Listing>) {}

  /**
   * Opens the export: the first rows are read before anything is sent, so a fault there is an error
   * answer; a fault later ends the stream with an error its consumer sees (never an unhandled one).
   */
  async open(format: ExportFormat, filter: ListingFilter, limit: number, offset: number): Promise<ExportFile> {
    const rows = this.scan(filter, limit, offset)[Symbol.asyncIterator]();
    const head = await rows.next();
    const first = head.done ? null : head.value;
    if (format === 'json') {
      return { contentType: 'application/json; charset=utf-8', filename: 'products.json', body: Readable.from(jsonArray(first, rows)) };
    }
    // escape_formulas: a text cell starting with = + - @ tab or CR gets a leading ' (OWASP, CSV injection).
    const csv = stringify({ header: true, columns: [...EXPORT_COLUMNS], escape_formulas: true, cast: { boolean: (b) => (b ? 'true' : 'false') } });
    // pipeline hands a failure of the source on to `csv` (pipe would leave it unhandled).
    pipeline(Readable.from(records(first, rows)), csv, () => undefined);
    return { contentType: 'text/csv; charset=utf-8', filename: 'products.csv', body: csv };
  }
}
