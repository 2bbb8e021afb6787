import type { FastifyPluginAsync } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { Container } from '../../container.js';
import { DomainError } from '../../domain/errors.js';
import { recordsAnswer } from '../record-bytes.js';
import { pickFields, presentAgentRecord, presentBulkSummary, presentMatrix } from './agent-present.js';
import { BatchLookupResponse, BulkCompareResponse, CompareMatrixResponse } from './agent-responses.js';
import { BatchLookupBody, BulkCompareBody, CompareMatrixBody } from './agent-schemas.js';
import { NotFound, responses } from './responses.js';

/** V2 compare-matrix, bulk-compare and batch-lookup (spec 4.4; comparison edge rules of 4.2). */
export function agentCompareRoutes(c: Container): FastifyPluginAsync {
  return async (base) => {
    const app = base.withTypeProvider<TypeBoxTypeProvider>();

    app.post('/v2/agents/compare-matrix', {
      config: { heavy: true },
      schema: {
        summary: 'Field-by-field differences of 2 to 50 products in one currency; 404 NOT_FOUND when fewer than 2 exist',
        body: CompareMatrixBody, response: responses(CompareMatrixResponse, NotFound),
      },
    }, async (req) => {
      const b = req.body;
      const { diff, notFound } = await c.compare.diff(b.product_ids, { currency: b.target_currency });
      if (!diff) throw new DomainError('NOT_FOUND', 'At least 2 of the products must exist to be compared.', { not_found: notFound });
      return presentMatrix(diff, notFound, b.include_fields);
    });

    app.post('/v2/agents/bulk-compare', {
      config: { heavy: true },
      schema: {
        summary: 'Up to 50 products side by side, cheapest first, with the cheapest, best rated and best value',
        body: BulkCompareBody, response: responses(BulkCompareResponse),
      },
    }, async (req, reply) => {
      const b = req.body;
      const r = await c.agents.bulk(b.product_ids, b.target_currency);
      const all = { availability: true, competitors: true, insights: true };
      return recordsAnswer(reply, {
        results: [], total_products: r.items.length, comparison_summary: presentBulkSummary(r.highlights, r.bestValue), not_found: r.notFound,
      }, 'results', r.items.map((item) => pickFields(presentAgentRecord(item, all), b.include_fields)));
    });

    app.post('/v2/agents/batch-lookup', {
      config: { heavy: true },
      schema: {
        summary: 'Up to 100 products by id as agent records; one error per id not found',
        body: BatchLookupBody, response: responses(BatchLookupResponse),
      },
    }, async (req, reply) => {
      const b = req.body;
      const r = await c.agents.lookup(b.product_ids, b.target_currency, b.include_price_history);
      return recordsAnswer(reply, {
        results: [], total: r.items.length, has_more: false,
        errors: r.notFound.map((id) => ({ product_id: id, code: 'NOT_FOUND', message: `Product ${id} not found.` })),
      }, 'results', r.items.map((item) => presentAgentRecord(item, { metadata: b.include_metadata, affiliate: b.affiliate_links })));
    });
  };
}
