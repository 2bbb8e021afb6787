import { isNamedSubPath, POST_ONLY_NAMED } from '../dispatch.js';
import type { FastifyPluginAsync } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import fastJson from 'fast-json-stringify';
import type { Container } from '../../container.js';
import type { Currency as CurrencyCode } from '../../domain/currencies.js';
import { DomainError } from '../../domain/errors.js';
import type { Resolved } from '../../catalog/id-resolver.js';
import { isIntegerId, isUuid } from '../../domain/listing-id.js';
import { invalidInput } from '../../http/request-error.js';
import { clean, countriesOf, decodeCursor, encodeCursor, modifiedSinceOf, priceBounds } from '../params.js';
import { JSON_TYPE } from '../record-bytes.js';
import { CodedError } from '../error-schemas.js';
import { Int, ModifiedSince, OneOf, Query, Str } from '../schema-kit.js';
import { presentObservation, presentProduct, presentSkuDetail } from './present.js';
import { ListingResponse, PriceHistoryResponse, ProductOrSkuResponse, ProductRecord, SkuDetailResponse, responses } from './responses.js';
import { Bool, Currency, IntegerRef, Limit, Offset, Platform, Price } from './schemas.js';

const ListQuery = Query({
  category_id: Type.Optional(Str({ maxLength: 200, description: 'exact category name or slug, any level' })),
  price_min: Type.Optional(Price('lowest price in `currency`, inclusive')),
  price_max: Type.Optional(Price('highest price in `currency`, inclusive')),
  currency: Type.Optional(Currency),
  region: Type.Optional(Str({ maxLength: 100, description: 'comma-separated country codes (SG, MY, TH, PH, ...) or sea' })),
  sort_by: OneOf(['relevance', 'price_asc', 'price_desc'], { default: 'relevance', description: 'relevance means most recently updated' }),
  limit: Limit(50, 20),
  cursor: Type.Optional(Str({ maxLength: 500, description: 'meta.next_cursor of the previous page, as received' })),
  offset: Offset,
  modified_since: Type.Optional(ModifiedSince),
});

/** What SKU detail lists when the query does not say. */
const SKU_DETAIL_DEFAULTS = { variants: true, merchantLinks: true };

const DetailQuery = Query({
  currency: Type.Optional(Currency),
  include_variants: Bool('SKU detail: list the price variants', SKU_DETAIL_DEFAULTS.variants),
  include_merchant_links: Bool('SKU detail: list every platform selling it', SKU_DETAIL_DEFAULTS.merchantLinks),
});

/** The one history window a user meets without asking (spec 8.1: A 1 to 365 days, default 30). */
export const HISTORY_DEFAULT_DAYS = 30;

const HistoryQuery = Query({
  days: Int(1, 365, { default: HISTORY_DEFAULT_DAYS, description: 'window in days ending now (default 30)' }),
  platform: Type.Optional(Platform),
  limit: Limit(1000, 100),
  offset: Int(0, 1_000_000, { default: 0, description: 'observations to skip' }),
  aggregation: Type.Optional(Str({ maxLength: 50, description: 'not accepted: this endpoint returns raw observations only' })),
});

const DETAIL_CONFIG = { cacheSeconds: 300 };
/** Fastify's own serializers for the answers (fast-json-stringify), compiled once for the route and the front door alike. */
const productRecordText = fastJson(ProductRecord as never);
const skuDetailText = fastJson(SkuDetailResponse as never);
/** A SKU as a path segment that needs no decoding (RFC 3986's unreserved characters), at most the `ref` parameter's 200. */
const PLAIN_SEGMENT = /^[A-Za-z0-9._~-]{1,200}$/;
/** The references the front door may answer first (http/front-door.ts ColdRoute): an integer id, or a SKU as sent. */
const takesFirst = (ref: string) => isIntegerId(ref) || (PLAIN_SEGMENT.test(ref) && !isNamedSubPath(ref) && !isUuid(ref));

const Ref = Type.Object({ ref: Str({ minLength: 1, maxLength: 200, description: 'integer product id, or SKU' }) });

