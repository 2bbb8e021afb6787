import { Type, type Static } from 'typebox';
import fastJson from 'fast-json-stringify';
import type { FastifyPluginAsync } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { Container } from '../../container.js';
import { DomainError } from '../../domain/errors.js';
import type { SortKey } from '../../store/types.js';
import { clean, countriesOf, priceBounds } from '../params.js';
import { OneOf, Query, Str } from '../schema-kit.js';
import { JSON_TYPE, RecordBytes } from '../record-bytes.js';
import { FREE_NAME } from '../../http/front-door.js';
import { formDecoded } from '../../http/form-value.js';
import { presentProduct } from './present.js';
import { NotFound, ProductRecord, ProductsSearchResponse, SearchResponse, responses } from './responses.js';
import { Bool, Category, Currency, Limit, Offset, Platform, Price, Q } from './schemas.js';

const SearchQuery = Query({
  q: Type.Optional(Q),
  limit: Limit(100, 20),
  offset: Offset,
  category: Type.Optional(Category),
  min_price: Type.Optional(Price('lowest SGD price, inclusive')),
  max_price: Type.Optional(Price('highest SGD price, inclusive')),
  platform: Type.Optional(Platform),
  in_stock: Type.Optional(Bool('only listings in stock (true) or out of stock (false)')),
}, { description: 'every parameter optional; without q the most recently updated listings' });

type SearchParams = Static<typeof SearchQuery>;

/** The longest q read by plainSearch: well under Q's 500 characters however they are counted. */
const PLAIN_Q_MAX = 250;
const PLAIN_LIMIT = /^(100|[1-9]\d?)$/;
const PLAIN_OFFSET = /^(10000|0|[1-9]\d{0,3})$/;

/**
 * The parameters of a /v1/search query that gives only q, limit and offset (each once, in plain
 * decimal and in range) and free parameters, as the route's validation would read them; null for
 * any other query, which the route validates itself.
 */
export function plainSearch(query: string): Pick<SearchParams, 'q' | 'limit' | 'offset'> | null {
  const out: Pick<SearchParams, 'q' | 'limit' | 'offset'> = { q: undefined, limit: 20, offset: 0 };
  let seen = 0;
  if (query === '') return out;
  for (const pair of query.split('&')) {
    const eq = pair.indexOf('=');
    const name = eq < 0 ? pair : pair.slice(0, eq);
    if (FREE_NAME.test(name)) continue;
    if (eq < 0) return null;
    const value = pair.slice(eq + 1);
    const bit = name === 'q' ? 1 : name === 'limit' ? 2 : name === 'offset' ? 4 : 0;
    if (bit === 0 || seen & bit) return null;
    seen |= bit;
    if (bit === 1) {
      const text = formDecoded(value);
      if (text === null || text.length > PLAIN_Q_MAX) return null;
      out.q = text;
    } else if (bit === 2) {
      if (!PLAIN_LIMIT.test(value)) return null;
      out.limit = Number(value);
    } else {
      if (!PLAIN_OFFSET.test(value)) return null;
      out.offset = Number(value);
    }
  }
  return out;
}

const ProductsSearchQuery = Query({
  q: Type.Optional(Q),
  category: Type.Optional(Category),
  price_min: Type.Optional(Price('lowest price in `currency` (default SGD), inclusive')),
  price_max: Type.Optional(Price('highest price in `currency` (default SGD), inclusive')),
  platform: Type.Optional(Platform),
  brand: Type.Optional(Str({ maxLength: 200, description: 'case-insensitive partial match on the brand' })),
  in_stock: Type.Optional(Bool('only listings in stock (true) or out of stock (false)')),
  country: Type.Optional(Str({ maxLength: 100, description: 'comma-separated ISO country codes, or sea' })),
  country_code: Type.Optional(Str({ maxLength: 100, description: 'alias of country' })),
  region: Type.Optional(Str({ maxLength: 100, description: 'comma-separated region codes such as sg, us, sea' })),
  sort_by: OneOf(['relevance', 'price_asc', 'price_desc', 'newest'], {
    default: 'relevance', description: 'relevance without q means newest; with q, products before their accessories (docs/ranking.md)',
  }),
  limit: Limit(100, 20),
  offset: Offset,
  include_facets: Bool('compute facets (category, platform, brand, rating, price)', false),
  currency: Type.Optional(Currency),
});

const BestPriceQuery = Query({
  q: Str({ minLength: 1, maxLength: 500, description: 'what to find, at most 500 characters' }),
  category: Type.Optional(Category),
});

