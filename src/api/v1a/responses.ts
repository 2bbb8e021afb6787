import { Type, type TSchema } from 'typebox';
import { CodedError } from '../error-schemas.js';
import { Nullable, OneOf } from '../schema-kit.js';

/** Response schemas of surface A (spec 2.1, 2.4, 2.5, 2.6, 2.7): what every route declares and the reference shows. */

const S = Type.String();
const NS = Nullable(Type.String());
const FreeObject = Nullable(Type.Object({}, { additionalProperties: true }));

export const ProductRecord = Type.Object({
  id: Type.Integer(), sku: S, source: S, merchant_id: NS, name: S, description: NS,
  price: Type.String({ description: 'native price, exact decimal' }), currency: S,
  price_sgd: NS, usd_price: NS, converted_price: NS, converted_currency: NS,
  buy_url: S, affiliate_url: NS, image_url: NS, barcode: NS, brand: NS, category: NS,
  category_path: Nullable(Type.Array(S)), rating: NS, review_count: Nullable(Type.Integer()), avg_rating: NS, rating_source: NS,
  region: Type.String({ description: 'lower-case region code' }), country_code: S, is_available: Type.Boolean(), in_stock: Nullable(Type.Boolean()),
  stock_level: NS, last_checked: NS, data_updated_at: NS,
  availability_prediction: Nullable(OneOf(['in_stock', 'low_stock', 'out_of_stock', 'unknown'])),
  competitor_count: Nullable(Type.Integer()), confidence_score: Nullable(Type.Number()),
  data_freshness: OneOf(['fresh', 'recent', 'stale', 'very_stale']),
  specs: FreeObject, metadata: FreeObject, updated_at: S, price_trend: Nullable(OneOf(['up', 'down', 'stable'])),
}, { description: 'Surface A product record (spec 2.1): decimal prices and ratings as strings' });

const MatchRecord = Type.Object({
  ...ProductRecord.properties,
  match_score: Type.Number(), match_class: S, match_evidence: Type.Object({}, { additionalProperties: true }),
  price_missing: Type.Boolean(), price_missing_reason: NS, zero_price: Type.Boolean(),
}, { description: 'A compare match (spec 2.5): a product record with its match score and evidence' });

const Highlights = Type.Object({
  cheapest: Nullable(Type.Object({ id: Type.Integer(), source: S, price: S, currency: S, price_sgd: NS })),
  best_rated: Nullable(Type.Object({ id: Type.Integer(), source: S, rating: NS, review_count: Nullable(Type.Integer()) })),
  fastest_shipping: Nullable(Type.Object({ id: Type.Integer(), source: S, shipping_days: Nullable(Type.Integer()) })),
}, { description: 'Highlights of the matches: each member null when no match has what it needs' });

const Comparison = Type.Object({
  source_product_id: Type.Integer(), source_product_name: S, matches: Type.Array(MatchRecord), total_matches: Type.Integer(),
});

const FacetBuckets = Type.Array(Type.Object({ value: S, count: Type.Integer() }));
const Facets = Nullable(Type.Object({
  category: FacetBuckets, platform: FacetBuckets, brand: FacetBuckets, rating: FacetBuckets,
  price: Type.Array(Type.Object({ range: S, min: NS, max: NS, count: Type.Integer() })),
}));

export const SearchResponse = Type.Object({
  total: Type.Integer(), limit: Type.Integer(), offset: Type.Integer(), has_more: Type.Boolean(), items: Type.Array(ProductRecord),
});

export const ProductsSearchResponse = Type.Object({
  total: Type.Integer(), total_count: Nullable(Type.Integer()), limit: Type.Integer(), offset: Type.Integer(),
  items: Type.Array(ProductRecord), has_more: Type.Boolean(), next_cursor: Type.Null({ description: 'reserved' }),
  facets: Facets, highlights: Nullable(Type.Record(Type.String(), Type.String())),
});

export const ListingResponse = Type.Object({
  data: Type.Array(ProductRecord),
  meta: Type.Object({ total: Type.Integer(), next_cursor: NS, has_more: Type.Boolean(), limit: Type.Integer() }),
});

