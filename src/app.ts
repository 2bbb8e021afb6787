import Fastify, { type FastifyInstance, type FastifyServerOptions } from 'fastify';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { Container } from './container.js';
import { surfaceConstraint } from './api/dispatch.js';
import { installAuth } from './http/auth.js';
import { installBearerChallenge } from './http/bearer.js';
import { installCache } from './http/cache.js';
import { installRateLimit, installTierGate } from './http/rate-limit.js';
import { installErrorHandlers } from './http/errors.js';
import { v1aRoutes } from './api/v1a/routes.js';
import { rootRoutes } from './api/root.js';
import { accountRoutes } from './api/account/routes.js';

export type App = FastifyInstance;

export interface AppOptions {
  logger?: FastifyServerOptions['logger'];
}

/** Builds the app from a container: plugins and route sets, no listening and no I/O of its own. */
export async function buildApp(c: Container, opts: AppOptions = {}): Promise<App> {
  const app = Fastify({
    logger: opts.logger ?? false,
    genReqId: () => crypto.randomUUID(),
    requestIdHeader: 'x-request-id',
    bodyLimit: 64 * 1024 * 1024,
    routerOptions: { ignoreTrailingSlash: true, constraints: { surface: surfaceConstraint as never } },
    ajv: { customOptions: { coerceTypes: 'array', removeAdditional: true, useDefaults: true, allErrors: false } },
  }).withTypeProvider<TypeBoxTypeProvider>();
  app.addHook('onSend', (req, reply, payload, done) => {
    reply.header('X-Request-Id', req.id);
    done(null, payload);
  });
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: { title: 'Catalog service', version: c.config.version, description: 'Product catalog and price comparison for shopping agents. See README for the shared /v1 path rules.' },
      components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer' }, apiKeyHeader: { type: 'apiKey', in: 'header', name: 'X-API-Key' } } },
      security: [{ bearer: [] }],
    },
  });
  installErrorHandlers(app);
  // The reference pages are public, like /openapi.json: agents read them before they have a key.
  await app.register(swaggerUi, { routePrefix: '/docs', uiConfig: { docExpansion: 'list' } });
  installAuth(app, c.auth);
  installRateLimit(app, c.quota, c.config.upgradeUrl);
  installTierGate(app);
  installBearerChallenge(app);
  installCache(app, c.cache);
  await app.register(rootRoutes(c));
  await app.register(v1aRoutes(c));
  await app.register(accountRoutes(c));
  app.get('/openapi.json', { config: { auth: false }, schema: { hide: true } }, async () => app.swagger());
  return app;
}
