import { Readable } from 'node:stream';
import Big from 'big.js';
import { discountPct } from '../../domain/money.js';
import { stringify } from 'csv-stringify';
import { Type } from 'typebox';
import type { FastifyPluginAsync } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { Container } from '../../container.js';
import type { Listing } from '../../domain/listing.js';
import type { CategoryNode } from '../../catalog/catalog-service.js';
import { Limit, Offset, Price } from './schemas.js';
import { clean, priceBounds } from './params.js';
import { contextFor, presentProduct } from './present.js';

/** Export record (spec leaves it open): flat, one row per listing, every column a scalar. */
export const EXPORT_COLUMNS = [
  'id', 'uuid', 'sku', 'source', 'merchant_id', 'name', 'brand', 'category', 'category_path', 'price', 'currency',
  'price_sgd', 'usd_price', 'original_price', 'in_stock', 'stock_level', 'rating', 'review_count', 'barcode', 'mpn',
  'buy_url', 'affiliate_url', 'image_url', 'region', 'country_code', 'last_checked', 'updated_at',
] as const;

export function exportRecord(l: Listing): Record<(typeof EXPORT_COLUMNS)[number], string | number | boolean | null> {
  return {
    id: l.id, uuid: l.uuid, sku: l.sku, source: l.source, merchant_id: l.merchantId, name: l.title, brand: l.brand,
    category: l.category, category_path: l.categoryPath?.join(' > ') ?? null, price: l.price, currency: l.currency,
    price_sgd: l.priceSgd, usd_price: l.priceUsd, original_price: l.originalPrice, in_stock: l.inStock,
    stock_level: l.stockLevel, rating: l.rating, review_count: l.reviewCount, barcode: l.gtin, mpn: l.mpn,
    buy_url: l.url, affiliate_url: l.affiliateUrl, image_url: l.imageUrl, region: l.region, country_code: l.countryCode,
    last_checked: l.lastCheckedAt, updated_at: l.updatedAt,
  };
}

async function* jsonArray(rows: AsyncIterable<Listing>): AsyncIterable<string> {
  let first = true;
  yield '[';
  for await (const l of rows) {
    yield (first ? '' : ',') + JSON.stringify(exportRecord(l));
    first = false;
  }
  yield ']';
}

function flatten(nodes: CategoryNode[], level = 1): Array<{ name: string; count: number; slug: string; path: string[]; level: number }> {
  return nodes.flatMap((n) => [{ name: n.name, count: n.count, slug: n.slug, path: n.path, level }, ...flatten(n.children, level + 1)]);
}

export function browseRoutes(c: Container): FastifyPluginAsync {
  return async (base) => {
    const app = base.withTypeProvider<TypeBoxTypeProvider>();

    app.get('/v1/products/trending', {
      config: { surface: 'v1a' },
      schema: { tags: ['surface A'], summary: 'Recently updated products (changed in the last 7 days), newest first', querystring: Type.Object({ category: Type.Optional(Type.String({ maxLength: 200 })), limit: Limit(100, 50) }) },
    }, async (req) => {
      const r = await c.catalog.trending(clean({ categoryLike: req.query.category }), req.query.limit);
      const ctx = await contextFor(c, r.listings);
      return { items: r.listings.map((l) => presentProduct(l, ctx)), total: r.total, limit: req.query.limit, category: req.query.category ?? null, window_days: 7 };
    });

    app.get('/v1/products/export', {
      config: { surface: 'v1a' },
      schema: {
        tags: ['surface A'], summary: 'Export as CSV or JSON, streamed (up to 10,000 rows)',
        querystring: Type.Object({
          format: Type.Union([Type.Literal('json'), Type.Literal('csv')], { default: 'json' }),
          category: Type.Optional(Type.String({ maxLength: 200 })), source: Type.Optional(Type.String({ maxLength: 64 })),
          min_price: Type.Optional(Price), max_price: Type.Optional(Price), limit: Limit(10000, 1000), offset: Type.Integer({ minimum: 0, default: 0 }),
        }),
      },
    }, async (req, reply) => {
      const q = req.query;
      const filter = clean({ categoryLike: q.category, sources: q.source ? [q.source.toLowerCase()] : undefined, ...priceBounds(c, q.min_price, q.max_price, 'SGD', ['min_price', 'max_price']) });
      const rows = c.catalog.scan(filter, q.limit, q.offset);
      reply.header('Content-Disposition', `attachment; filename="products.${q.format}"`);
      if (q.format === 'csv') {
        const csv = stringify({ header: true, columns: [...EXPORT_COLUMNS], cast: { boolean: (b) => (b ? 'true' : 'false') } });
        Readable.from((async function* () { for await (const l of rows) yield exportRecord(l); })()).pipe(csv);
        return reply.type('text/csv; charset=utf-8').send(csv);
      }
      return reply.type('application/json; charset=utf-8').send(Readable.from(jsonArray(rows)));
    });

    app.get('/v1/deals', {
      config: { surface: 'v1a' },
      schema: {
        tags: ['surface A'], summary: 'Products priced below their own 90-day median price',
        querystring: Type.Object({ category: Type.Optional(Type.String({ maxLength: 200 })), min_discount_pct: Type.Number({ minimum: 0, maximum: 100, default: 10 }), limit: Limit(100, 20), offset: Offset }),
      },
    }, async (req) => {
      const q = req.query;
      const r = await c.catalog.deals(clean({ categoryLike: q.category }), q.min_discount_pct, q.limit, q.offset);
      const ctx = await contextFor(c, r.listings);
      return {
        items: r.listings.map((l) => ({ ...presentProduct(l, ctx), reference_price: l.referencePrice, discount_pct: discountOf(l) })),
        total: r.total, limit: q.limit, offset: q.offset, has_more: q.offset + r.listings.length < r.total,
        basis: 'median price of the listing over the 90 days before its current price',
      };
    });

    app.get('/v1/categories', {
      config: { surface: 'v1a' },
      schema: { tags: ['surface A'], summary: 'Categories with product counts, every level' },
    }, async () => {
      const categories = flatten(await c.catalog.categoryTree());
      return { categories, total: categories.length };
    });
  };
}

function discountOf(l: Listing): number {
  return discountPct(new Big(l.price), l.referencePrice ? new Big(l.referencePrice) : null);
}