/** How a text query ranks (catalog-service.ts `search`; docs/ranking.md). */
const PRODUCTS_FIRST = 'Ranked by relevance (bm25: title, brand, category); unless q names an accessory (case, cover, charger, '
  + 'screen protector...), every product ranks above every accessory (docs/ranking.md).';

export function searchRoutes(c: Container): FastifyPluginAsync {
  return async (base) => {
    const app = base.withTypeProvider<TypeBoxTypeProvider>();
    const records = new RecordBytes(presentProduct, ProductRecord);

    /** A page of /v1/search, and its envelope with the records left out (RecordBytes). */
    const searchPage = async (q: Pick<SearchParams, 'q' | 'limit' | 'offset' | 'category' | 'platform' | 'in_stock'>, bounds: Partial<ReturnType<typeof priceBounds>>) => {
      const r = await c.catalog.search({
        text: q.q, sort: 'relevance', limit: q.limit, offset: q.offset,
        filter: clean({ categoryLike: q.category, sources: q.platform ? [q.platform.toLowerCase()] : undefined, inStock: q.in_stock, ...bounds }),
      });
      return { views: r.items, envelope: { total: r.total, limit: q.limit, offset: q.offset, has_more: q.offset + r.items.length < r.total, items: [] } };
    };
    app.get('/v1/search', {
      schema: {
        summary: 'Keyword search (prices in SGD)', querystring: SearchQuery, response: responses(SearchResponse),
        description: `Every word of q is required. ${PRODUCTS_FIRST}`,
      },
    }, async (req, reply) => {
      const q = req.query;
      const { envelope, views } = await searchPage(q, priceBounds(c.fx, q.min_price, q.max_price, 'SGD', ['min_price', 'max_price']));
      return records.page(reply, envelope, 'items', views);
    });
    // A search of text and a page alone is answered on the request event, with the same code.
    const envelopeText = fastJson(SearchResponse as never) as (envelope: Record<string, unknown>) => string;
    app.frontDoor?.answerQueries({
      path: '/v1/search', surface: 'v1a', config: {}, type: JSON_TYPE, parse: plainSearch,
      answer: async (q) => {
        const { envelope, views } = await searchPage(q, {});
        const page = records.pageOf(envelopeText, envelope, 'items', views);
        return { body: page.bytes, etag: page.tag };
      },
    });

    app.get('/v1/products/search', {
      constraints: { surface: 'A' },
      schema: {
        summary: 'Product search with facets and highlights (surface A variant)', querystring: ProductsSearchQuery, response: responses(ProductsSearchResponse),
        description: PRODUCTS_FIRST,
      },
    }, async (req, reply) => {
      const q = req.query;
      const bounds = priceBounds(c.fx, q.price_min, q.price_max, q.currency ?? 'SGD', ['price_min', 'price_max']);
      const countries = [...(countriesOf(q.country ?? q.country_code, q.country ? 'country' : 'country_code') ?? []), ...(countriesOf(q.region, 'region') ?? [])];
      const sort: SortKey = q.sort_by === 'relevance' && !q.q ? 'newest' : q.sort_by;
      const r = await c.catalog.search({
        text: q.q, sort, limit: q.limit, offset: q.offset, facets: q.include_facets,
        filter: clean({
          categoryLike: q.category, sources: q.platform ? [q.platform.toLowerCase()] : undefined, brandLike: q.brand,
          inStock: q.in_stock, countries: countries.length ? countries : undefined, ...bounds,
        }),
      }, { currency: q.currency, highlight: true });
      return records.page(reply, {
        total: r.total, total_count: r.total, limit: q.limit, offset: q.offset, items: [],
        has_more: q.offset + r.items.length < r.total, next_cursor: null,
        facets: r.facets ?? null, highlights: r.highlights ?? null,
      }, 'items', r.items);
    });

    app.get('/v1/products/best-price', {
      schema: {
        summary: 'The cheapest product matching q', querystring: BestPriceQuery, response: responses(ProductRecord, NotFound),
        description: 'Accessories (a case, cover, charger, screen protector...: by category or title, see docs/ranking.md) are left out '
          + 'unless q names one ("galaxy s24 case") or nothing else matches q. 404 when nothing matches.',
      },
    }, async (req) => {
      const v = await c.catalog.bestPrice(req.query.q, clean({ categoryLike: req.query.category }));
      if (!v) throw new DomainError('NOT_FOUND', `no product matches "${req.query.q}"`, { q: req.query.q });
      return presentProduct(v);
    });
  };
}
