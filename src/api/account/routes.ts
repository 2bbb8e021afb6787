import type { FastifyPluginAsync } from 'fastify';
import type { Container } from '../../container.js';
import { adminRoutes } from './admin-routes.js';
import { authRoutes } from './auth-routes.js';
import { ingestRoutes } from './ingest-routes.js';
import { oauthRoutes } from './oauth-routes.js';

/** Accounts: registration, keys, OAuth client credentials, admin. */
export function accountRoutes(c: Container): FastifyPluginAsync {
  return async (app) => {
    await app.register(authRoutes(c));
    await app.register(oauthRoutes(c));
    await app.register(adminRoutes(c));
    await app.register(ingestRoutes(c));
  };
}
