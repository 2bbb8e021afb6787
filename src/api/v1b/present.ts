import type { CategoryNode, CheckedListing } from '../../catalog/catalog-service.js';
import type { ListingView } from '../../catalog/listing-views.js';
import type { PriceWindow } from '../../catalog/history-service.js';
import { discountPct } from '../../domain/money.js';
import { domainOf } from '../../domain/listing-columns.js';
import type { Listing } from '../../domain/listing.js';
import Big from 'big.js';
import { withFields } from '../../domain/with-fields.js';

/** Surface B presenters: pure functions from the catalog's views to the wire shapes of spec 2.3, 2.6 and 2.7. */

/** A decimal text as a JSON number: the currency's own precision, as exact as the text (prices stay strings until here). */
const num = (text: string): number => Number(text);

/** in_stock, out_of_stock, preorder or discontinued: the stock level when it names one, else the stock flag. */
export function availabilityOf(l: Pick<Listing, 'inStock' | 'stockLevel'>): string | null {
  const level = l.stockLevel?.toLowerCase();
  if (level === 'preorder' || level === 'discontinued') return level;
  if (l.inStock === null) return null;
  return l.inStock ? 'in_stock' : 'out_of_stock';
}

/** The shown price: converted when a currency was asked, else the listing's own. */
function shown(v: ListingView): { amount: string; currency: string } {
  return v.converted ?? { amount: v.listing.price, currency: v.listing.currency };
}

/** Original price in the shown currency and the discount, when the listing is discounted. */
function discount(v: ListingView): { original: string; pct: number } | null {
  const l = v.listing;
  if (!l.originalPrice) return null;
  const pct = discountPct(new Big(l.price), new Big(l.originalPrice));
  if (pct <= 0) return null;
  const original = inShown(v, l.originalPrice);
  return original === null ? null : { original, pct };
}

/** A native amount of the listing in the shown currency: converted as the price was (the same ratio); null when the price is 0. */
function inShown(v: ListingView, amount: string): string | null {
  if (!v.converted) return amount;
  const l = v.listing;
  if (new Big(l.price).eq(0)) return null;
  return new Big(amount).times(v.converted.amount).div(l.price).toFixed(v.converted.amount.split('.')[1]?.length ?? 0);
}

/** A surface B deal: the record with its honest-deal check (docs/deals.md), prices in the shown currency. */
export function presentDeal({ view, check }: CheckedListing) {
  const low = check?.priorLow == null ? null : inShown(view, check.priorLow);
  return withFields(presentRecord(view), {
    discount_started_at: check?.discountStartedAt ?? null,
    lowest_price_30d_before_discount: low === null ? null : num(low),
    fake_discount: check?.originalNeverCharged ?? null,
  });
}

/** `o` without its null and undefined members. */
function compactObject<T extends Record<string, unknown>>(o: T): { [K in keyof T]?: NonNullable<T[K]> } {
  const out: Record<string, unknown> = {};
  for (const k in o) if (o[k] !== null && o[k] !== undefined) out[k] = o[k];
  return out as { [K in keyof T]?: NonNullable<T[K]> };
}

export function metadataOf(l: Listing) {
  return compactObject({
    brand: l.brand, description: l.description, category_path: l.categoryPath,
    rating: l.rating === null ? null : num(l.rating), review_count: l.reviewCount, availability: availabilityOf(l),
    sku: l.sku, gtin: l.gtin, structured_specs: l.specs,
  });
}

/** Listing view -> surface B product record (spec 2.3). */
export function presentRecord(v: ListingView) {
  const l = v.listing;
  const price = shown(v);
  const d = discount(v);
  // Filled in order, not spread: a conditional spread leaves a dictionary-mode object, slow to
  // build and to serialize, and a search page builds 20 of them.
  const r: BRecordShape = {
    id: l.uuid, title: l.title, price: { amount: num(price.amount), currency: price.currency },
    merchant: domainOf(l.url) ?? l.source, url: l.url, image_url: l.imageUrl, region: l.region.toUpperCase(),
    country_code: l.countryCode, updated_at: l.updatedAt,
  } as BRecordShape;
  if (d) {
    r.original_price = num(d.original);
    r.discount_pct = d.pct;
  }
  r.metadata = metadataOf(l);
  return r;
}

interface BRecordShape {
  id: string; title: string; price: { amount: number; currency: string }; merchant: string; url: string; image_url: string | null;
  region: string; country_code: string; updated_at: string; original_price?: number; discount_pct?: number;
  metadata: ReturnType<typeof metadataOf>; click_url?: string;
}

/** The smaller record of `compact=true`: what an agent needs to show and link a result. */
export function presentCompact(v: ListingView) {
  const l = v.listing;
  const price = shown(v);
  return { id: l.uuid, title: l.title, price: { amount: num(price.amount), currency: price.currency }, merchant: domainOf(l.url) ?? l.source, url: l.url };
}

