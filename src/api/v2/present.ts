import type { ListingView } from '../../catalog/listing-views.js';
import { stockStatus, type StockStatus } from '../../domain/stream-filter.js';

/** Surface V2 presenters (spec 2.2): pure functions from the catalog's views to V2 records. */

/** V2 stock_level: in_stock, low_stock or out_of_stock from the stock flag and level; null when unknown. */
export const stockLevelV2 = (v: ListingView): StockStatus | null => stockStatus(v.listing.inStock, v.listing.stockLevel);

/** The price in the asked currency (`currency` / `target_currency`), exact decimal text. */
const shown = (v: ListingView) => v.converted ?? { amount: v.listing.price, currency: v.listing.currency };

/**
 * Fields every V2 record has, then the fields of its kind (`links`: the link fields and after).
 * One object filled in a fixed order, not spreads of spreads: a batch answer builds 100 of them.
 */
function record<T extends object>(v: ListingView, links: T) {
  const l = v.listing;
  const price = shown(v);
  return Object.assign({
    id: l.id, uuid: l.uuid, sku: l.sku, source: l.source, merchant_id: l.merchantId, title: l.title, description: l.description,
    price: price.amount, currency: price.currency, price_sgd: l.priceSgd, original_price: l.originalPrice, brand: l.brand,
    category: l.category, image_url: l.imageUrl, rating: l.rating === null ? null : Number(l.rating), review_count: l.reviewCount,
    region: l.region, country_code: l.countryCode, in_stock: l.inStock, stock_level: stockLevelV2(v),
  }, links);
}

/** List and search records: `buy_url` and `affiliate_url`. */
export function presentListRecord(v: ListingView) {
  return record(v, { buy_url: v.listing.url, affiliate_url: v.listing.affiliateUrl, updated_at: v.listing.updatedAt });
}

/** Detail record: the list record plus category_path, specs, metadata and times. */
export function presentDetailRecord(v: ListingView) {
  const l = v.listing;
  return record(v, {
    buy_url: l.url, affiliate_url: l.affiliateUrl, updated_at: l.updatedAt, category_path: l.categoryPath, specs: l.specs, metadata: l.metadata,
    last_checked: l.lastCheckedAt,
  });
}

/** Batch and agent records: `url` and `affiliate_url`; specs and metadata_ only when asked. */
export function presentBatchRecord(v: ListingView, opts: { metadata: boolean; affiliate?: boolean }) {
  const l = v.listing;
  const links = { url: l.url, affiliate_url: opts.affiliate === false ? null : l.affiliateUrl, updated_at: l.updatedAt };
  return record(v, opts.metadata ? Object.assign(links, { specs: l.specs, metadata_: l.metadata }) : links);
}
