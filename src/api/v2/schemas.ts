import { Type } from 'typebox';
import { V2_CURRENCIES } from '../../domain/currencies.js';
import { Body, Int, MAX_AMOUNT, ModifiedSince, Num, OneOf, Query, Str } from '../schema-kit.js';

/** Surface V2's request schemas (spec 4.4, 8.1). */

export const Currency = OneOf(V2_CURRENCIES, { default: 'SGD', description: `one of ${V2_CURRENCIES.join(', ')} (default SGD)` });
export const Limit = (max: number, dflt: number) => Int(1, max, { default: dflt, description: `results per page, 1 to ${max} (default ${dflt})` });
export const Offset = Int(0, 10000, { default: 0, description: 'results to skip, 0 to 10000' });
export const Region = OneOf(['us', 'sg', 'sea', 'auto'], { default: 'auto', description: 'us, sg or sea; auto (default) detects it from the request headers (docs/api.md)' });
const Bool = (description: string) => Type.Boolean({ description });
const Sgd = (description: string) => Num(0, MAX_AMOUNT, { description });

export const ProductsQuery = Query({
  q: Type.Optional(Str({ maxLength: 500, description: 'keywords, at most 500 characters' })),
  category: Type.Optional(Str({ maxLength: 200, description: 'case-insensitive partial match on the category or its path' })),
  brand: Type.Optional(Str({ maxLength: 200, description: 'case-insensitive partial match on the brand' })),
  min_price: Type.Optional(Sgd('lowest SGD price, inclusive')),
  max_price: Type.Optional(Sgd('highest SGD price, inclusive')),
  platform: Type.Optional(Str({ maxLength: 64, description: 'platform key, exact (e.g. shopee_sg)' })),
  country: Type.Optional(Str({ maxLength: 100, description: 'comma-separated two-letter codes; wins over region' })),
  region: Region,
  in_stock: Type.Optional(Bool('only listings in stock (true) or out of stock (false)')),
  sort_by: OneOf(['price_asc', 'price_desc', 'rating', 'newest'], { default: 'newest', description: 'default newest (with q: relevance first)' }),
  limit: Limit(100, 20),
  offset: Offset,
  currency: Currency,
  after: Type.Optional(Int(0, Number.MAX_SAFE_INTEGER, { description: 'product id: start after it in id order (deep paging; offset is then ignored)' })),
  modified_since: Type.Optional(ModifiedSince),
});

export const SearchQuery = Query({
  q: Str({ minLength: 1, maxLength: 500, description: 'keywords, 1 to 500 characters' }),
  category: Type.Optional(Str({ maxLength: 200, description: 'case-insensitive partial match on the category or its path' })),
  platform: Type.Optional(Str({ maxLength: 64, description: 'platform key, exact' })),
  min_price: Type.Optional(Sgd('lowest SGD price, inclusive')),
  max_price: Type.Optional(Sgd('highest SGD price, inclusive')),
  country: Type.Optional(Str({ maxLength: 100, description: 'comma-separated two-letter codes; wins over region' })),
  region: Region,
  in_stock: Type.Optional(Bool('only listings in stock (true) or out of stock (false)')),
  limit: Limit(100, 20),
  offset: Offset,
  currency: Currency,
});

export const IdParam = Type.Object({ id: Str({ pattern: '^[0-9]{1,15}$', maxLength: 15, description: 'integer product id' }) });
export const DetailQuery = Query({ currency: Currency });

export const BatchDetailsBody = Body({
  product_ids: Type.Array(Int(1, Number.MAX_SAFE_INTEGER), { minItems: 1, maxItems: 100, description: 'integer product ids, 1 to 100' }),
  include_metadata: Type.Boolean({ default: false, description: 'add specs and metadata_ (default false)' }),
  target_currency: Currency,
});