/** Every name `fields` may select (spec 2.3), and what it reads. */
export const FIELD_NAMES = [
  'id', 'name', 'price', 'url', 'merchant', 'category', 'country', 'description', 'image_url', 'images', 'brand', 'sku', 'mpn',
  'gtin', 'availability', 'compare_at_price', 'rating', 'title', 'country_code', 'region', 'original_price', 'discount_pct',
  'structured_specs', 'comparison_attributes', 'metadata',
] as const;
export type FieldName = (typeof FIELD_NAMES)[number];

/** The attributes a comparison lines up: brand, category, rating, reviews, availability and the specs. */
export function comparisonAttributes(l: Listing) {
  return compactObject({
    brand: l.brand, category: l.category, rating: l.rating === null ? null : num(l.rating), review_count: l.reviewCount,
    availability: availabilityOf(l), ...(l.specs ?? {}),
  });
}

/** The record with only the selected names (spec 2.3 `fields`); `id` is always kept so a result can be referred to. */
export function presentFields(v: ListingView, fields: readonly FieldName[]) {
  const l = v.listing;
  const price = shown(v);
  const d = discount(v);
  const value: Record<FieldName, () => unknown> = {
    id: () => l.uuid, name: () => l.title, title: () => l.title, price: () => ({ amount: num(price.amount), currency: price.currency }),
    url: () => l.url, merchant: () => domainOf(l.url) ?? l.source, category: () => l.category, country: () => l.countryCode,
    country_code: () => l.countryCode, region: () => l.region.toUpperCase(), description: () => l.description,
    image_url: () => l.imageUrl, images: () => (l.imageUrl ? [l.imageUrl] : []), brand: () => l.brand, sku: () => l.sku,
    mpn: () => l.mpn, gtin: () => l.gtin, availability: () => availabilityOf(l),
    compare_at_price: () => (d ? num(d.original) : null), original_price: () => (d ? num(d.original) : null),
    discount_pct: () => (d ? d.pct : null), rating: () => (l.rating === null ? null : num(l.rating)),
    structured_specs: () => l.specs, comparison_attributes: () => comparisonAttributes(l), metadata: () => metadataOf(l),
  };
  const out: Record<string, unknown> = { id: l.uuid };
  for (const f of fields) out[f] = value[f]();
  return out;
}

/** Record of category detail lists (spec 2.3): plain price and currency. */
export function presentCategoryRecord(v: ListingView) {
  const l = v.listing;
  const price = shown(v);
  return {
    id: l.uuid, source: l.source, domain: domainOf(l.url) ?? l.source, url: l.url, title: l.title,
    price: num(price.amount), currency: price.currency, image_url: l.imageUrl,
  };
}

/** Record of similar-product lists (spec 2.3). */
export function presentSimilarRecord(v: ListingView) {
  const l = v.listing;
  return withFields(presentCategoryRecord(v), { brand: l.brand, category_path: l.categoryPath, region: l.region.toUpperCase(), country_code: l.countryCode });
}

/** Record of compare results (spec 2.3). */
export function presentCompareRecord(v: ListingView) {
  const l = v.listing;
  const price = shown(v);
  const d = discount(v);
  return {
    id: l.uuid, title: l.title, price: { amount: num(price.amount), currency: price.currency }, original_price: d ? num(d.original) : null,
    brand: l.brand, rating: l.rating === null ? null : num(l.rating), review_count: l.reviewCount, domain: domainOf(l.url) ?? l.source, url: l.url,
  };
}

export const presentCategory = (n: CategoryNode) => ({ slug: n.slug, name: n.name, product_count: n.count });

export function presentDaily(w: PriceWindow) {
  return {
    product_id: w.listing.uuid, title: w.listing.title, current_price: num(w.listing.price), currency: w.listing.currency,
    daily: w.daily.map((d) => ({ day: d.day, currency: w.listing.currency, min: num(d.min), max: num(d.max), avg: num(d.avg), data_points: d.dataPoints })),
    stats: w.stats ? { min: num(w.stats.min), max: num(w.stats.max), avg: num(w.stats.avg) } : { min: null, max: null, avg: null },
  };
}

export function presentGranular(w: PriceWindow) {
  return {
    product_id: w.listing.uuid, title: w.listing.title, current_price: num(w.listing.price), currency: w.listing.currency,
    history: w.points.map((p) => ({ price: num(p.price), currency: w.listing.currency, at: p.at })),
    stats: w.stats
      ? { min: num(w.stats.min), max: num(w.stats.max), avg: num(w.stats.avg), data_points: w.stats.dataPoints }
      : { min: null, max: null, avg: null, data_points: 0 },
  };
}
