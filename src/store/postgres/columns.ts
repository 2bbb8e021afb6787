import type { ListingState } from '../../domain/ingest-rules.js';
import { derivedColumns, jsonColumn } from '../../domain/listing-columns.js';
import type { ListingRow } from '../sql/listing-row.js';
import { tsvectorLiteral } from './text-search.js';

/** The columns `toListing` reads (sqlite/rows.ts): never `l.*`, which would drag the tsvector along. */
export const LISTING_COLUMNS = [
  'id', 'uuid', 'source', 'sku', 'merchant_id', 'title', 'description', 'brand', 'category', 'category_path', 'gtin', 'mpn',
  'price', 'currency', 'price_sgd', 'price_usd', 'original_price', 'url', 'affiliate_url', 'image_url', 'rating',
  'review_count', 'region', 'country_code', 'in_stock', 'stock_level', 'shipping_days', 'specs', 'metadata', 'variants',
  'group_id', 'price_trend', 'reference_price', 'last_checked_at', 'data_updated_at', 'created_at', 'updated_at',
].map((c) => `l.${c}`).join(', ');

/** The columns an ingest writes, in the order of `stateValues`, with the type each is cast to on the way in (`tsv` is sent as its literal). */
export const WRITE_COLUMNS: ReadonlyArray<readonly [name: string, type: string]> = [
  ['source', 'text'], ['sku', 'text'], ['merchant_id', 'text'], ['title', 'text'], ['description', 'text'], ['brand', 'text'],
  ['category', 'text'], ['category_path', 'text'], ['category_key', 'text'], ['gtin', 'text'], ['mpn', 'text'],
  ['price', 'text'], ['currency', 'text'], ['price_sgd', 'text'], ['price_usd', 'text'], ['price_sgd_minor', 'int8'],
  ['original_price', 'text'], ['discount_pct', 'float8'], ['history_discount_pct', 'float8'], ['url', 'text'], ['domain', 'text'],
  ['affiliate_url', 'text'], ['image_url', 'text'], ['rating', 'text'], ['review_count', 'int4'], ['region', 'text'],
  ['country_code', 'text'], ['in_stock', 'int2'], ['stock_level', 'text'], ['shipping_days', 'int4'], ['specs', 'text'],
  ['metadata', 'text'], ['variants', 'text'], ['price_trend', 'text'], ['reference_price', 'text'], ['last_checked_at', 'text'],
  ['data_updated_at', 'text'], ['updated_at', 'text'], ['accessory', 'int2'], ['tsv', 'text'],
];

export function stateValues(s: ListingState): unknown[] {
  const d = derivedColumns(s);
  return [
    s.source, s.sku, s.merchantId, s.title, s.description, s.brand, s.category, jsonColumn(s.categoryPath), d.categoryKey, s.gtin, s.mpn,
    s.price, s.currency, s.priceSgd, s.priceUsd, d.priceSgdMinor, s.originalPrice, d.discountPct, d.historyDiscountPct,
    s.url, d.domain, s.affiliateUrl, s.imageUrl, s.rating, s.reviewCount, s.region, s.countryCode,
    s.inStock == null ? null : s.inStock ? 1 : 0, s.stockLevel, s.shippingDays, jsonColumn(s.specs), jsonColumn(s.metadata), jsonColumn(s.variants),
    s.priceTrend, s.referencePrice, s.lastCheckedAt, s.dataUpdatedAt, s.updatedAt, d.accessory ? 1 : 0,
    tsvectorLiteral(s.title, s.brand, s.categoryPath, s.category),
  ];
}

/** Text as a TEXT column returns it: numbers (a JSON rating) come back as their decimal string. */
const text = (v: unknown) => (v == null ? null : String(v));

/**
 * The row PostgreSQL would return after writing `s`: a later record of the same listing in one
 * batch is planned against this, exactly as if it had been read back.
 */
export function stateRow(id: number, uuid: string, groupId: number, createdAt: string, s: ListingState): ListingRow {
  return {
    id, uuid, source: s.source, sku: s.sku, merchant_id: text(s.merchantId), title: s.title, description: text(s.description),
    brand: text(s.brand), category: text(s.category), category_path: jsonColumn(s.categoryPath), gtin: text(s.gtin), mpn: text(s.mpn),
    price: s.price, currency: s.currency, price_sgd: text(s.priceSgd), price_usd: text(s.priceUsd),
    original_price: text(s.originalPrice), url: s.url, affiliate_url: text(s.affiliateUrl), image_url: text(s.imageUrl),
    rating: text(s.rating), review_count: s.reviewCount, region: s.region, country_code: s.countryCode,
    in_stock: s.inStock == null ? null : s.inStock ? 1 : 0, stock_level: text(s.stockLevel), shipping_days: s.shippingDays,
    specs: jsonColumn(s.specs), metadata: jsonColumn(s.metadata), variants: jsonColumn(s.variants), group_id: groupId,
    price_trend: text(s.priceTrend), reference_price: text(s.referencePrice), last_checked_at: s.lastCheckedAt,
    data_updated_at: s.dataUpdatedAt, created_at: createdAt, updated_at: s.updatedAt,
  };
}