export const SkuDetailResponse = Type.Object({
  product: Type.Object({ ...ProductRecord.properties, has_variants: Type.Boolean() }),
  price_variants: Type.Array(Type.Object({
    variant_id: S, variant_name: S, price: S, currency: S, stock_status: OneOf(['in_stock', 'low_stock', 'out_of_stock', 'pre_order']),
    specs: Type.Object({}, { additionalProperties: true }),
  })),
  merchant_links: Type.Array(Type.Object({
    source: S, merchant_id: NS, merchant_name: S, price: S, currency: S, buy_url: S, affiliate_url: NS,
    is_available: Type.Boolean(), rating: NS, review_count: Nullable(Type.Integer()), last_checked: S,
  })),
  meta: Type.Object({
    total_merchants: Type.Integer(), total_variants: Type.Integer(), cheapest_price: S, cheapest_currency: S, cheapest_source: S,
    lowest_rating: NS, data_freshness: OneOf(['fresh', 'recent', 'stale', 'very_stale']),
  }),
}, { description: 'Product by SKU (spec 2.4): the product, its variants, every platform that sells it' });

export const ProductOrSkuResponse = Type.Union([ProductRecord, SkuDetailResponse], {
  description: 'An integer id answers a product record (2.1); a SKU answers the SKU detail (2.4)',
});

export const PriceHistoryResponse = Type.Object({
  product_id: Type.Integer(),
  entries: Type.Array(Type.Object({ price: S, currency: S, platform: S, scraped_at: S })),
  aggregated_entries: Type.Array(Type.Object({}), { maxItems: 0 }), total: Type.Integer(), aggregate: Type.Null(), period: Type.Null(),
});

export const CompareResponse = Comparison;
export const CompareWithHighlightsResponse = Type.Object({ ...Comparison.properties, highlights: Highlights });
export const CompareManyResponse = Type.Object({
  comparisons: Type.Array(Comparison), total_products: Type.Integer(), not_found: Type.Array(Type.Integer()),
});

export const DiffResponse = Type.Object({
  products: Type.Array(Type.Object({ ...ProductRecord.properties, price_rank: Type.Integer({ description: '1 = cheapest' }) })),
  field_diffs: Type.Array(Type.Object({ field: S, values: Type.Array(Type.Unknown()), all_identical: Type.Boolean() })),
  identical_fields: Type.Array(S), cheapest_product_id: Type.Integer(), most_expensive_product_id: Type.Integer(),
  price_spread: S, price_spread_currency: S, price_spread_pct: Type.Number(),
  image_similarity: Nullable(Type.Object({ same_image_url: Type.Boolean() })), not_found: Type.Array(Type.Integer()),
});

export const TrendingResponse = Type.Object({
  items: Type.Array(Type.Object({
    ...ProductRecord.properties,
    price_before: Type.String({ description: 'the price before its first change in the window, in `currency`' }),
    price_drop_pct: Type.Number({ description: 'how far the price fell from price_before, percent' }),
    price_changes: Type.Integer({ description: 'price changes in the window' }),
    last_price_change_at: Type.String({ description: 'when the latest of them was observed' }),
  })),
  total: Type.Integer({ description: 'listings that qualify; items holds the first `limit` of them' }), limit: Type.Integer(), category: NS,
  window_days: Type.Integer(), ranked_by: S,
});

/** The honest-deal check of a deal (docs/deals.md), in the listing's own currency. */
const DealCheckFields = {
  discount_started_at: Nullable(Type.String({ description: 'when the current run of prices below original_price began; null when not discounted or before the history' })),
  lowest_price_30d_before_discount: Nullable(Type.String({ description: 'lowest price in the 30 days before the discount began (EU Omnibus), exact decimal; null when unknown' })),
  fake_discount: Nullable(Type.Boolean({ description: 'true when original_price is above every price of the last 90 days; null when not discounted or the history is too short to say' })),
};

export const DealsResponse = Type.Object({
  items: Type.Array(Type.Object({
    ...ProductRecord.properties, reference_price: NS, discount_pct: Type.Number(),
    original_price: NS, ...DealCheckFields,
  })),
  total: Type.Integer(), limit: Type.Integer(), offset: Type.Integer(), has_more: Type.Boolean(), basis: S,
});

export const CategoriesResponse = Type.Object({
  categories: Type.Array(Type.Object({ name: S, count: Type.Integer(), slug: S, path: Type.Array(S), level: Type.Integer() })),
  total: Type.Integer(),
});

/** The compare-by-product-id 404 of spec 7.1: `{detail: "<text>"}`. */
export const DetailText = Type.Object({ detail: S });

/** A route's 200 and what its handler alone answers; the statuses every route shares are added at registration (api/route-errors.ts). */
export function responses(ok: TSchema, extra: Record<number, TSchema> = {}): Record<number, TSchema> {
  return { 200: ok, ...extra };
}

/** A 404 of surface A's standard envelope, for a handler that looks something up by the query. */
export const NotFound = { 404: CodedError };
