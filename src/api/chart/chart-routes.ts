import type { FastifyPluginAsync } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { Container } from '../../container.js';
import { MAX_CHART_OFFERS } from '../../catalog/chart-service.js';
import { CURRENCIES } from '../../domain/currencies.js';
import { DomainError } from '../../domain/errors.js';
import type { SharedSurface } from '../dispatch.js';
import { Int, OneOf, Query, Str } from '../schema-kit.js';
import { responses } from '../v1a/responses.js';
import { UuidRef } from '../v1b/schemas.js';
import { svgToPng } from './chart-png.js';
import { chartSvg } from './chart-svg.js';
import { withFields } from '../../domain/with-fields.js';

/** The chart's window: a quarter by default, a year at most (the longest history surface A serves). */
export const CHART_DAYS = { default: 90, max: 365 };
export const CHART_WIDTH = { min: 240, max: 2000, default: 800 };
export const CHART_HEIGHT = { min: 160, max: 1200, default: 400 };

const ChartQuery = Query({
  days: Int(1, CHART_DAYS.max, { default: CHART_DAYS.default, description: `window in days ending now, 1 to ${CHART_DAYS.max} (default ${CHART_DAYS.default})` }),
  offers: Type.Boolean({ default: false, description: `also draw the offers of its match group, one line each (at most ${MAX_CHART_OFFERS} lines, cheapest first)` }),
  currency: Type.Optional(OneOf(CURRENCIES, { description: 'prices drawn in (default: the listing\'s own currency), converted by the rate table in force' })),
  width: Int(CHART_WIDTH.min, CHART_WIDTH.max, { default: CHART_WIDTH.default, description: `pixels, ${CHART_WIDTH.min} to ${CHART_WIDTH.max} (default ${CHART_WIDTH.default})` }),
  height: Int(CHART_HEIGHT.min, CHART_HEIGHT.max, { default: CHART_HEIGHT.default, description: `pixels, ${CHART_HEIGHT.min} to ${CHART_HEIGHT.max} (default ${CHART_HEIGHT.default})` }),
  format: OneOf(['svg', 'png'], { default: 'svg', description: 'image/svg+xml or image/png' }),
});

const Image = {
  description: 'The chart: an SVG document, or a PNG with format=png',
  content: { 'image/svg+xml': { schema: Type.String() }, 'image/png': { schema: Type.Unsafe<Buffer>({ type: 'string', format: 'binary' }) } },
};

const ANY_REF = Type.Object({ ref: Str({ minLength: 1, maxLength: 200, description: 'integer product id, or SKU (a UUID is surface B)' }) });

/** An SVG that is opened directly runs nothing and loads nothing. */
const SVG_POLICY = "default-src 'none'; style-src 'unsafe-inline'";

const DESCRIPTION = 'A line chart of the listing\'s price over the window (a step line: a price holds until the next observation), '
  + 'the current lowest offer marked. Embeddable in `<img>`: this route may take the key as `?api_key=` (spec 5.2), which '
  + 'reaches browser history and any log on the way; prefer a key of low value. Cached 300 s like detail. '
  + 'A shared /v1 path: a UUID is answered by surface B, an integer id or SKU by surface A (errors in the v1 envelopes).';

/** GET /v1/products/{id}/price-history/chart for one side of the shared path (dispatch.ts): the same chart, by the id forms of that surface. */
export function chartRoutes(c: Container, surface: SharedSurface): FastifyPluginAsync {
  return async (base) => {
    const app = base.withTypeProvider<TypeBoxTypeProvider>();
    app.get('/v1/products/:ref/price-history/chart', {
      constraints: { surface },
      config: { cacheSeconds: 300 },
      schema: {
        summary: `Price-history chart, SVG or PNG (surface ${surface}: ${surface === 'A' ? 'integer id or SKU' : 'UUID'})`,
        description: DESCRIPTION, params: surface === 'A' ? ANY_REF : UuidRef, querystring: ChartQuery,
        response: withFields(responses(Type.Unknown()), { 200: Image }),
      },
    }, async (req, reply) => {
      const { ref } = req.params;
      const found = await c.products.resolve(ref);
      if (!found) throw notFound(ref, surface);
      const q = req.query;
      const svg = chartSvg(await c.charts.chart(found.listing, { days: q.days, offers: q.offers, currency: q.currency }), q);
      if (q.format === 'png') return reply.type('image/png').send(await svgToPng(svg));
      return reply.type('image/svg+xml; charset=utf-8').header('Content-Security-Policy', SVG_POLICY).send(svg);
    });
  };
}

function notFound(ref: string, surface: SharedSurface): DomainError {
  if (surface === 'B') return new DomainError('NOT_FOUND', 'Product not found.', { id: ref });
  if (/^\d+$/.test(ref)) return new DomainError('NOT_FOUND', `product ${ref} not found`, { product_id: Number(ref) });
  return new DomainError('PRODUCT_NOT_FOUND', `no product with SKU ${ref}`, { sku: ref });
}
