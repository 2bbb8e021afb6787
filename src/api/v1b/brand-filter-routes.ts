import type { FastifyPluginAsync, FastifyReply } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { Container } from '../../container.js';
import { COUNTRY_CURRENCY, SEA_COUNTRIES, type Currency } from '../../domain/currencies.js';
import type { ListingFilter } from '../../store/types.js';
import { clean, priceBounds } from '../params.js';
import { Int, Nullable, Query, Str } from '../schema-kit.js';
import { responses } from './responses.js';
import { SearchQuery } from './schemas.js';

/** GET /v1/brands and GET /v1/search/filters: the named gaps of spec 4.6 (docs/api.md, Brands and search filters). */

const took = (reply: FastifyReply) => Math.max(0, Math.round(reply.elapsedTime));

export const BRANDS_MAX_LIMIT = 200;

export const BrandsQuery = Query({
  q: Type.Optional(Str({ minLength: 1, maxLength: 100, description: 'brand name prefix, case-insensitive' })),
  category: Type.Optional(Str({ minLength: 1, maxLength: 200, description: 'count only listings of this category: case-insensitive partial match on the category or its path' })),
  limit: Int(1, BRANDS_MAX_LIMIT, { default: 50, description: `brands per page, 1 to ${BRANDS_MAX_LIMIT} (default 50)` }),
  offset: Int(0, 10000, { default: 0, description: 'brands to skip, 0 to 10000' }),
});

const Brand = Type.Object({
  name: Type.String({ description: 'the most common spelling' }), slug: Type.String(), product_count: Type.Integer({ description: 'listings of the brand' }),
});
export const BrandsResponse = Type.Object({
  data: Type.Array(Brand, { description: 'most listings first, then by name' }),
  meta: Type.Object({ total: Type.Integer({ description: 'brands matching q and category' }), limit: Type.Integer(), offset: Type.Integer(), response_time_ms: Type.Integer() }),
});

const P = SearchQuery.properties;
/** Search's own market and filter parameters (and only those): the filters of a query are those of the search it narrows. */
export const FiltersQuery = Query({
  q: P.q, country_code: P.country_code, region: P.region, currency: P.currency,
  category: P.category, brand: P.brand, domain: P.domain, min_price: P.min_price, max_price: P.max_price, availability: P.availability,
});

const Bucket = Type.Object({ value: Type.String(), count: Type.Integer() });
const Buckets = (description: string) => Type.Array(Bucket, { description });
export const FiltersResponse = Type.Object({
  data: Type.Object({
    query: Type.String(),
    categories: Buckets('leaf category names (the `category` filter), top 20'),
    brands: Buckets('brands (the `brand` filter), top 20'),
    domains: Buckets('retailer domains (the `domain` filter), top 20'),
    countries: Buckets('country codes of the market (`country_code`; several with region=SEA), top 20'),
    availability: Buckets('matches each `availability` value keeps (in_stock/out_of_stock by the stock flag, preorder/discontinued by the stock level: a listing may count twice); zeros left out'),
    price_range: Nullable(Type.Object({
      min: Type.Number({ description: 'the cheapest match' }), max: Type.Number({ description: 'the dearest match' }), currency: Type.String(),
    }, { description: 'null when nothing matches' })),
  }),
  meta: Type.Object({
    total: Type.Integer({ description: 'matches of the query with the filters given' }),
    currency: Type.String({ description: 'the currency of price_range, min_price and max_price' }),
    response_time_ms: Type.Integer(), cached: Type.Boolean({ description: 'true exactly when the answer came from the response cache' }),
  }),
});

const buckets = (list: Array<{ value: string; count: number }>) => list.map((b) => ({ value: b.value, count: b.count }));

export function brandFilterRoutes(c: Container): FastifyPluginAsync {
  return async (base) => {
    const app = base.withTypeProvider<TypeBoxTypeProvider>();

    app.get('/v1/brands', {
      schema: {
        summary: 'Brands with slugs and listing counts, most listings first (surface B)', querystring: BrandsQuery, response: responses(BrandsResponse),
        description: 'Spellings that differ only in letter case are one brand, named by its most common spelling. `q` keeps brands whose name starts with it; `category` counts only that category\'s listings.',
      },
    }, async (req, reply) => {
      const q = req.query;
      const r = await c.catalog.brands({ prefix: q.q, category: q.category, limit: q.limit, offset: q.offset });
      return {
        data: r.items.map((b) => ({ name: b.name, slug: b.slug, product_count: b.count })),
        meta: { total: r.total, limit: q.limit, offset: q.offset, response_time_ms: took(reply) },
      };
    });

    app.get('/v1/search/filters', {
      config: { cacheSeconds: 60 },
      schema: {
        summary: 'What the results of a search can be filtered by, with counts (surface B)', querystring: FiltersQuery, response: responses(FiltersResponse),
        description: 'The same query, market (country_code default SG; region=SEA) and filters as GET /v1/products/search; the answer counts its matches by category, brand, domain, country and availability, and gives their price range in `currency` (default: the market\'s).',
      },
    }, async (req, reply) => {
      const q = req.query;
      const countries = q.region === 'SEA' ? SEA_COUNTRIES : [q.region ?? q.country_code ?? 'SG'];
      const currency: Currency = q.currency ?? (q.region === 'SEA' ? 'SGD' : COUNTRY_CURRENCY[countries[0]] ?? 'SGD');
      const bounds = priceBounds(c.fx, q.min_price, q.max_price, currency, ['min_price', 'max_price']);
      const availability: ListingFilter = q.availability === 'in_stock' ? { inStock: true }
        : q.availability === 'out_of_stock' ? { inStock: false }
          : q.availability ? { stockLevels: [q.availability] } : {};
      const filter = clean({ categoryLike: q.category, brandLike: q.brand, domain: q.domain, countries, ...availability, ...bounds });
      const r = await c.catalog.searchFilters(q.q, filter, currency);
      const range = r.priceRange;
      return {
        data: {
          query: q.q, categories: buckets(r.facets.category), brands: buckets(r.facets.brand),
          domains: buckets(r.filters.domain), countries: buckets(r.filters.country), availability: buckets(r.filters.availability),
          price_range: range ? { min: Number(range.min.amount), max: Number(range.max.amount), currency } : null,
        },
        meta: { total: r.total, currency, response_time_ms: took(reply), cached: false },
      };
    });
  };
}
