import { Type, type TSchema } from 'typebox';
import { Nullable } from '../schema-kit.js';

/** Response schemas of surface B (spec 2.3, 2.6, 2.7, 4.3). Prices are JSON numbers in the currency's own precision. */

const S = Type.String();
const NS = Nullable(Type.String());
const N = Type.Number();
const NN = Nullable(Type.Number());
const Price = Type.Object({ amount: N, currency: S });

export const Metadata = Type.Object({
  brand: Type.Optional(S), description: Type.Optional(S), category_path: Type.Optional(Type.Array(S)), rating: Type.Optional(N),
  review_count: Type.Optional(Type.Integer()), availability: Type.Optional(S), sku: Type.Optional(S), gtin: Type.Optional(S),
  structured_specs: Type.Optional(Type.Object({}, { additionalProperties: true })),
}, { description: 'as applicable: absent members are unknown for the listing' });

export const BRecord = Type.Object({
  id: Type.String({ format: 'uuid' }), title: S, price: Price, merchant: Type.String({ description: 'retailer domain' }), url: S,
  image_url: NS, region: Type.String({ description: 'upper-case region code' }), country_code: S, updated_at: S,
  original_price: Type.Optional(Type.Number({ description: 'present when discounted' })),
  discount_pct: Type.Optional(Type.Number({ description: 'present when discounted' })),
  metadata: Metadata,
  click_url: Type.Optional(Type.String({ description: 'tracked link to the offer (search results)' })),
}, { description: 'Surface B product record (spec 2.3)' });

const Page = Type.Object({ limit: Type.Integer(), offset: Type.Integer() });
const Timing = { response_time_ms: Type.Integer({ description: 'time this server took to answer' }), cached: Type.Boolean({ description: 'true exactly when the answer came from the response cache' }) };

export const SearchResponse = Type.Object({
  results: Type.Array(Type.Object({}, { additionalProperties: true, description: 'a record of spec 2.3; with `fields`, only the selected names (and id); with `compact`, the compact record' })),
  total: Type.Integer(), page: Page, ...Timing,
});
export const DetailResponse = Type.Object({ results: Type.Array(BRecord), total: Type.Integer(), page: Page, ...Timing });

/** A deal: the record with its honest-deal check (docs/deals.md). */
const DealRecord = Type.Object({
  ...BRecord.properties,
  discount_started_at: Nullable(Type.String({ description: 'when the current run of prices below original_price began; null when before the history' })),
  lowest_price_30d_before_discount: Nullable(Type.Number({ description: 'lowest price in the 30 days before the discount began (EU Omnibus), in the shown currency; null when unknown' })),
  fake_discount: Nullable(Type.Boolean({ description: 'true when original_price is above every price of the last 90 days; null when the history is too short to say' })),
}, { description: 'Surface B product record with its honest-deal check' });
export const DealsResponse = Type.Object({
  results: Type.Array(DealRecord),
  total: Type.Integer({ description: 'with exclude_fake_discounts, the deals less the flagged ones seen so far: exact on the last page' }),
  page: Page, ...Timing,
});

const CompareRecord = Type.Object({
  id: S, title: S, price: Price, original_price: NN, brand: NS, rating: NN, review_count: Nullable(Type.Integer()), domain: S, url: S,
});
export const CompareResponse = Type.Object({
  results: Type.Array(CompareRecord), total: Type.Integer(), page: Page,
  currencies_mixed: Type.Boolean(), currency_warning: NS,
  not_found: Type.Array(S, { description: 'requested ids no listing has' }),
  ...Timing,
});
/** The compare 400 of spec 7.1: a plain error string. */
export const PlainError = Type.Object({ error: S });

const CategoryRecord = Type.Object({ id: S, source: S, domain: S, url: S, title: S, price: N, currency: S, image_url: NS });
const SimilarRecord = Type.Object({ ...CategoryRecord.properties, brand: NS, category_path: Nullable(Type.Array(S)), region: S, country_code: S });
const Category = Type.Object({ slug: S, name: S, product_count: Type.Integer() });

export const SimilarResponse = Type.Object({
  data: Type.Array(SimilarRecord), meta: Type.Object({ source_id: S, count: Type.Integer(), response_time_ms: Type.Integer() }),
});
export const CategoriesResponse = Type.Object({
  data: Type.Array(Category), meta: Type.Object({ total: Type.Integer(), response_time_ms: Type.Integer() }),
});
export const CategoryResponse = Type.Object({
  data: Type.Object({ ...Category.properties, subcategories: Type.Array(Category), products: Type.Array(CategoryRecord) }),
  meta: Type.Object({ limit: Type.Integer(), offset: Type.Integer(), total: Type.Integer(), response_time_ms: Type.Integer() }),
});

const Stats = Type.Object({ min: NN, max: NN, avg: NN });
export const DailyHistoryResponse = Type.Object({
  data: Type.Object({
    product_id: S, title: S, current_price: N, currency: S,
    daily: Type.Array(Type.Object({ day: Type.String({ format: 'date' }), currency: S, min: N, max: N, avg: N, data_points: Type.Integer() })),
    stats: Stats,
  }),
  meta: Type.Object({ days: Type.Integer(), response_time_ms: Type.Integer() }),
});
export const GranularHistoryResponse = Type.Object({
  data: Type.Object({
    product_id: S, title: S, current_price: N, currency: S,
    history: Type.Array(Type.Object({ price: N, currency: S, at: S })),
    stats: Type.Object({ ...Stats.properties, data_points: Type.Integer() }),
  }),
  meta: Type.Object({ days: Type.Integer(), response_time_ms: Type.Integer() }),
});

/** A route's 200 and what its handler alone answers; the statuses every route shares are added at registration (api/route-errors.ts). */
export function responses(ok: TSchema, extra: Record<number, TSchema> = {}): Record<number, TSchema> {
  return { 200: ok, ...extra };
}
