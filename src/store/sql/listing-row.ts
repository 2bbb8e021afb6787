/** The listings row and its reading into a Listing, the same in both store adapters. */
import type { Currency } from '../../domain/currencies.js';
import type { StoredListing } from '../../domain/ingest-rules.js';
import type { Listing, PriceTrend, Variant } from '../../domain/listing.js';
import { fromJsonColumn } from '../../domain/listing-columns.js';
import type { MerchantOffer, SearchDoc } from '../types.js';

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


export function toListing(r: ListingRow): Listing {
  return {
    id: r.id, uuid: r.uuid, source: r.source, sku: r.sku, merchantId: r.merchant_id, title: r.title,
    description: r.description, brand: r.brand, category: r.category,
    categoryPath: fromJsonColumn<string[]>(r.category_path), gtin: r.gtin, mpn: r.mpn, price: r.price,
    currency: r.currency as Currency, priceSgd: r.price_sgd, priceUsd: r.price_usd,
    originalPrice: r.original_price, url: r.url, affiliateUrl: r.affiliate_url, imageUrl: r.image_url,
    rating: r.rating, reviewCount: r.review_count, region: r.region, countryCode: r.country_code,
    inStock: r.in_stock == null ? null : r.in_stock === 1, stockLevel: r.stock_level,
    shippingDays: r.shipping_days, specs: fromJsonColumn(r.specs), metadata: fromJsonColumn(r.metadata),
    variants: fromJsonColumn(r.variants) ?? [], groupId: r.group_id,
    priceTrend: r.price_trend as Listing['priceTrend'], referencePrice: r.reference_price,
    lastCheckedAt: r.last_checked_at, dataUpdatedAt: r.data_updated_at, createdAt: r.created_at,
    updatedAt: r.updated_at,
  };
}

/**
 * A listing as the ingest writer reads it, from a raw row over `listingColumns()`: its JSON fields
 * are parsed the first time they are read, and their stored texts are at hand for planIngest, so a
 * record that changes nothing (most lines of a re-imported feed) is decided without parsing them.
 */
export class StoredRowListing implements StoredListing {
  id: number; uuid: string; source: string; sku: string; merchantId: string | null; title: string; description: string | null;
  brand: string | null; category: string | null; gtin: string | null; mpn: string | null; price: string; currency: Currency;
  priceSgd: string | null; priceUsd: string | null; originalPrice: string | null; url: string; affiliateUrl: string | null;
  imageUrl: string | null; rating: string | null; reviewCount: number | null; region: string; countryCode: string;
  inStock: boolean | null; stockLevel: string | null; shippingDays: number | null; groupId: number; priceTrend: PriceTrend | null;
  referencePrice: string | null; lastCheckedAt: string; dataUpdatedAt: string; createdAt: string; updatedAt: string;
  #categoryPath: string[] | null = null;
  #specs: Record<string, unknown> | null = null;
  #metadata: Record<string, unknown> | null = null;
  #variants: Variant[] | null = null;
  readonly #texts: NonNullable<StoredListing['storedJson']>;

  constructor(a: unknown[]) {
    this.id = a[0] as number; this.uuid = a[1] as string; this.source = a[2] as string; this.sku = a[3] as string;
    this.merchantId = a[4] as string | null; this.title = a[5] as string; this.description = a[6] as string | null;
    this.brand = a[7] as string | null; this.category = a[8] as string | null; this.gtin = a[10] as string | null;
    this.mpn = a[11] as string | null; this.price = a[12] as string; this.currency = a[13] as Currency;
    this.priceSgd = a[14] as string | null; this.priceUsd = a[15] as string | null; this.originalPrice = a[16] as string | null;
    this.url = a[17] as string; this.affiliateUrl = a[18] as string | null; this.imageUrl = a[19] as string | null;
    this.rating = a[20] as string | null; this.reviewCount = a[21] as number | null; this.region = a[22] as string;
    this.countryCode = a[23] as string; this.inStock = a[24] == null ? null : a[24] === 1; this.stockLevel = a[25] as string | null;
    this.shippingDays = a[26] as number | null; this.groupId = a[30] as number; this.priceTrend = a[31] as PriceTrend | null;
    this.referencePrice = a[32] as string | null; this.lastCheckedAt = a[33] as string; this.dataUpdatedAt = a[34] as string;
    this.createdAt = a[35] as string; this.updatedAt = a[36] as string;
    this.#texts = { categoryPath: a[9] as string | null, specs: a[27] as string | null, metadata: a[28] as string | null, variants: a[29] as string | null };
  }

