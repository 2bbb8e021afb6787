import { randomInt } from 'node:crypto';
import type { FastifyPluginAsync } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { Container } from '../../container.js';
import { DomainError } from '../../domain/errors.js';
import { clean } from '../params.js';
import { presentAgentHighlights, presentAgentRecord } from './agent-present.js';
import { decodeAgentCursor, nextAgentCursor, resolveAgentSearch } from './agent-request.js';
import { AgentSearchResponse, BestPriceResponse, ExploreResponse, PriceComparisonResponse, TrendingResponse } from './agent-responses.js';
import {
  AgentSearchQuery, BestPriceQuery, EXPLORE_MAX_OFFSET, ExploreQuery, PriceComparisonQuery, SEED_MAX, SessionHeader, TrendingQuery,
} from './agent-schemas.js';
import { NotFound, responses } from './responses.js';
import { parseSessionContext } from './session.js';
import { withFields } from '../../domain/with-fields.js';

/** V2 agent search, price comparison, best price, explore and trending (spec 4.4, 4.6; docs/api.md). */
export function agentRoutes(c: Container): FastifyPluginAsync {
  return async (base) => {
    const app = base.withTypeProvider<TypeBoxTypeProvider>();

    app.get('/v2/agents/search', {
      schema: {
        summary: 'Natural-language search with budget, source preferences, signals and a session context',
        description: 'Query parameters win over X-Session-Context, which fills what they leave unset; excluded sources of both are excluded; '
          + 'preferred sources are listed first. `cursor` (from next_cursor) wins over offset. See docs/api.md, V2 agent endpoints.',
        querystring: AgentSearchQuery, headers: SessionHeader, response: responses(AgentSearchResponse),
      },
    }, async (req) => {
      const q = req.query;
      const r = resolveAgentSearch(q, parseSessionContext(req.headers['x-session-context']), c.fx);
      const offset = q.cursor !== undefined ? decodeAgentCursor(q.cursor, r.fingerprint) : q.offset;
      const page = await c.agents.search(withFields(r.search, { offset, history: q.include_price_history }));
      const end = offset + page.items.length;
      return {
        query: q.q, total: page.total, limit: q.limit, offset, has_more: end < page.total,
        next_cursor: nextAgentCursor(end, page.total, r.fingerprint), applied: r.applied,
        results: page.items.map((item) => presentAgentRecord(item, {
          insights: q.include_agent_insights, availability: q.include_availability_prediction, competitors: q.include_competitor_count,
        })),
      };
    });

    app.get('/v2/agents/price-comparison', {
      schema: {
        summary: 'Listings matching a product name, cheapest first, with highlights; 404 NOT_FOUND when none',
        querystring: PriceComparisonQuery, response: responses(PriceComparisonResponse, NotFound),
      },
    }, async (req) => {
      const q = req.query;
      const r = await c.agents.cheapest(q.product_name, clean({ categoryLike: q.category }), q.limit, q.currency);
      if (!r.items.length) throw new DomainError('NOT_FOUND', `No products found for "${q.product_name}".`, { product_name: q.product_name });
      return { query: q.product_name, total: r.total, limit: q.limit, results: r.items.map((item) => presentAgentRecord(item)), highlights: presentAgentHighlights(r.highlights) };
    });

    app.get('/v2/agents/best-price', {
      schema: { summary: 'The cheapest listings matching a product name (empty results when none)', querystring: BestPriceQuery, response: responses(BestPriceResponse) },
    }, async (req) => {
      const q = req.query;
      const r = await c.agents.cheapest(q.product_name, clean({ categoryLike: q.category }), q.limit, q.currency);
      return { query: q.product_name, total: r.total, limit: q.limit, results: r.items.map((item) => presentAgentRecord(item)) };
    });

    app.get('/v2/agents/explore', {
      schema: {
        summary: 'Random discovery, reproducible with a seed (returned when chosen by the service)',
        description: 'The same seed, category and catalog give the same pages; offset pages through the seed\'s draw (at most 1000).',
        querystring: ExploreQuery, response: responses(ExploreResponse),
      },
    }, async (req) => {
      const q = req.query;
      const seed = q.seed ?? randomInt(1, SEED_MAX + 1);
      const r = await c.agents.explore(clean({ categoryLike: q.category }), q.limit, q.offset, seed, q.currency);
      const end = q.offset + q.limit;
      const hasMore = r.drawn === end && end < r.total && end <= EXPLORE_MAX_OFFSET;
      return { total: r.total, limit: q.limit, offset: q.offset, has_more: hasMore, seed, results: r.items.map((item) => presentAgentRecord(item)) };
    });

    app.get('/v2/agents/trending', {
      schema: {
        summary: 'Trending listings by category (the trending rule of /v1/products/trending, grouped)',
        querystring: TrendingQuery, response: responses(TrendingResponse),
      },
    }, async (req) => {
      const q = req.query;
      const r = await c.agents.trendingByCategory(clean({ categoryLike: q.category }), q.limit, q.categories, q.currency);
      return {
        category: q.category ?? null, total: r.total,
        categories: r.groups.map((g) => ({ category: g.category, count: g.count, results: g.items.map((item) => presentAgentRecord(item)) })),
      };
    });
  };
}
