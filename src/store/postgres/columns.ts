import type { ListingState } from '../../domain/ingest-rules.js';
import { derivedColumns } from '../derived.js';
import { tsvectorLiteral } from './text-search.js';

/** The columns `toListing` reads (sqlite/rows.ts): never `l.*`, which would drag the tsvector along. */
export const LISTING_COLUMNS = [
  'id', 'uuid', 'source', 'sku', 'merchant_id', 'title', 'description', 'brand', 'category', 'category_path', 'gtin', 'mpn',
  'price', 'currency', 'price_sgd', 'price_usd', 'original_price', 'url', 'affiliate_url', 'image_url', 'rating',
  'review_count', 'region', 'country_code', 'in_stock', 'stock_level', 'shipping_days', 'specs', 'metadata', 'variants',
  'group_id', 'price_trend', 'reference_price', 'last_checked_at', 'data_updated_at', 'created_at', 'updated_at',
].map((c) => `l.${c}`).join(', ');

/** The columns an ingest writes, in the order of `stateValues`; `tsv` is cast from its literal. */
export const WRITE_COLUMNS = [
  'source', 'sku', 'merchant_id', 'title', 'description', 'brand', 'category', 'category_path', 'category_key', 'gtin', 'mpn',
  'price', 'currency', 'price_sgd', 'price_usd', 'price_sgd_minor', 'original_price', 'discount_pct', 'history_discount_pct',
  'url', 'domain', 'affiliate_url', 'image_url', 'rating', 'review_count', 'region', 'country_code', 'in_stock', 'stock_level',
  'shipping_days', 'specs', 'metadata', 'variants', 'price_trend', 'reference_price', 'last_checked_at', 'data_updated_at',
  'updated_at', 'tsv',
];

export const writePlaceholder = (c: string) => (c === 'tsv' ? '?::tsvector' : '?');

export function stateValues(s: ListingState): unknown[] {
  const d = derivedColumns(s);
  const j = (v: unknown) => (v == null ? null : JSON.stringify(v));
  return [
    s.source, s.sku, s.merchantId, s.title, s.description, s.brand, s.category, j(s.categoryPath), d.categoryKey, s.gtin, s.mpn,
    s.price, s.currency, s.priceSgd, s.priceUsd, d.priceSgdMinor, s.originalPrice, d.discountPct, d.historyDiscountPct,
    s.url, d.domain, s.affiliateUrl, s.imageUrl, s.rating, s.reviewCount, s.region, s.countryCode,
    s.inStock == null ? null : s.inStock ? 1 : 0, s.stockLevel, s.shippingDays, j(s.specs), j(s.metadata), j(s.variants),
    s.priceTrend, s.referencePrice, s.lastCheckedAt, s.dataUpdatedAt, s.updatedAt,
    tsvectorLiteral(s.title, s.brand, s.categoryPath, s.category),
  ];
}
