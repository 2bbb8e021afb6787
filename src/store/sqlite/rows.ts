import type { Currency } from '../../domain/currencies.js';
import type { Listing } from '../../domain/listing.js';
import type { SearchDoc } from '../types.js';

/** A listings row as SQLite returns it. */
export interface ListingRow {
  id: number; uuid: string; source: string; sku: string; merchant_id: string | null; title: string;
  description: string | null; brand: string | null; category: string | null; category_path: string | null;
  gtin: string | null; mpn: string | null; price: string; currency: string; price_sgd: string | null;
  price_usd: string | null; original_price: string | null; url: string; affiliate_url: string | null;
  image_url: string | null; rating: string | null; review_count: number | null; region: string;
  country_code: string; in_stock: number | null; stock_level: string | null; shipping_days: number | null;
  specs: string | null; metadata: string | null; variants: string | null; group_id: number;
  price_trend: string | null; reference_price: string | null; last_checked_at: string;
  data_updated_at: string; created_at: string; updated_at: string;
}

const json = <T>(text: string | null): T | null => (text == null ? null : (JSON.parse(text) as T));

export function toListing(r: ListingRow): Listing {
  return {
    id: r.id, uuid: r.uuid, source: r.source, sku: r.sku, merchantId: r.merchant_id, title: r.title,
    description: r.description, brand: r.brand, category: r.category,
    categoryPath: json<string[]>(r.category_path), gtin: r.gtin, mpn: r.mpn, price: r.price,
    currency: r.currency as Currency, priceSgd: r.price_sgd, priceUsd: r.price_usd,
    originalPrice: r.original_price, url: r.url, affiliateUrl: r.affiliate_url, imageUrl: r.image_url,
    rating: r.rating, reviewCount: r.review_count, region: r.region, countryCode: r.country_code,
    inStock: r.in_stock == null ? null : r.in_stock === 1, stockLevel: r.stock_level,
    shippingDays: r.shipping_days, specs: json(r.specs), metadata: json(r.metadata),
    variants: json(r.variants) ?? [], groupId: r.group_id,
    priceTrend: r.price_trend as Listing['priceTrend'], referencePrice: r.reference_price,
    lastCheckedAt: r.last_checked_at, dataUpdatedAt: r.data_updated_at, createdAt: r.created_at,
    updatedAt: r.updated_at,
  };
}

/** The columns a search index loads (`searchDocs`), the same in both stores. */
export const SEARCH_DOC_COLUMNS = `id, title, brand, category, category_path, category_key, source, domain, country_code, in_stock,
  price_sgd_minor, discount_pct, history_discount_pct, rating, review_count, updated_at`;

export interface SearchDocRow {
  id: number; title: string; brand: string | null; category: string | null; category_path: string | null; category_key: string | null;
  source: string; domain: string | null; country_code: string; in_stock: number | null; price_sgd_minor: number; discount_pct: number;
  history_discount_pct: number; rating: string | null; review_count: number | null; updated_at: string;
}

export function toSearchDoc(r: SearchDocRow): SearchDoc {
  return {
    id: r.id, title: r.title, brand: r.brand, category: r.category, categoryText: r.category_path ?? r.category ?? '',
    categoryKey: r.category_key, source: r.source, domain: r.domain, countryCode: r.country_code,
    inStock: r.in_stock === null ? null : r.in_stock === 1, priceSgdMinor: r.price_sgd_minor, discountPct: r.discount_pct,
    historyDiscountPct: r.history_discount_pct, rating: r.rating === null ? null : Number(r.rating), reviewCount: r.review_count,
    updatedAt: Date.parse(r.updated_at),
  };
}
