import { Type } from 'typebox';
import type { FastifyPluginAsync } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { Container } from '../../container.js';
import type { SortKey } from '../../store/types.js';
import { Bool, Currency, Limit, Offset, Price, Q } from './schemas.js';
import { clean, countriesOf, priceBounds } from './params.js';
import { contextFor, presentProduct } from './present.js';

const SearchQuery = Type.Object({
  q: Type.Optional(Q),
  limit: Limit(100, 20),
  offset: Offset,
  category: Type.Optional(Type.String({ maxLength: 200 })),
  min_price: Type.Optional(Price),
  max_price: Type.Optional(Price),
  platform: Type.Optional(Type.String({ maxLength: 64 })),
  in_stock: Type.Optional(Bool),
});

const ProductsSearchQuery = Type.Object({
  q: Type.Optional(Q),
  category: Type.Optional(Type.String({ maxLength: 200 })),
  price_min: Type.Optional(Price),
  price_max: Type.Optional(Price),
  platform: Type.Optional(Type.String({ maxLength: 64 })),
  brand: Type.Optional(Type.String({ maxLength: 200 })),
  in_stock: Type.Optional(Bool),
  country: Type.Optional(Type.String({ maxLength: 100 })),
  country_code: Type.Optional(Type.String({ maxLength: 100 })),
  region: Type.Optional(Type.String({ maxLength: 100 })),
  sort_by: Type.Union([Type.Literal('relevance'), Type.Literal('price_asc'), Type.Literal('price_desc'), Type.Literal('newest')], { default: 'relevance' }),
  limit: Limit(100, 20),
  offset: Offset,
  include_facets: Type.Boolean({ default: false }),
  currency: Type.Optional(Currency),
});

export function searchRoutes(c: Container): FastifyPluginAsync {
  return async (base) => {
    const app = base.withTypeProvider<TypeBoxTypeProvider>();

    app.get('/v1/search', {
      config: { surface: 'v1a' },
      schema: { tags: ['surface A'], summary: 'Keyword search (prices in SGD)', querystring: SearchQuery },
    }, async (req) => {
      const q = req.query;
      const bounds = priceBounds(c, q.min_price, q.max_price, 'SGD', ['min_price', 'max_price']);
      const r = await c.catalog.search({
        text: q.q, sort: 'relevance', limit: q.limit, offset: q.offset,
        filter: clean({ categoryLike: q.category, sources: q.platform ? [q.platform.toLowerCase()] : undefined, inStock: q.in_stock, ...bounds }),
      });
      const ctx = await contextFor(c, r.listings);
      return { total: r.total, limit: q.limit, offset: q.offset, has_more: q.offset + r.listings.length < r.total, items: r.listings.map((l) => presentProduct(l, ctx)) };
    });

    app.get('/v1/products/search', {
      config: { surface: 'v1a' },
      schema: { tags: ['surface A'], summary: 'Product search with facets and highlights (surface A variant)', querystring: ProductsSearchQuery },
    }, async (req) => {
      const q = req.query;
      const currency = q.currency ?? 'SGD';
      const bounds = priceBounds(c, q.price_min, q.price_max, currency, ['price_min', 'price_max']);
      const countries = [...(countriesOf(q.country ?? q.country_code, q.country ? 'country' : 'country_code') ?? []), ...(countriesOf(q.region, 'region') ?? [])];
      const sort: SortKey = q.sort_by === 'relevance' && !q.q ? 'newest' : q.sort_by;
      const r = await c.catalog.search({
        text: q.q, sort, limit: q.limit, offset: q.offset, facets: q.include_facets,
        filter: clean({
          categoryLike: q.category, sources: q.platform ? [q.platform.toLowerCase()] : undefined, brandLike: q.brand,
          inStock: q.in_stock, countries: countries.length ? countries : undefined, ...bounds,
        }),
      }, true);
      const ctx = await contextFor(c, r.listings, q.currency);
      return {
        total: r.total, total_count: r.total, limit: q.limit, offset: q.offset,
        items: r.listings.map((l) => presentProduct(l, ctx)),
        has_more: q.offset + r.listings.length < r.total, next_cursor: null,
        facets: r.facets ?? null, highlights: r.highlights ?? null,
      };
    });

    app.get('/v1/products/best-price', {
      config: { surface: 'v1a' },
      schema: { tags: ['surface A'], summary: 'The cheapest product matching q', querystring: Type.Object({ q: Type.String({ minLength: 1, maxLength: 500 }), category: Type.Optional(Type.String({ maxLength: 200 })) }) },
    }, async (req) => {
      const l = await c.catalog.bestPrice(req.query.q, clean({ categoryLike: req.query.category }));
      return presentProduct(l, await contextFor(c, [l]));
    });
  };
}
