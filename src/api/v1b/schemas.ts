import { Type } from 'typebox';
import { CURRENCIES } from '../../domain/currencies.js';
import { Int, MAX_AMOUNT, Num, OneOf, Query, Str } from '../schema-kit.js';

const Bool = (description: string, dflt: boolean) => Type.Boolean({ description, default: dflt });

/** Surface B's query schemas (spec 4.3, 8.1). */

export const Currency = OneOf(CURRENCIES, { description: 'ISO currency code (spec 8.4)' });
export const Limit = (max: number, dflt: number) => Int(1, max, { default: dflt, description: `results per page, 1 to ${max} (default ${dflt})` });
export const Offset = Int(0, 10000, { default: 0, description: 'results to skip, 0 to 10000' });
export const Country = OneOf(['SG', 'US', 'MY', 'TH', 'ID', 'VN', 'PH'], { default: 'SG', description: 'market (default SG)' });
export const UuidRef = Type.Object({
  ref: Str({ pattern: '^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$', maxLength: 36, description: 'product UUID' }),
});
export const Slug = Type.Object({ slug: Str({ minLength: 1, maxLength: 200, pattern: '^[a-z0-9-]+$', description: 'category slug' }) });

export const SearchQuery = Query({
  q: Str({ minLength: 1, maxLength: 500, description: 'keywords, 1 to 500 characters' }),
  country_code: Type.Optional(OneOf(['SG', 'US', 'MY', 'TH', 'ID', 'VN', 'PH'], { description: 'market (default SG; ignored when region is SEA)' })),
  region: Type.Optional(OneOf(['SEA', 'SG', 'US', 'MY', 'TH', 'ID', 'VN', 'PH'], { description: 'SEA: every Southeast Asian market; another code: that market' })),
  category: Type.Optional(Str({ maxLength: 200, description: 'case-insensitive partial match on the category or its path' })),
  brand: Type.Optional(Str({ maxLength: 200, description: 'case-insensitive partial match on the brand' })),
  domain: Type.Optional(Str({ maxLength: 253, description: 'retailer domain (subdomains included)' })),
  min_price: Type.Optional(Num(0, MAX_AMOUNT, { description: 'lowest price in `currency`, inclusive' })),
  max_price: Type.Optional(Num(0, MAX_AMOUNT, { description: 'highest price in `currency`, inclusive' })),
  currency: Type.Optional(Currency),
  sort: OneOf(['relevance', 'price_asc', 'price_desc', 'discount_desc', 'newest'], { default: 'relevance' }),
  availability: Type.Optional(OneOf(['in_stock', 'out_of_stock', 'preorder', 'discontinued'])),
  limit: Limit(100, 20),
  offset: Type.Optional(Int(0, 10000, { description: 'results to skip, 0 to 10000 (default 0)' })),
  page: Type.Optional(Int(1, 10001, { description: 'page number from 1: offset = (page - 1) * limit' })),
  fields: Type.Optional(Str({ maxLength: 1000, description: 'comma-separated names of spec 2.3 to return (id is always kept)' })),
  compact: Bool('smaller records: id, title, price, merchant, url (and click_url)', false),
  shopping_job_id: Type.Optional(Type.String({ maxLength: 1000, description: 'your shopping job: URL-safe, at most 128 characters; recorded with the search and threaded into each click_url as job_id; an invalid value is ignored' })),
});

export const HistoryQuery = (max: number) => Query({ days: Int(1, max, { default: 30, description: `window in days ending now, 1 to ${max} (default 30)` }) });
export const SimilarQuery = Query({ limit: Limit(20, 8) });
export const CompareQuery = Query({
  ids: Str({ maxLength: 2000, description: 'comma-separated product UUIDs, 2 to 10' }),
  currency: Type.Optional(Currency),
});
export const DealsQuery = Query({
  min_discount: Num(0, 100, { default: 10, description: 'lowest discount against the original price, percent (default 10)' }),
  country_code: Country,
  currency: OneOf(CURRENCIES, { default: 'SGD', description: 'prices shown in (default SGD)' }),
  exclude_fake_discounts: Bool('leave out deals whose original price was above every price of the last 90 days (fake_discount true); offset then counts the deals kept', false),
  limit: Limit(100, 20),
  offset: Offset,
});
export const CategoriesQuery = Query({ currency: OneOf(CURRENCIES, { default: 'SGD', description: 'prices shown in (default SGD)' }) });
export const CategoryQuery = Query({
  currency: OneOf(CURRENCIES, { default: 'SGD', description: 'prices shown in (default SGD)' }),
  limit: Limit(100, 20),
  offset: Offset,
});
