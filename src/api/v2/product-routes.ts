import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { Container } from '../../container.js';
import { DomainError } from '../../domain/errors.js';
import type { ListingFilter, SortKey } from '../../store/types.js';
import { clean, countriesOf, modifiedSinceOf, priceBounds } from '../params.js';
import { RecordBytes, recordsAnswer } from '../record-bytes.js';
import { presentBatchRecord, presentDetailRecord, presentListRecord } from './present.js';
import { countriesOfRegion, detectRegion, type V2Region } from './region.js';
import { BatchDetailsResponse, DetailRecord, ListRecord, ProductsResponse, SearchResponse, responses } from './responses.js';
import { BatchDetailsBody, DetailQuery, IdParam, ProductsQuery, SearchQuery } from './schemas.js';

/** The markets a V2 request asks for: `country` wins, else `region` (auto: from the headers; undetected: every market). */
export function marketsOf(req: FastifyRequest, country: string | undefined, region: V2Region | 'auto'): string[] | undefined {
  const explicit = countriesOf(country, 'country');
  if (explicit) return explicit;
  const r = region === 'auto' ? detectRegion(req.headers) : region;
  return r ? countriesOfRegion(r) : undefined;
}

/** V2 products, detail, batch details and search (spec 4.4). */
export function productRoutes(c: Container): FastifyPluginAsync {
  return async (base) => {
    const app = base.withTypeProvider<TypeBoxTypeProvider>();
    const records = new RecordBytes(presentListRecord, ListRecord);

    app.get('/v2/products', {
      schema: { summary: 'Products with filters, sorting and deep paging (`after`)', querystring: ProductsQuery, response: responses(ProductsResponse) },
    }, async (req, reply) => {
      const q = req.query;
      const filter: ListingFilter = clean({
        categoryLike: q.category, brandLike: q.brand, sources: q.platform ? [q.platform.toLowerCase()] : undefined, inStock: q.in_stock,
        countries: marketsOf(req, q.country, q.region), modifiedSince: modifiedSinceOf(q.modified_since), ...priceBounds(c.fx, q.min_price, q.max_price, 'SGD', ['min_price', 'max_price']),
      });
      const sort: SortKey = q.sort_by === 'newest' && q.q ? 'relevance' : q.sort_by;
      const r = await c.catalog.search({
        text: q.q, filter, sort: q.after !== undefined ? 'newest' : sort, limit: q.limit, offset: q.after !== undefined ? 0 : q.offset, afterId: q.after,
      }, { currency: q.currency });
      const offset = q.after !== undefined ? 0 : q.offset;
      // With `after`, total counts every match, before the position too: more follow while pages are full.
      const more = q.after !== undefined ? r.items.length === q.limit : offset + r.items.length < r.total;
      return records.page(reply, { total: r.total, limit: q.limit, offset, has_more: more, items: [] }, 'items', r.items);
    });

    app.get('/v2/products/:id', {
      schema: { summary: 'One product by integer id', params: IdParam, querystring: DetailQuery, response: responses(DetailRecord) },
    }, async (req) => {
      const l = await c.catalog.findById(Number(req.params.id));
      if (!l) throw new DomainError('NOT_FOUND', `Product ${req.params.id} not found.`, { product_id: Number(req.params.id) });
      return presentDetailRecord(await c.products.view(l, req.query.currency));
    });

    app.post('/v2/products/batch-details', {
      config: { cacheSeconds: 60, heavy: true },
      schema: {
        summary: 'Up to 100 products by id; one error per id not found (cached 60 s, keyed on the body)', body: BatchDetailsBody,
        response: responses(BatchDetailsResponse),
      },
    }, async (req, reply) => {
      const b = req.body;
      const ids = [...new Set(b.product_ids)];
      const found = new Map((await c.catalog.getMany(ids)).map((l) => [l.id, l]));
      const views = await c.views.of(ids.map((id) => found.get(id)).filter((l) => l !== undefined), { currency: b.target_currency });
      const errors = ids.filter((id) => !found.has(id)).map((id) => ({ product_id: id, code: 'NOT_FOUND', message: `Product ${id} not found.` }));
      return recordsAnswer(reply, { results: [], errors }, 'results', views.map((v) => presentBatchRecord(v, { metadata: b.include_metadata })));
    });

    app.get('/v2/search', {
      // region=auto answers by the request's headers: the region they give is part of the cache key.
      config: { cacheSeconds: 60, cacheVary: (req) => detectRegion(req.headers) ?? 'all' },
      schema: { summary: 'Keyword search (cached 60 s)', querystring: SearchQuery, response: responses(SearchResponse) },
    }, async (req, reply) => {
      const q = req.query;
      const filter: ListingFilter = clean({
        categoryLike: q.category, sources: q.platform ? [q.platform.toLowerCase()] : undefined, inStock: q.in_stock,
        countries: marketsOf(req, q.country, q.region), ...priceBounds(c.fx, q.min_price, q.max_price, 'SGD', ['min_price', 'max_price']),
      });
      const r = await c.catalog.search({ text: q.q, filter, sort: 'relevance', limit: q.limit, offset: q.offset }, { currency: q.currency });
      return records.page(reply, { query: q.q, total: r.total, limit: q.limit, offset: q.offset, has_more: q.offset + r.items.length < r.total, items: [] }, 'items', r.items);
    });
  };
}
