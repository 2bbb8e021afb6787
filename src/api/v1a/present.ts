import Big from 'big.js';
import type { Currency } from '../../domain/currencies.js';
import { freshnessOf, isAvailable } from '../../domain/freshness.js';
import type { Listing, Variant } from '../../domain/listing.js';
import { formatMoney } from '../../domain/money.js';
import { TwoGenerationCache } from '../../domain/id-caches.js';
import { availabilityPrediction, confidenceScore } from '../../domain/signals.js';
import type { FxService } from '../../catalog/fx-service.js';
import type { RateTable } from '../../domain/fx.js';
import type { CompareMatch, Highlights } from '../../catalog/compare-service.js';
import type { GroupStats } from '../../store/types.js';
import type { Container } from '../../container.js';

export interface PresentContext {
  now: Date;
  fx: FxService;
  currency?: Currency;
  groups?: Map<number, Pick<GroupStats, 'size'>>;
}

/** The presenter context for a set of listings: clock, rates, requested currency and their groups' sizes (one query). */
export async function contextFor(c: Container, listings: Listing[], currency?: Currency): Promise<PresentContext> {
  return contextWithGroups(c, await c.catalog.groupStats(listings), currency);
}

/** The same, with the group sizes already known. */
export function contextWithGroups(c: Container, groups: Map<number, Pick<GroupStats, 'size'>>, currency?: Currency): PresentContext {
  return { now: c.clock.now(), fx: c.fx, currency, groups };
}

const conversions = new WeakMap<RateTable, TwoGenerationCache<string, string>>();

/**
 * `price` in `from` converted to `to` and formatted, remembered per rate table: a replaced table is
 * a new object, so nothing outlives the rates it was computed with. Big division is the dearest
 * step of a detail page, and the same few prices come back all the time.
 */
export function convertedPrice(fx: FxService, price: string, from: Currency, to: Currency): string {
  const table = fx.rates();
  let memo = conversions.get(table);
  if (!memo) conversions.set(table, (memo = new TwoGenerationCache(25_000)));
  const key = `${price} ${from} ${to}`;
  let text = memo.get(key);
  if (text === undefined) {
    text = formatMoney(fx.convert(new Big(price), from, to), to);
    memo.set(key, text);
  }
  return text;
}

/** Listing -> surface A product record (spec 2.1): flat, decimal strings, integer id. */
export function presentProduct(l: Listing, ctx: PresentContext) {
  const converted = ctx.currency ? convertedPrice(ctx.fx, l.price, l.currency, ctx.currency) : null;
  const group = ctx.groups?.get(l.groupId);
  return {
    id: l.id, sku: l.sku, source: l.source, merchant_id: l.merchantId, name: l.title, description: l.description,
    price: l.price, currency: l.currency, price_sgd: l.priceSgd, usd_price: l.priceUsd,
    converted_price: converted, converted_currency: converted ? ctx.currency! : null,
    buy_url: l.url, affiliate_url: l.affiliateUrl, image_url: l.imageUrl, barcode: l.gtin, brand: l.brand,
    category: l.category, category_path: l.categoryPath, rating: l.rating, review_count: l.reviewCount,
    avg_rating: l.rating, rating_source: l.rating ? l.source : null, region: l.region, country_code: l.countryCode,
    is_available: isAvailable(l.inStock, l.lastCheckedAt, ctx.now), in_stock: l.inStock, stock_level: l.stockLevel,
    last_checked: l.lastCheckedAt, data_updated_at: l.dataUpdatedAt,
    availability_prediction: availabilityPrediction(l, ctx.now),
    competitor_count: group ? group.size - 1 : null,
    confidence_score: confidenceScore(l, ctx.now),
    data_freshness: freshnessOf(l.lastCheckedAt, ctx.now),
    specs: l.specs, metadata: l.metadata, updated_at: l.updatedAt, price_trend: l.priceTrend,
  };
}

export function presentVariant(v: Variant) {
  return { variant_id: v.variantId, variant_name: v.variantName, price: v.price, currency: v.currency, stock_status: v.stockStatus, specs: v.specs };
}

export function presentMerchantLink(l: Listing, now: Date) {
  return {
    source: l.source, merchant_id: l.merchantId, merchant_name: l.merchantId ?? l.source, price: l.price, currency: l.currency,
    buy_url: l.url, affiliate_url: l.affiliateUrl, is_available: isAvailable(l.inStock, l.lastCheckedAt, now),
    rating: l.rating, review_count: l.reviewCount, last_checked: l.lastCheckedAt,
  };
}

export function presentMatch(m: CompareMatch, ctx: PresentContext) {
  const l = m.listing;
  return {
    ...presentProduct(l, ctx),
    match_score: m.matchScore,
    match_class: m.matchClass,
    match_evidence: m.evidence,
    price_missing: false,
    price_missing_reason: null,
    zero_price: new Big(l.price).eq(0),
  };
}

export function presentHighlights(h: Highlights) {
  return {
    cheapest: h.cheapest ? { id: h.cheapest.id, source: h.cheapest.source, price: h.cheapest.price, currency: h.cheapest.currency, price_sgd: h.cheapest.priceSgd } : null,
    best_rated: h.bestRated ? { id: h.bestRated.id, source: h.bestRated.source, rating: h.bestRated.rating, review_count: h.bestRated.reviewCount } : null,
    fastest_shipping: h.fastestShipping ? { id: h.fastestShipping.id, source: h.fastestShipping.source, shipping_days: h.fastestShipping.shippingDays } : null,
  };
}
