import type { CategoryNode, Deal, TrendingItem } from '../../catalog/catalog-service.js';
import type { Comparison, Diff, DiffField, Highlights, MatchView } from '../../catalog/compare-service.js';
import type { ListingView } from '../../catalog/listing-views.js';
import type { SkuDetail } from '../../catalog/product-service.js';
import type { PriceObservation, Variant } from '../../domain/listing.js';
import { withFields } from '../../domain/with-fields.js';

/** Surface A presenters: pure functions from the catalog's views to the wire shapes of spec 2.1 to 2.7. */

/** Listing view -> surface A product record (spec 2.1): flat, decimal strings, integer id. */
export function presentProduct(v: ListingView) {
  const l = v.listing;
  return {
    id: l.id, sku: l.sku, source: l.source, merchant_id: l.merchantId, name: l.title, description: l.description,
    price: l.price, currency: l.currency, price_sgd: l.priceSgd, usd_price: l.priceUsd,
    converted_price: v.converted?.amount ?? null, converted_currency: v.converted?.currency ?? null,
    buy_url: l.url, affiliate_url: l.affiliateUrl, image_url: l.imageUrl, barcode: l.gtin, brand: l.brand,
    category: l.category, category_path: l.categoryPath, rating: l.rating, review_count: l.reviewCount,
    avg_rating: l.rating, rating_source: l.rating ? l.source : null, region: l.region, country_code: l.countryCode,
    is_available: v.available, in_stock: l.inStock, stock_level: l.stockLevel,
    last_checked: l.lastCheckedAt, data_updated_at: l.dataUpdatedAt,
    availability_prediction: v.availabilityPrediction,
    competitor_count: v.competitorCount,
    confidence_score: v.confidence,
    data_freshness: v.freshness,
    specs: l.specs, metadata: l.metadata, updated_at: l.updatedAt, price_trend: l.priceTrend,
  };
}

export function presentVariant(v: Variant) {
  return { variant_id: v.variantId, variant_name: v.variantName, price: v.price, currency: v.currency, stock_status: v.stockStatus, specs: v.specs };
}

export function presentSkuDetail(d: SkuDetail, opts: { variants: boolean; merchantLinks: boolean }) {
  const product = d.product.listing;
  return {
    product: withFields(presentProduct(d.product), { has_variants: d.variants.length > 0 }),
    price_variants: opts.variants ? d.variants.map(presentVariant) : [],
    merchant_links: opts.merchantLinks
      ? d.merchants.map(({ listing: l, available }) => ({
        source: l.source, merchant_id: l.merchantId, merchant_name: l.merchantId ?? l.source, price: l.price, currency: l.currency,
        buy_url: l.url, affiliate_url: l.affiliateUrl, is_available: available,
        rating: l.rating, review_count: l.reviewCount, last_checked: l.lastCheckedAt,
      }))
      : [],
    meta: {
      total_merchants: d.merchants.length,
      total_variants: product.variants.length,
      cheapest_price: d.cheapest.price.amount,
      cheapest_currency: d.cheapest.price.currency,
      cheapest_source: d.cheapest.source,
      lowest_rating: d.lowestRating,
      data_freshness: d.freshness,
    },
  };
}

export function presentMatch(m: MatchView) {
  return withFields(presentProduct(m.view), {
    match_score: m.matchScore,
    match_class: m.matchClass,
    match_evidence: m.evidence,
    price_missing: false,
    price_missing_reason: null,
    zero_price: m.zeroPrice,
  });
}

export function presentHighlights(h: Highlights) {
  return {
    cheapest: h.cheapest ? { id: h.cheapest.id, source: h.cheapest.source, price: h.cheapest.price, currency: h.cheapest.currency, price_sgd: h.cheapest.priceSgd } : null,
    best_rated: h.bestRated ? { id: h.bestRated.id, source: h.bestRated.source, rating: h.bestRated.rating, review_count: h.bestRated.reviewCount } : null,
    fastest_shipping: h.fastestShipping ? { id: h.fastestShipping.id, source: h.fastestShipping.source, shipping_days: h.fastestShipping.shippingDays } : null,
  };
}

/** The GET and POST compare shape (without highlights). */
export function presentComparison(c: Comparison) {
  return {
    source_product_id: c.source.id, source_product_name: c.source.title,
    matches: c.matches.map(presentMatch), total_matches: c.matches.length,
  };
}

/** Surface A's names for the diff fields. */
const DIFF_NAMES: Record<DiffField, string> = {
  title: 'name', brand: 'brand', source: 'source', price: 'price', currency: 'currency', priceSgd: 'price_sgd', category: 'category',
  rating: 'rating', reviewCount: 'review_count', inStock: 'in_stock', stockLevel: 'stock_level', shippingDays: 'shipping_days',
  gtin: 'barcode', region: 'region', specs: 'specs',
};

export function presentDiff(d: Diff, notFound: number[], imageSimilarity: boolean) {
  return {
    products: d.products.map((p) => withFields(presentProduct(p.view), { price_rank: p.priceRank })),
    field_diffs: d.fieldDiffs.map((f) => ({ field: DIFF_NAMES[f.field], values: f.values, all_identical: f.allIdentical })),
    identical_fields: d.identicalFields.map((f) => DIFF_NAMES[f]),
    cheapest_product_id: d.cheapestId, most_expensive_product_id: d.mostExpensiveId,
    price_spread: d.priceSpread.toFixed(2), price_spread_currency: 'SGD', price_spread_pct: d.priceSpreadPct ?? 0,
    image_similarity: imageSimilarity ? { same_image_url: d.sameImageUrl } : null,
    not_found: notFound,
  };
}

export function presentDeal(d: Deal) {
  return withFields(presentProduct(d.view), {
    reference_price: d.referencePrice, discount_pct: d.discountPct, original_price: d.view.listing.originalPrice,
    discount_started_at: d.check?.discountStartedAt ?? null, lowest_price_30d_before_discount: d.check?.priorLow ?? null,
    fake_discount: d.check?.originalNeverCharged ?? null,
  });
}

export function presentTrend({ view, trend }: TrendingItem) {
  return withFields(presentProduct(view), {
    price_before: trend.before, price_drop_pct: trend.dropPct, price_changes: trend.changes, last_price_change_at: trend.lastChangeAt,
  });
}

export function presentObservation(o: PriceObservation) {
  return { price: o.price, currency: o.currency, platform: o.source, scraped_at: o.observedAt };
}

/** The category tree as surface A lists it: every level, flat, with its depth. */
export function flattenCategories(nodes: CategoryNode[], level = 1): Array<{ name: string; count: number; slug: string; path: string[]; level: number }> {
  return nodes.flatMap((n) => [{ name: n.name, count: n.count, slug: n.slug, path: n.path, level }, ...flattenCategories(n.children, level + 1)]);
}
