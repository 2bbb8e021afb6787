import Big from 'big.js';
import { Type } from 'typebox';
import type { FastifyPluginAsync } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { Container } from '../../container.js';
import type { Currency as CurrencyCode } from '../../domain/currencies.js';
import { DomainError, notFound, validationError } from '../../domain/errors.js';
import { freshnessOf } from '../../domain/freshness.js';
import type { Listing } from '../../domain/listing.js';
import { GROUP_MEMBERS_LIMIT } from '../../store/types.js';
import { byPrice } from '../../catalog/compare-service.js';
import { Currency, Limit, Offset, Price } from './schemas.js';
import { clean, countriesOf, decodeCursor, encodeCursor, priceBounds } from './params.js';
import { contextFor, contextWithGroups, convertedPrice, presentMerchantLink, presentProduct, presentVariant } from './present.js';

const ListQuery = Type.Object({
  category_id: Type.Optional(Type.String({ maxLength: 200 })),
  price_min: Type.Optional(Price),
  price_max: Type.Optional(Price),
  currency: Type.Optional(Currency),
  region: Type.Optional(Type.String({ maxLength: 100 })),
  sort_by: Type.Union([Type.Literal('relevance'), Type.Literal('price_asc'), Type.Literal('price_desc')], { default: 'relevance' }),
  limit: Limit(50, 20),
  cursor: Type.Optional(Type.String({ maxLength: 500 })),
  offset: Offset,
});

const DetailQuery = Type.Object({
  currency: Type.Optional(Currency),
  include_variants: Type.Boolean({ default: true }),
  include_merchant_links: Type.Boolean({ default: true }),
});

const HistoryQuery = Type.Object({
  days: Type.Integer({ minimum: 1, maximum: 365, default: 30 }),
  platform: Type.Optional(Type.String({ maxLength: 64 })),
  limit: Limit(1000, 100),
  offset: Type.Integer({ minimum: 0, default: 0 }),
  aggregation: Type.Optional(Type.String()),
});

const Ref = Type.Object({ ref: Type.String({ minLength: 1, maxLength: 200, description: 'integer product id, or SKU' }) });
const isInt = (s: string) => /^\d{1,15}$/.test(s);

export function productRoutes(c: Container): FastifyPluginAsync {
  return async (base) => {
    const app = base.withTypeProvider<TypeBoxTypeProvider>();

    app.get('/v1/products', {
      config: { surface: 'v1a', cacheSeconds: 600 },
      schema: { tags: ['surface A'], summary: 'Paginated listing (opaque cursor)', querystring: ListQuery },
    }, async (req) => {
      const q = req.query;
      const sort = q.sort_by === 'relevance' ? 'newest' : q.sort_by;
      const bounds = priceBounds(c, q.price_min, q.price_max, q.currency ?? 'SGD', ['price_min', 'price_max'], 'INVALID_PRICE_RANGE');
      const cursor = q.cursor ? decodeCursor(q.cursor, sort) : null;
      const filter = clean({ categoryExact: q.category_id, countries: countriesOf(q.region, 'region'), ...bounds });
      const page = await c.catalog.page(filter, sort, cursor, q.limit, q.offset);
      const ctx = await contextFor(c, page.listings, q.currency);
      return {
        data: page.listings.map((l) => presentProduct(l, ctx)),
        meta: { total: page.total, next_cursor: page.next ? encodeCursor(page.next) : null, has_more: page.next !== null, limit: q.limit },
      };
    });

    app.get('/v1/products/:ref', {
      config: { surface: 'v1a', cacheSeconds: 300 },
      schema: {
        tags: ['surface A'], params: Ref, querystring: DetailQuery,
        summary: 'Product by integer id (a record of 2.1), or by SKU (product, price_variants, merchant_links, meta)',
      },
    }, async (req) => {
      const { ref } = req.params;
      if (isInt(ref)) {
        const l = await c.catalog.findById(Number(ref));
        if (l) return presentProduct(l, await contextFor(c, [l], req.query.currency));
      }
      const bySku = await c.catalog.findBySku(ref);
      if (!bySku.length) {
        if (isInt(ref)) throw notFound(`product ${ref}`, { product_id: Number(ref), hint: 'no product has this id, and no product has it as its SKU' });
        throw new DomainError('PRODUCT_NOT_FOUND', `no product with SKU ${ref}`, { sku: ref, hint: 'SKUs match exactly (case-sensitive); search with GET /v1/products/search?q=' });
      }
      return skuDetail(c, bySku[0], req.query);
    });

    app.get('/v1/products/:ref/price-history', {
      config: { surface: 'v1a' },
      schema: { tags: ['surface A'], summary: 'Raw price observations, newest first', params: Type.Object({ ref: Type.String({ pattern: '^[0-9]{1,15}$' }) }), querystring: HistoryQuery },
    }, async (req) => {
      if (req.query.aggregation !== undefined) throw validationError(['query', 'aggregation'], 'aggregation is not supported here; raw observations only', 'extra_forbidden');
      const l = await c.catalog.get(Number(req.params.ref));
      const { entries, total } = await c.history.raw(l, req.query.days, { platform: req.query.platform?.toLowerCase(), limit: req.query.limit, offset: req.query.offset });
      return {
        product_id: l.id,
        entries: entries.map((e) => ({ price: e.price, currency: e.currency, platform: e.source, scraped_at: e.observedAt })),
        aggregated_entries: [], total, aggregate: null, period: null,
      };
    });
  };
}

async function skuDetail(c: Container, product: Listing, q: { currency?: CurrencyCode; include_variants: boolean; include_merchant_links: boolean }) {
  const links = (await c.catalog.groupMembers(product)).sort(byPrice);
  // The whole group is at hand, so its size needs no second read of the same rows.
  const whole = links.length < GROUP_MEMBERS_LIMIT && links.some((l) => l.id === product.id);
  const ctx = whole ? contextWithGroups(c, new Map([[product.groupId, { size: links.length }]]), q.currency) : await contextFor(c, [product], q.currency);
  const now = ctx.now;
  const merchants = links.length ? links : [product];
  const cheapest = merchants[0];
  const shown = q.currency ?? 'SGD';
  const rated = merchants.filter((m) => m.rating !== null).map((m) => new Big(m.rating!));
  return {
    product: { ...presentProduct(product, ctx), has_variants: product.variants.length > 0 },
    price_variants: q.include_variants ? product.variants.map(presentVariant) : [],
    merchant_links: q.include_merchant_links ? merchants.map((m) => presentMerchantLink(m, now)) : [],
    meta: {
      total_merchants: merchants.length,
      total_variants: product.variants.length,
      cheapest_price: convertedPrice(c.fx, cheapest.price, cheapest.currency, shown),
      cheapest_currency: shown,
      cheapest_source: cheapest.source,
      lowest_rating: rated.length ? rated.reduce((a, b) => (b.lt(a) ? b : a)).toString() : null,
      data_freshness: freshnessOf(product.lastCheckedAt, now),
    },
  };
}
