import type { FastifyPluginAsync } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { Container } from '../../container.js';
import { invalidInput } from '../../http/request-error.js';
import { WireError } from '../../http/wire-error.js';
import { checkRange } from '../params.js';
import { Body, Int, Query } from '../schema-kit.js';
import { presentComparison, presentDiff, presentHighlights } from './present.js';
import { CompareManyResponse, CompareResponse, CompareWithHighlightsResponse, DetailText, DiffResponse, responses } from './responses.js';
import { Currency, IntegerRef, Price } from './schemas.js';
import { withFields } from '../../domain/with-fields.js';

/** Spec 4.2: the compare-by-product-id 404 is `{detail: <text>}`. */
const PRODUCT_NOT_FOUND = { detail: 'Product not found' };
const ProductId = Int(1, Number.MAX_SAFE_INTEGER, { description: 'integer product id' });

export function compareRoutes(c: Container): FastifyPluginAsync {
  return async (base) => {
    const app = base.withTypeProvider<TypeBoxTypeProvider>();
    const bounds = (min?: number, max?: number) => ({
      minSgdMinor: min === undefined ? undefined : c.fx.toSgdMinor(min), maxSgdMinor: max === undefined ? undefined : c.fx.toSgdMinor(max),
    });

    app.get('/v1/products/compare', {
      constraints: { surface: 'A' },
      schema: {
        summary: 'Cross-platform matches of one product (by product_id)',
        querystring: Query({ product_id: ProductId, min_price: Type.Optional(Price('lowest SGD price of a match')), max_price: Type.Optional(Price('highest SGD price of a match')) }),
        response: responses(CompareResponse, { 404: DetailText }),
      },
    }, async (req) => {
      const l = await c.catalog.findById(req.query.product_id);
      if (!l) throw new WireError(404, PRODUCT_NOT_FOUND);
      checkRange(req.query.min_price, req.query.max_price, ['min_price', 'max_price']);
      return presentComparison(await c.compare.comparison(l, bounds(req.query.min_price, req.query.max_price)));
    });

    app.get('/v1/products/:ref/compare', {
      schema: {
        summary: 'Price comparison by id, with highlights; every match, sorted by price', params: IntegerRef,
        querystring: Query({ currency: Type.Optional(Currency) }),
        response: responses(CompareWithHighlightsResponse, { 404: DetailText }),
      },
    }, async (req) => {
      const l = await c.catalog.findById(Number(req.params.ref));
      if (!l) throw new WireError(404, PRODUCT_NOT_FOUND);
      // With `currency`, each match also shows converted_price (the order stays by SGD price).
      const cmp = await c.compare.comparison(l, {}, req.query.currency);
      return withFields(presentComparison(cmp), { highlights: presentHighlights(cmp.highlights) });
    });

    app.post('/v1/products/compare', {
      schema: {
        summary: 'Compare several products at once',
        body: Body({
          product_ids: Type.Array(ProductId, { minItems: 2, maxItems: 20, description: '2 to 20 product ids' }),
          min_price: Type.Optional(Price('lowest SGD price of a match')), max_price: Type.Optional(Price('highest SGD price of a match')),
        }, { description: 'product_ids required' }),
        response: responses(CompareManyResponse),
      },
    }, async (req) => {
      const { product_ids, min_price, max_price } = req.body;
      checkRange(min_price, max_price, ['min_price', 'max_price']);
      const r = await c.compare.compareMany(product_ids, bounds(min_price, max_price));
      return { comparisons: r.comparisons.map(presentComparison), total_products: r.comparisons.length, not_found: r.notFound };
    });

    app.post('/v1/products/compare/diff', {
      schema: {
        summary: 'Field-by-field differences of 2 to 5 products',
        body: Body({
          product_ids: Type.Array(ProductId, { minItems: 2, maxItems: 5, description: '2 to 5 product ids' }),
          include_image_similarity: Type.Boolean({ default: false, description: 'report whether the products share an image URL' }),
        }),
        response: responses(DiffResponse),
      },
    }, async (req) => {
      const { diff, notFound } = await c.compare.diff(req.body.product_ids);
      if (!diff) throw invalidInput(['body', 'product_ids'], 'at least 2 known products are needed', 'too_short');
      return presentDiff(diff, notFound, req.body.include_image_similarity);
    });
  };
}
