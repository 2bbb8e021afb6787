import type { FastifyPluginAsync } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { Container } from '../../container.js';
import { requireTier } from '../../http/rate-limit.js';
import { Body, Str } from '../schema-kit.js';
import { responses } from './responses.js';

/** Products per request (spec 4.3's JSON ingestion). */
export const MAX_PRODUCTS = 1000;
/** A body of 1,000 products with long descriptions and specs fits; parsed whole, so bounded (NDJSON ingestion streams more). */
export const JSON_INGEST_BODY_LIMIT = 8 * 1024 * 1024;
/** Records per transaction, as for the NDJSON door: other requests are served between batches. */
const BATCH = 50;

const IngestBody = Body({
  source: Type.Optional(Str({
    minLength: 1, maxLength: 64, pattern: '^[A-Za-z0-9][A-Za-z0-9_.-]*$',
    description: 'platform key given to every product without a `source` of its own (letters, digits, _ . -; at most 64)',
  })),
  products: Type.Array(Type.Unknown({ description: 'an ingest record of docs/ingest.md' }), {
    minItems: 1, maxItems: MAX_PRODUCTS, description: `1 to ${MAX_PRODUCTS} ingest records (docs/ingest.md)`,
  }),
});

const IngestResponse = Type.Object({
  ingested: Type.Integer({ description: 'new listings stored' }),
  updated: Type.Integer({ description: 'listings changed' }),
  unchanged: Type.Integer({ description: 'records identical to (or older than) what is stored' }),
  skipped: Type.Integer({ description: 'products refused; each is in errors' }),
  errors: Type.Array(Type.Object({
    index: Type.Integer({ description: 'position in `products`, from 0' }), field: Type.String(), message: Type.String(),
  })),
});

/**
 * POST /v1/products/ingest (pro and enterprise): the JSON shape of ingestion. The same service and
 * rules as `POST /v1/ingest/products` (catalog/ingest.ts); only the envelope differs.
 */
export function ingestRoutes(c: Container): FastifyPluginAsync {
  return async (base) => {
    const app = base.withTypeProvider<TypeBoxTypeProvider>();
    app.post('/v1/products/ingest', {
      config: { minTier: 'pro', idempotent: true },
      // Below pro the answer is 403 whatever the body: refused before the body is validated.
      preValidation: requireTier('pro'),
      bodyLimit: JSON_INGEST_BODY_LIMIT,
      schema: {
        summary: 'Ingest up to 1,000 products as JSON (pro and enterprise)',
        description: `Body \`{source, products: [...]}\`, at most ${MAX_PRODUCTS} products and ${JSON_INGEST_BODY_LIMIT / 1024 / 1024} MiB; each product is an ingest record `
          + '(docs/ingest.md) and takes `source` when it has none. Good products are stored while bad ones are reported by index (status 200).',
        body: IngestBody,
        response: responses(IngestResponse),
      },
    }, async (req) => {
      try {
        const s = await c.ingest.ingestRecords(req.body.products, {
          source: req.body.source, now: () => c.clock.now(), batchSize: BATCH, yieldBetweenBatches: true,
        });
        return {
          ingested: s.inserted, updated: s.updated, unchanged: s.unchanged, skipped: s.rejected,
          errors: s.rejections.map((r) => ({ index: r.index, field: r.field, message: r.reason })),
        };
      } finally {
        // This process reads its event tail before answering: its caches are cleared, other instances told.
        await c.tail.poke();
      }
    });
  };
}
