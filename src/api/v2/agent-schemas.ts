import { Type } from 'typebox';
import { V2_CURRENCIES } from '../../domain/currencies.js';
import { DIFF_FIELD_NAMES, RECORD_FIELDS } from './agent-fields.js';
import { Body, Int, MAX_AMOUNT, Num, OneOf, Query, Str } from '../schema-kit.js';
import { Currency, Limit, Offset } from './schemas.js';

/** Request schemas of the V2 agent endpoints (spec 4.4, 8.1; docs/api.md, V2 agent endpoints). */

const Bool = (description: string) => Type.Boolean({ default: false, description: `${description} (default false)` });
const Amount = (description: string) => Num(0, MAX_AMOUNT, { description });
const Sources = (description: string) => Str({ maxLength: 2000, description: `comma-separated platform keys; ${description}` });
const Name = (description: string) => Str({ minLength: 1, maxLength: 500, description });
const Category = Str({ maxLength: 200, description: 'case-insensitive partial match on the category or any level of its path' });
const ProductId = Int(1, Number.MAX_SAFE_INTEGER, { description: 'integer product id' });

/** Agent search's currency has no schema default: an unset one is taken from the session (docs/api.md). */
export const AgentCurrency = OneOf(V2_CURRENCIES, { description: `one of ${V2_CURRENCIES.join(', ')}; default the session's target_currency, else SGD` });

export const AGENT_SORTS = ['relevance', 'price_asc', 'price_desc', 'newest', 'highest_rated', 'most_reviewed'] as const;

export const AgentSearchQuery = Query({
  q: Name('what the agent is looking for, in natural language, 1 to 500 characters; price phrases ("under 500") become bounds'),
  limit: Limit(100, 10),
  offset: Offset,
  cursor: Type.Optional(Str({ maxLength: 512, description: 'opaque position from next_cursor; wins over offset' })),
  source: Type.Optional(Str({ maxLength: 64, description: 'only this platform (e.g. shopee_sg)' })),
  min_price: Type.Optional(Amount('lowest price, inclusive, in the response currency')),
  max_price: Type.Optional(Amount('highest price, inclusive, in the response currency')),
  availability: Type.Optional(Type.Boolean({ description: 'only listings in stock (true) or out of stock (false)' })),
  sort_by: OneOf(AGENT_SORTS, { default: 'relevance', description: 'relevance (default), price_asc, price_desc, newest, highest_rated, most_reviewed' }),
  currency: Type.Optional(AgentCurrency),
  budget_min: Type.Optional(Amount('the budget\'s lower end, in the response currency; wins over the session\'s')),
  budget_max: Type.Optional(Amount('the budget\'s upper end, in the response currency; wins over the session\'s')),
  preferred_sources: Type.Optional(Sources('ranked first, others still listed; wins over the session\'s')),
  excluded_sources: Type.Optional(Sources('never listed; added to the session\'s')),
  include_agent_insights: Bool('add agent_insights'),
  include_price_history: Bool('add price_history (30 days)'),
  include_availability_prediction: Bool('add availability_prediction'),
  include_competitor_count: Bool('add competitor_count'),
});

export const SessionHeader = Type.Object({
  'x-session-context': Type.Optional(Type.String({
    description: 'base64 of JSON {budget: {min, max}, target_currency, preferences: {preferred_sources, excluded_sources}}; at most 8192 characters; malformed is a 422',
  })),
});

export const PriceComparisonQuery = Query({
  product_name: Name('the product, 1 to 500 characters'),
  category: Type.Optional(Category),
  limit: Limit(100, 20),
  currency: Currency,
});

export const BestPriceQuery = Query({
  product_name: Name('the product, 1 to 500 characters'),
  category: Type.Optional(Category),
  limit: Limit(50, 5),
  currency: Currency,
});

/** Random discovery pages stay shallow: every page is drawn from the first offset + limit of the seed's draw. */
export const EXPLORE_MAX_OFFSET = 1000;
export const SEED_MAX = 2147483647;

export const ExploreQuery = Query({
  category: Type.Optional(Category),
  limit: Limit(100, 20),
  offset: Int(0, EXPLORE_MAX_OFFSET, { default: 0, description: `results to skip, 0 to ${EXPLORE_MAX_OFFSET}` }),
  currency: Currency,
  seed: Type.Optional(Int(1, SEED_MAX, { description: `1 to ${SEED_MAX}; the same seed, filter and catalog give the same pages; chosen and returned when absent` })),
});

export const TrendingQuery = Query({
  category: Type.Optional(Category),
  limit: Limit(100, 10),
  categories: Int(1, 50, { default: 10, description: 'categories listed, 1 to 50 (default 10)' }),
  currency: Currency,
});

const ids = (min: number, max: number) =>
  Type.Array(ProductId, { minItems: min, maxItems: max, description: `integer product ids, ${min} to ${max}` });

export const CompareMatrixBody = Body({
  product_ids: ids(2, 50),
  include_fields: Type.Optional(Type.Array(OneOf(DIFF_FIELD_NAMES), { minItems: 1, maxItems: DIFF_FIELD_NAMES.length, uniqueItems: true, description: 'fields compared (default all)' })),
  target_currency: Currency,
});

export const BulkCompareBody = Body({
  product_ids: ids(1, 50),
  target_currency: Currency,
  include_fields: Type.Optional(Type.Array(OneOf(RECORD_FIELDS), { minItems: 1, maxItems: RECORD_FIELDS.length, uniqueItems: true, description: 'record fields returned besides id (default all)' })),
});

export const BatchLookupBody = Body({
  product_ids: ids(1, 100),
  target_currency: Currency,
  affiliate_links: Type.Boolean({ default: true, description: 'fill affiliate_url (default true; false gives null)' }),
  include_metadata: Bool('add specs and metadata_'),
  include_price_history: Bool('add price_history (30 days)'),
});
