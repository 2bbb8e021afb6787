import type { CategoryNode } from '../catalog/catalog-service.js';
import type { ListingView, Money } from '../catalog/listing-views.js';
import type { Variant } from '../domain/listing.js';
import type { CategoryOut } from './schemas.js';
import { withFields } from '../domain/with-fields.js';

/** MCP presenters: pure functions from the catalog's views to the tools' structured results and their one-line texts. */

const rating = (text: string | null) => (text === null ? null : Number(text));

export function presentProduct(v: ListingView) {
  const l = v.listing;
  return {
    id: l.id, uuid: l.uuid, sku: l.sku, title: l.title, brand: l.brand, category: l.category,
    platform: l.source, country: l.countryCode,
    price: { amount: l.price, currency: l.currency }, converted_price: v.converted,
    price_sgd: l.priceSgd, original_price: l.originalPrice, in_stock: l.inStock,
    rating: rating(l.rating), review_count: l.reviewCount, shipping_days: l.shippingDays,
    url: l.url, affiliate_url: l.affiliateUrl, image_url: l.imageUrl, gtin: l.gtin,
    signals: {
      confidence_score: v.confidence, availability_prediction: v.availabilityPrediction, competitor_count: v.competitorCount,
      data_freshness: v.freshness, is_available: v.available, last_checked: l.lastCheckedAt, price_trend: l.priceTrend,
    },
  };
}

export function presentVariant(v: Variant) {
  return { variant_id: v.variantId, name: v.variantName, price: { amount: v.price, currency: v.currency }, stock_status: v.stockStatus, specs: v.specs };
}

export function presentDetail(v: ListingView) {
  const l = v.listing;
  return withFields(presentProduct(v), {
    description: l.description, category_path: l.categoryPath, mpn: l.mpn, specs: l.specs, variants: l.variants.map(presentVariant),
  });
}

/** A category subtree down to `depth` levels (1: the nodes alone); `subcategories` tells what was cut. */
export function presentCategories(nodes: CategoryNode[], depth: number): CategoryOut[] {
  return nodes.map((n) => ({
    name: n.name, slug: n.slug, path: n.path, count: n.count, subcategories: n.children.length,
    children: depth > 1 ? presentCategories(n.children, depth - 1) : [],
  }));
}

// ---- text ----

export const money = (m: Money | { amount: string; currency: string }) => `${m.amount} ${m.currency}`;

/** One line a model can act on: the id to pass on, what it is, its price, where, and whether it can be bought. */
export function productLine(v: ListingView): string {
  const l = v.listing;
  const price = v.converted && v.converted.currency !== l.currency ? `${money(v.converted)} (${l.price} ${l.currency})` : `${l.price} ${l.currency}`;
  const stock = v.available ? (v.availabilityPrediction === 'low_stock' ? 'low stock' : 'available') : 'unavailable';
  const stars = l.rating === null ? '' : `, rated ${l.rating}${l.reviewCount !== null ? ` (${l.reviewCount})` : ''}`;
  return `#${l.id} ${l.title}: ${price} on ${l.source} (${l.countryCode}), ${stock}${stars}, data ${v.freshness}`;
}

export const numbered = (lines: string[]) => lines.map((line, i) => `${i + 1}. ${line}`).join('\n');

export function categoryLines(nodes: CategoryOut[], indent = ''): string[] {
  return nodes.flatMap((n) => [
    `${indent}${n.name} [${n.slug}] ${n.count}${n.subcategories && !n.children.length ? ` (+${n.subcategories} subcategories)` : ''}`,
    ...categoryLines(n.children, `${indent}  `),
  ]);
}
