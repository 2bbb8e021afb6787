import { Type } from 'typebox';
import type { FastifyPluginAsync } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { Container } from '../../container.js';
import type { Listing } from '../../domain/listing.js';
import { WireError } from '../../http/wire-error.js';
import { contextFor, presentHighlights, presentMatch, presentProduct } from './present.js';
import { Price } from './schemas.js';

const PRODUCT_NOT_FOUND = { detail: 'Product not found' };

/** The fields a compare diff lays side by side. */
const DIFF_FIELDS: Array<{ name: string; get: (l: Listing) => unknown }> = [
  { name: 'name', get: (l) => l.title }, { name: 'brand', get: (l) => l.brand }, { name: 'source', get: (l) => l.source },
  { name: 'price', get: (l) => l.price }, { name: 'currency', get: (l) => l.currency }, { name: 'price_sgd', get: (l) => l.priceSgd },
  { name: 'category', get: (l) => l.category }, { name: 'rating', get: (l) => l.rating }, { name: 'review_count', get: (l) => l.reviewCount },
  { name: 'in_stock', get: (l) => l.inStock }, { name: 'stock_level', get: (l) => l.stockLevel }, { name: 'shipping_days', get: (l) => l.shippingDays },
  { name: 'barcode', get: (l) => l.gtin }, { name: 'region', get: (l) => l.region }, { name: 'specs', get: (l) => l.specs },
];

export function compareRoutes(c: Container): FastifyPluginAsync {
  return async (base) => {
    const app = base.withTypeProvider<TypeBoxTypeProvider>();

    /** Matches of one listing, in the shape shared by the GET and POST compare responses. */
    async function comparison(l: Listing, min?: number, max?: number) {
      const matches = await c.compare.matchesFor(l, { minSgdMinor: c.catalog.boundToSgdMinor(min), maxSgdMinor: c.catalog.boundToSgdMinor(max) });
      const ctx = await contextFor(c, [l]);
      return {
        matches,
        body: {
          source_product_id: l.id, source_product_name: l.title,
          matches: matches.map((m) => presentMatch(m, ctx)), total_matches: matches.length,
        },
      };
    }

    app.get('/v1/products/compare', {
      config: { surface: 'v1a' },
      schema: {
        tags: ['surface A'], summary: 'Cross-platform matches of one product (by product_id)',
        querystring: Type.Object({ product_id: Type.Integer({ minimum: 1 }), min_price: Type.Optional(Price), max_price: Type.Optional(Price) }),
      },
    }, async (req) => {
      const l = await c.catalog.findById(req.query.product_id);
      if (!l) throw new WireError(404, PRODUCT_NOT_FOUND);
      c.catalog.checkRange(req.query.min_price, req.query.max_price, ['min_price', 'max_price']);
      return (await comparison(l, req.query.min_price, req.query.max_price)).body;
    });

    app.get('/v1/products/:ref/compare', {
      config: { surface: 'v1a' },
      schema: { tags: ['surface A'], summary: 'Price comparison by id, with highlights; every match, sorted by price', params: Type.Object({ ref: Type.String({ pattern: '^[0-9]{1,15}$' }) }) },
    }, async (req) => {
      const l = await c.catalog.findById(Number(req.params.ref));
      if (!l) throw new WireError(404, PRODUCT_NOT_FOUND);
      const { matches, body } = await comparison(l);
      return { ...body, highlights: presentHighlights(c.compare.highlights(matches.map((m) => m.listing))) };
    });

    app.post('/v1/products/compare', {
      config: { surface: 'v1a' },
      schema: {
        tags: ['surface A'], summary: 'Compare several products at once',
        body: Type.Object({
          product_ids: Type.Array(Type.Integer({ minimum: 1 }), { minItems: 2, maxItems: 20 }),
          min_price: Type.Optional(Price), max_price: Type.Optional(Price),
        }),
      },
    }, async (req) => {
      const { product_ids, min_price, max_price } = req.body;
      c.catalog.checkRange(min_price, max_price, ['min_price', 'max_price']);
      const found = await c.catalog.getMany([...new Set(product_ids)]);
      const comparisons = [];
      for (const l of found) comparisons.push((await comparison(l, min_price, max_price)).body);
      const missing = product_ids.filter((id) => !found.some((l) => l.id === id));
      return { comparisons, total_products: comparisons.length, not_found: missing };
    });

    app.post('/v1/products/compare/diff', {
      config: { surface: 'v1a' },
      schema: {
        tags: ['surface A'], summary: 'Field-by-field differences of 2 to 5 products',
        body: Type.Object({ product_ids: Type.Array(Type.Integer({ minimum: 1 }), { minItems: 2, maxItems: 5 }), include_image_similarity: Type.Boolean({ default: false }) }),
      },
    }, async (req) => {
      const listings = await c.catalog.getMany([...new Set(req.body.product_ids)]);
      const d = c.compare.diff(listings, DIFF_FIELDS);
      const ctx = await contextFor(c, listings);
      return {
        products: d.products.map((p) => ({ ...presentProduct(p.listing, ctx), price_rank: p.priceRank })),
        field_diffs: d.fieldDiffs.map((f) => ({ field: f.field, values: f.values, all_identical: f.allIdentical })),
        identical_fields: d.identicalFields,
        cheapest_product_id: d.cheapestId, most_expensive_product_id: d.mostExpensiveId,
        price_spread: d.priceSpread.toFixed(2), price_spread_currency: 'SGD', price_spread_pct: d.priceSpreadPct,
        // Image similarity would need image content we do not fetch; same URL is the only evidence we have.
        image_similarity: req.body.include_image_similarity ? { same_image_url: new Set(listings.map((l) => l.imageUrl)).size === 1 } : null,
        not_found: req.body.product_ids.filter((id) => !listings.some((l) => l.id === id)),
      };
    });
  };
}