export function productRoutes(c: Container): FastifyPluginAsync {
  return async (base) => {
    const app = base.withTypeProvider<TypeBoxTypeProvider>();
    /** The detail of a resolved reference: the SKU detail of spec 2.4 for a SKU, else the record of 2.1. */
    const detailText = async (found: Resolved, currency: CurrencyCode | undefined, opts: typeof SKU_DETAIL_DEFAULTS) => (found.form === 'sku'
      ? skuDetailText(presentSkuDetail(await c.products.skuDetail(found.listing, currency), opts))
      : productRecordText(presentProduct(await c.products.view(found.listing, currency, found.groupSize))));

    app.get('/v1/products', {
      config: { cacheSeconds: 600 },
      schema: { summary: 'Paginated listing (opaque cursor)', querystring: ListQuery, response: responses(ListingResponse, { 400: CodedError }) },
    }, async (req) => {
      const q = req.query;
      const since = modifiedSinceOf(q.modified_since);
      // A poller's pages follow the change order (docs/sync.md), whatever sort_by says.
      const sort = since ? 'changed' : q.sort_by === 'relevance' ? 'newest' : q.sort_by;
      const bounds = priceBounds(c.fx, q.price_min, q.price_max, q.currency ?? 'SGD', ['price_min', 'price_max'], 'INVALID_PRICE_RANGE');
      const cursor = q.cursor ? decodeCursor(q.cursor, sort) : null;
      const filter = clean({ categoryExact: q.category_id, countries: countriesOf(q.region, 'region'), modifiedSince: since, ...bounds });
      const page = await c.catalog.page(filter, sort, cursor, q.limit, q.offset, q.currency);
      return {
        data: page.items.map(presentProduct),
        meta: { total: page.total, next_cursor: page.next ? encodeCursor(page.next) : null, has_more: page.next !== null, limit: q.limit },
      };
    });

    app.get('/v1/products/:ref', {
      constraints: { surface: 'A' },
      config: DETAIL_CONFIG,
      schema: {
        params: Ref, querystring: DetailQuery, response: responses(ProductOrSkuResponse, { 405: CodedError }),
        summary: 'Product by integer id (a record of 2.1), or by SKU (product, price_variants, merchant_links, meta)',
        description: 'An integer is a product id (and, when no product has that id, a SKU of digits); anything else is a SKU, matched exactly. A UUID is surface B.',
      },
    }, async (req, reply) => {
      const { ref } = req.params;
      if (POST_ONLY_NAMED.has(ref)) {
        reply.header('Allow', 'POST');
        throw new DomainError('METHOD_NOT_ALLOWED', `GET is not allowed on /v1/products/${ref}; use POST`, { allowed: ['POST'] });
      }
      const found = await c.products.resolve(ref);
      if (!found) {
        if (/^\d+$/.test(ref)) throw new DomainError('NOT_FOUND', `product ${ref} not found`, { product_id: Number(ref), hint: 'no product has this id, and no product has it as its SKU' });
        throw new DomainError('PRODUCT_NOT_FOUND', `no product with SKU ${ref}`, { sku: ref, hint: 'SKUs match exactly (case-sensitive); search with GET /v1/products/search?q=' });
      }
      const q = req.query;
      return reply.type(JSON_TYPE).send(await detailText(found, q.currency, { variants: q.include_variants, merchantLinks: q.include_merchant_links }));
    });
    // A product by id or SKU never asked before is read and answered on the request event, as above.
    app.frontDoor?.answerCold({
      prefix: '/v1/products/', takes: takesFirst, surface: 'v1a', config: DETAIL_CONFIG, type: JSON_TYPE,
      answer: async (ref) => {
        const found = await c.products.resolve(ref);
        return found ? detailText(found, undefined, SKU_DETAIL_DEFAULTS) : null;
      },
    });

    app.get('/v1/products/:ref/price-history', {
      constraints: { surface: 'A' },
      schema: { summary: 'Raw price observations, newest first (default window 30 days)', params: IntegerRef, querystring: HistoryQuery, response: responses(PriceHistoryResponse) },
    }, async (req) => {
      if (req.query.aggregation !== undefined) throw invalidInput(['query', 'aggregation'], 'aggregation is not supported here; raw observations only', 'extra_forbidden');
      const l = await c.catalog.findById(Number(req.params.ref));
      if (!l) throw new DomainError('NOT_FOUND', `product ${req.params.ref} not found`, { product_id: Number(req.params.ref) });
      const { entries, total } = await c.history.raw(l, req.query.days, { platform: req.query.platform?.toLowerCase(), limit: req.query.limit, offset: req.query.offset });
      return { product_id: l.id, entries: entries.map(presentObservation), aggregated_entries: [], total, aggregate: null, period: null };
    });
  };
}