  // Accessors on the prototype: a spread of the listing leaves them out, so read them by name.
  get storedJson() { return this.#texts; }
  // A stored JSON text is never "null" (jsonColumn writes NULL), so a parsed value is never null: ??= parses once.
  get categoryPath() { return (this.#categoryPath ??= fromJsonColumn<string[]>(this.#texts.categoryPath)); }
  get specs() { return (this.#specs ??= fromJsonColumn(this.#texts.specs)); }
  get metadata() { return (this.#metadata ??= fromJsonColumn(this.#texts.metadata)); }
  get variants() { return (this.#variants ??= fromJsonColumn<Variant[]>(this.#texts.variants) ?? []); }
}

/** A merchant offer's columns (`groupMerchants`), the same in both stores; each store reads `last_checked_at` its own way. */
export const MERCHANT_COLUMNS = ['id', 'source', 'merchant_id', 'price', 'currency', 'price_sgd', 'url', 'affiliate_url', 'rating', 'review_count', 'in_stock', 'accessory'] as const;

/** A merchant offer's row, as both stores return it. */
export interface MerchantRow {
  id: number; source: string; merchant_id: string | null; price: string; currency: Currency; price_sgd: string | null; url: string;
  affiliate_url: string | null; rating: string | null; review_count: number | null; in_stock: number | null; last_checked_at: string; accessory: number;
}

export function toMerchantOffer(r: MerchantRow): MerchantOffer {
  return {
    id: r.id, source: r.source, merchantId: r.merchant_id, price: r.price, currency: r.currency, priceSgd: r.price_sgd, url: r.url,
    affiliateUrl: r.affiliate_url, rating: r.rating, reviewCount: r.review_count, inStock: r.in_stock == null ? null : r.in_stock === 1,
    lastCheckedAt: r.last_checked_at, accessory: r.accessory === 1,
  };
}

/** The size of the row's match group, as one more selected value (`alias`: the listings table's, where it has one). */
export const groupSizeColumn = (alias = 'listings') => `(SELECT count(*) FROM listings g WHERE g.group_id = ${alias}.group_id)`;

/** The columns a search index loads (`searchDocs`), the same in both stores. */
export const SEARCH_DOC_COLUMNS = `id, title, brand, category, category_path, category_key, source, domain, country_code, in_stock,
  stock_level, price_sgd_minor, discount_pct, history_discount_pct, rating, review_count, updated_at, accessory`;

export interface SearchDocRow {
  id: number; title: string; brand: string | null; category: string | null; category_path: string | null; category_key: string | null;
  source: string; domain: string | null; country_code: string; in_stock: number | null; stock_level: string | null; price_sgd_minor: number; discount_pct: number;
  history_discount_pct: number; rating: string | null; review_count: number | null; updated_at: string; accessory: number;
}

export function toSearchDoc(r: SearchDocRow): SearchDoc {
  return {
    id: r.id, title: r.title, brand: r.brand, category: r.category, categoryText: r.category_path ?? r.category ?? '', categoryPathText: r.category_path,
    categoryKey: r.category_key, source: r.source, domain: r.domain, countryCode: r.country_code,
    inStock: r.in_stock === null ? null : r.in_stock === 1, stockLevel: r.stock_level, priceSgdMinor: r.price_sgd_minor, discountPct: r.discount_pct,
    historyDiscountPct: r.history_discount_pct, rating: r.rating === null ? null : Number(r.rating), reviewCount: r.review_count,
    updatedAt: Date.parse(r.updated_at), accessory: r.accessory === 1,
  };
}
