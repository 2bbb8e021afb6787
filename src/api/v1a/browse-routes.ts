import type { FastifyPluginAsync } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type, type TSchema } from 'typebox';
import { EXPORT_COLUMNS } from '../../catalog/export-service.js';
import type { Container } from '../../container.js';
import { clean, modifiedSinceOf, priceBounds } from '../params.js';
import { Int, ModifiedSince, Num, OneOf, Query, Str } from '../schema-kit.js';
import { flattenCategories, presentDeal, presentTrend } from './present.js';
import { CategoriesResponse, DealsResponse, TrendingResponse, responses } from './responses.js';
import { Bool, Category, Limit, Offset, Price } from './schemas.js';
import { TRENDING_RULE, TRENDING_WINDOW_DAYS } from '../../domain/trending.js';

/** The export's 200: a stream, never serialized by a schema; a JSON array of records or CSV with a header row. */
const ExportFile: { description: string; content: Record<string, { schema: TSchema }> } = {
  description: 'A file download (Content-Disposition: attachment): products.json or products.csv',
  content: {
    'application/json': { schema: Type.Array(Type.Record(Type.String(), Type.Union([Type.String(), Type.Number(), Type.Boolean(), Type.Null()])), { description: `records of the columns ${EXPORT_COLUMNS.join(', ')}` }) },
    'text/csv': { schema: Type.String({ description: 'a header row of the same columns, then one row per listing' }) },
  },
};

/** What `reference_price` and `discount_pct` of a deal are measured against. */
const DEALS_BASIS = 'median price of the listing over the 90 days before its current price';

export function browseRoutes(c: Container): FastifyPluginAsync {
  return async (base) => {
    const app = base.withTypeProvider<TypeBoxTypeProvider>();

    app.get('/v1/products/trending', {
      schema: {
        summary: `Products whose price fell in the last ${TRENDING_WINDOW_DAYS} days, biggest drop first`,
        description: `A ranked short list (docs/ranking.md): ${TRENDING_RULE}. A drop is measured from the price before the `
          + `listing's first price change in the window (the price at the window's start, or at creation) to its current price, `
          + 'in its own currency. At most `limit` items (default 20, at most 100); `total` counts every listing that qualifies.',
        querystring: Query({ category: Type.Optional(Category), limit: Limit(100, 20) }), response: responses(TrendingResponse),
      },
    }, async (req) => {
      const r = await c.catalog.trending(clean({ categoryLike: req.query.category }), req.query.limit);
      return {
        items: r.items.map(presentTrend), total: r.total, limit: req.query.limit, category: req.query.category ?? null,
        window_days: TRENDING_WINDOW_DAYS, ranked_by: TRENDING_RULE,
      };
    });

    app.get('/v1/products/export', {
      // Streamed as it is produced: never tagged, no 304.
      config: { etag: false },
      schema: {
        summary: 'Export as CSV or JSON, streamed (up to 10,000 rows)',
        description: `One flat record per listing, in id order, with the columns: ${EXPORT_COLUMNS.join(', ')}.`,
        querystring: Query({
          format: OneOf(['json', 'csv'], { default: 'json', description: 'file format' }),
          category: Type.Optional(Category), source: Type.Optional(Str({ maxLength: 64, description: 'platform key, exact' })),
          min_price: Type.Optional(Price('lowest SGD price, inclusive')), max_price: Type.Optional(Price('highest SGD price, inclusive')),
          limit: Limit(10000, 1000), offset: Int(0, 10_000_000, { default: 0, description: 'listings to skip, in id order' }),
          modified_since: Type.Optional(ModifiedSince),
        }),
        response: { 200: ExportFile },
      },
    }, async (req, reply) => {
      const q = req.query;
      const filter = clean({
        categoryLike: q.category, sources: q.source ? [q.source.toLowerCase()] : undefined, modifiedSince: modifiedSinceOf(q.modified_since),
        ...priceBounds(c.fx, q.min_price, q.max_price, 'SGD', ['min_price', 'max_price']),
      });
      const file = await c.exports.open(q.format, filter, q.limit, q.offset);
      reply.header('Content-Disposition', `attachment; filename="${file.filename}"`);
      return reply.type(file.contentType).send(file.body);
    });

    app.get('/v1/deals', {
      schema: {
        summary: 'Products priced below their own 90-day median price',
        querystring: Query({
          category: Type.Optional(Category), min_discount_pct: Num(0, 100, { default: 10, description: 'smallest discount, percent (default 10)' }),
          exclude_fake_discounts: Bool('leave out deals whose original price was above every price of the last 90 days (fake_discount true); offset then counts the deals kept', false),
          limit: Limit(100, 20), offset: Offset,
        }),
        response: responses(DealsResponse),
      },
    }, async (req) => {
      const q = req.query;
      const r = await c.catalog.deals(clean({ categoryLike: q.category }), q.min_discount_pct, q.limit, q.offset, { excludeFlagged: q.exclude_fake_discounts });
      return { items: r.items.map(presentDeal), total: r.total, limit: q.limit, offset: q.offset, has_more: q.offset + r.items.length < r.total, basis: DEALS_BASIS };
    });

    app.get('/v1/categories', {
      constraints: { surface: 'A' },
      schema: {
        summary: 'Categories with product counts, every level', querystring: Query({}), response: responses(CategoriesResponse),
      },
    }, async () => {
      const categories = flattenCategories(await c.catalog.categoryTree());
      return { categories, total: categories.length };
    });
  };
}
