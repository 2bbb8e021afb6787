import type { FastifyPluginAsync } from 'fastify';
import type { Container } from '../../container.js';
import { fieldValidation, v1Errors } from '../envelopes.js';
import type { SurfaceUnit } from '../surface-unit.js';
import { adminRoutes } from './admin-routes.js';
import { alertRoutes } from './alert-routes.js';
import { authRoutes } from './auth-routes.js';
import { ingestRoutes } from './ingest-routes.js';
import { oauthRoutes } from './oauth-routes.js';
import { webhookRoutes } from './webhook-routes.js';

/** Accounts: registration, keys, OAuth client credentials, admin, ingestion, webhook subscriptions (spec 4.1, 4.5, 5), price and stock alerts. */
export const account: SurfaceUnit = {
  surface: 'account',
  tag: { name: 'account', description: 'Registration, keys, OAuth 2.1 client credentials, tiers, ingestion, webhooks and alerts' },
  // Account bodies are validated like V2's: each problem names its field.
  errors: { ...v1Errors, validation: fieldValidation },
  routes(c: Container): FastifyPluginAsync {
    return async (app) => {
      await app.register(authRoutes(c));
      await app.register(oauthRoutes(c));
      await app.register(adminRoutes(c));
      await app.register(ingestRoutes(c));
      await app.register(webhookRoutes(c));
      await app.register(alertRoutes(c));
    };
  },
};
