import type { FastifyPluginAsync } from 'fastify';
import type { Container } from '../container.js';
import { ENDPOINTS_V1 } from './v1a/endpoints.js';

export function rootRoutes(c: Container): FastifyPluginAsync {
  return async (app) => {
    app.get('/health', { config: { auth: false }, schema: { tags: ['meta'], summary: 'Health check (no key needed)' } }, async () => ({
      status: 'ok', version: c.config.version, environment: c.config.environment, store: c.store.kind,
      search_index: c.searchIndex?.state ?? 'off',
    }));
    app.get('/v1', { config: { surface: 'v1a' }, schema: { tags: ['meta'], summary: 'API root' } }, async () => ({
      api: 'Catalog service', version: 'v1', endpoints: ENDPOINTS_V1,
      auth: 'Send your key as Authorization: Bearer <API_KEY> (also: Authorization: ApiKey <API_KEY>, X-API-Key, or ?api_key=). Get one with POST /v1/auth/register?verify=false.',
      docs: '/docs',
    }));
  };
}
