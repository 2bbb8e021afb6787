import type { FastifyPluginAsync } from 'fastify';
import { Type, type TSchema } from 'typebox';
import type { Container } from '../container.js';
import { ENDPOINTS_V1 } from './endpoints.js';
import { v1Errors } from './envelopes.js';
import { llmsTxt } from './reference/llms-txt.js';
import { pageRoutes } from './page/page-routes.js';
import type { SurfaceUnit } from './surface-unit.js';

const Health = Type.Object({
  status: Type.Union([Type.Literal('ok'), Type.Literal('starting')], { description: 'starting: listening, the store not usable yet (see reason)' }),
  reason: Type.Optional(Type.String({ description: 'while starting: what the service is doing' })),
  version: Type.String(), environment: Type.String(), store: Type.String(), search_index: Type.String(),
});
const Root = Type.Object({
  api: Type.String(), version: Type.Literal('v1'), endpoints: Type.Record(Type.String(), Type.String()), auth: Type.String(), docs: Type.String(),
});

const OpenApiDocument = Type.Object({}, { additionalProperties: true, description: 'The OpenAPI 3.1 document of every endpoint, generated from the route schemas' });
const LlmsText: { description: string; content: Record<string, { schema: TSchema }> } = {
  description: 'A short Markdown index for agents (llmstxt.org): what the service does, how to get a key, the endpoints by surface, where the reference and MCP are',
  content: { 'text/plain': { schema: Type.String() } },
};

/** The API root, the health check (spec 4.2, 9.2), the reference documents (public: agents read them before they have a key) and the catalog page. */
export const meta: SurfaceUnit = {
  surface: 'meta',
  tag: { name: 'meta', description: 'API root and health check' },
  errors: v1Errors,
  routes(c: Container): FastifyPluginAsync {
    return async (app) => {
      app.get('/health', {
        config: { auth: false },
        schema: {
          summary: 'Health check (no key needed): 200 when ready, 503 with a reason while starting', security: [],
          response: { 200: Health, 503: Health },
        },
      }, async (_req, reply) => {
        const reason = c.readiness.notReadyBecause;
        const body = { version: c.config.version, environment: c.config.environment, store: c.store.kind, search_index: c.searchIndex?.state ?? 'off' };
        if (reason === null) return { status: 'ok' as const, ...body };
        return reply.status(503).header('Retry-After', '5').send({ status: 'starting' as const, reason, ...body });
      });
      app.get('/v1', { schema: { summary: 'API root: version, endpoints, how to authenticate', response: { 200: Root } } }, async () => ({
        api: 'Catalog service', version: 'v1' as const, endpoints: ENDPOINTS_V1,
        auth: 'Send your key as Authorization: Bearer <API_KEY> (also: Authorization: ApiKey <API_KEY>, X-API-Key, or ?api_key=). Get one with POST /v1/auth/register?verify=false.',
        docs: '/docs',
      }));
      app.get('/openapi.json', {
        config: { auth: false },
        schema: { summary: 'This reference as OpenAPI 3.1 (no key needed)', security: [], response: { 200: OpenApiDocument } },
      }, async () => app.swagger() as unknown as Record<string, unknown>);
      app.get('/llms.txt', {
        config: { auth: false },
        schema: { summary: 'An index of the API for agents, from this reference (no key needed)', security: [], response: { 200: LlmsText } },
      }, async (_req, reply) => reply.type('text/plain; charset=utf-8').send(llmsTxt(app.swagger() as never, c.origin())));
      await app.register(pageRoutes(c));
    };
  },
};
