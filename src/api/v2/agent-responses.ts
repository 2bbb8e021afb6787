import { Type, type TProperties } from 'typebox';
import { Nullable, OneOf } from '../schema-kit.js';
import { BatchRecord } from './responses.js';

/** Response schemas of the V2 agent endpoints (spec 2.2, 2.5, 4.4; docs/api.md, V2 agent endpoints). */

const S = Type.String();
const NS = Nullable(Type.String());
const Int = Type.Integer();
const NNum = (description: string) => Nullable(Type.Number({ description }));

export const AgentInsights = Type.Object({
  buybox_winner: Type.Boolean({ description: 'an offer no offer of its match group undercuts' }),
  value_score: NNum('0 to 1; null without a buy-box price to compare with'),
  recommendation_reason: Type.String({ description: 'plain words citing the numbers' }),
  fake_discount: Nullable(Type.Boolean({ description: 'true when the original price is above every price of the last 90 days (docs/deals.md); null when not discounted or the history is too short' })),
  lowest_price_30d_before_discount: Nullable(Type.String({ description: 'lowest price in the 30 days before the discount began (EU Omnibus), in the response currency; null when unknown' })),
});

export const PricePoint = Type.Object({ price: S, currency: S, observed_at: S }, { description: 'one observed price, in the response currency' });

/** The agent record (spec 2.2): the batch record's url and affiliate_url, and the signals. */
export const AgentRecord = Type.Object({
  ...BatchRecord.properties,
  data_freshness: Type.String({ format: 'date-time', description: 'when the platform was last observed (last_checked)' }),
  confidence_score: Type.Number({ minimum: 0, maximum: 1, description: '0.90+ high, 0.70+ medium, 0.50+ lower, below minimal' }),
  price_trend: Nullable(OneOf(['up', 'down', 'stable'])),
  buybox_price: Nullable(Type.String({ description: 'lowest price of the same product on any platform, in the response currency' })),
  buybox_confidence: NNum('0 to 1'),
  price_change_percentage: NNum('percent'),
  demand_score: NNum('0 to 1'),
  seasonal_factor: NNum('multiplier'),
  availability_prediction: Type.Optional(Nullable(OneOf(['in_stock', 'low_stock', 'out_of_stock']))),
  competitor_count: Type.Optional(Nullable(Type.Integer({ minimum: 0 }))),
  agent_insights: Type.Optional(AgentInsights),
  price_history: Type.Optional(Type.Array(PricePoint)),
}, { description: 'V2 agent record (spec 2.2); availability_prediction, competitor_count, agent_insights, price_history only when asked' });

/** bulk-compare records: `id` and the `include_fields` chosen. */
export const PartialAgentRecord = Type.Object(
  Object.fromEntries(Object.entries(AgentRecord.properties).map(([k, s]) => [k, k === 'id' ? s : Type.Optional(s)])) as TProperties,
  { description: 'V2 agent record with the fields include_fields chose (all by default)' },
);

export const AgentSearchResponse = Type.Object({
  query: S, total: Int, limit: Int, offset: Int, has_more: Type.Boolean(),
  next_cursor: Nullable(Type.String({ description: 'pass as cursor for the next page; null at the end' })),
  applied: Type.Object({
    keywords: Type.String({ description: 'the words searched for, once filler and price phrases are taken out of q' }),
    currency: S, min_price: NS, max_price: NS,
    source: NS, preferred_sources: Type.Array(S), excluded_sources: Type.Array(S), sort_by: S,
  }, { description: 'what the query, its price phrases and the session context came to (docs/api.md)' }),
  results: Type.Array(AgentRecord),
});

const Highlights = Type.Object({
  cheapest: Nullable(Type.Object({ id: Int, source: S, price: S, currency: S })),
  best_rated: Nullable(Type.Object({ id: Int, source: S, rating: Type.Number() })),
  fastest_shipping: Nullable(Type.Object({ id: Int, source: S, shipping_days: Int })),
}, { description: 'each null when no result qualifies; an object of nulls when there are none' });

export const PriceComparisonResponse = Type.Object({ query: S, total: Int, limit: Int, results: Type.Array(AgentRecord), highlights: Highlights });
export const BestPriceResponse = Type.Object({ query: S, total: Int, limit: Int, results: Type.Array(AgentRecord) });

export const ExploreResponse = Type.Object({
  total: Int, limit: Int, offset: Int, has_more: Type.Boolean(),
  seed: Type.Integer({ description: 'pass it back to draw the same pages' }), results: Type.Array(AgentRecord),
});

export const TrendingResponse = Type.Object({
  category: NS, total: Type.Integer({ description: 'trending listings the filter lets through' }),
  categories: Type.Array(Type.Object({
    category: NS, count: Type.Integer({ description: 'its listings among the first 200 trending' }), results: Type.Array(AgentRecord),
  })),
});

export const CompareMatrixResponse = Type.Object({
  products: Type.Array(Type.Object({
    id: Int, title: S, price: S, price_rank: Type.Integer({ description: '1 = cheapest' }), currency: S,
    rating: Nullable(Type.Number()), review_count: Nullable(Type.Integer()), source: S,
  })),
  field_diffs: Type.Array(Type.Object({ field: S, values: Type.Array(Type.Unknown()), all_identical: Type.Boolean() })),
  identical_fields: Type.Array(S), cheapest_product_id: Int, most_expensive_product_id: Int,
  price_spread: Type.String({ description: 'dearest minus cheapest, exact, in price_spread_currency' }), price_spread_currency: S,
  price_spread_pct: NNum('spread over the cheapest price, percent; null when that price is 0'),
  not_found: Type.Array(Int),
});

export const BulkCompareResponse = Type.Object({
  results: Type.Array(PartialAgentRecord), total_products: Int,
  comparison_summary: Type.Object({
    cheapest_product: Nullable(Type.Object({ id: Int, title: S, price: S, currency: S, source: S })),
    best_rated_product: Nullable(Type.Object({ id: Int, title: S, rating: Type.Number(), source: S })),
    best_value_product: Nullable(Type.Object({ id: Int, title: S, value_score: Type.Number(), reason: S })),
  }),
  not_found: Type.Array(Int),
});

export const BatchLookupResponse = Type.Object({
  results: Type.Array(AgentRecord), total: Type.Integer({ description: 'records returned' }),
  has_more: Type.Boolean({ description: 'always false: every id found is returned at once' }),
  errors: Type.Array(Type.Object({ product_id: Int, code: S, message: S })),
});
