import Fastify, { type FastifyInstance, type FastifyRequest, type FastifyServerOptions } from 'fastify';
import swagger from '@fastify/swagger';
import scalar from '@scalar/fastify-api-reference';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { Logger } from 'pino';
import type { Container } from './container.js';
import { surfaceOfRequest, surfaceConstraint } from './api/dispatch.js';
import { v1Errors } from './api/envelopes.js';
import { registerSurface, type SurfaceUnit } from './api/surface-unit.js';
import { meta } from './api/meta.js';
import { referenceOptions } from './api/reference/document.js';
import { v1a } from './api/v1a/index.js';
import { v1b } from './api/v1b/index.js';
import { v2 } from './api/v2/index.js';
import { account } from './api/account/index.js';
import { mcp } from './api/mcp/index.js';
import { installAuth } from './http/auth.js';
import { installBearerChallenge } from './http/bearer.js';
import { installCache } from './http/cache.js';
import { FrontDoor, serverWithFrontDoor } from './http/front-door.js';
import { lazyChildLogger } from './http/logging.js';
import { installCors } from './http/cors.js';
import { installReadinessGate } from './http/readiness.js';
import { capConnectionsPerAddress, serverTimeouts } from './http/connections.js';
import { clientErrorHandler } from './http/client-errors.js';
import { installErrorPresenters } from './http/error-presenter.js';
import { frameworkErrors, installErrorHandlers, installNotFound } from './http/errors.js';
import { installIdempotency } from './http/idempotency.js';
import { installHeavyLane, type HeavyLane } from './http/heavy-lane.js';
import { installFiniteNumbers } from './http/finite-numbers.js';
import { installClosedQuery } from './http/closed-query.js';
import { FREE_PARAMS } from './api/schema-kit.js';
import { installRateLimit, installTierGate } from './http/rate-limit.js';
import { indexRoutes, RouteIndex } from './http/route-index.js';
import type { Surface } from './http/surface.js';

export type App = FastifyInstance;

declare module 'fastify' {
  interface FastifyInstance {
    /** Kept answers sent before routing (http/front-door.ts). */
    frontDoor: FrontDoor;
    /** The batch endpoints' turns (http/heavy-lane.ts). */
    heavyLane: HeavyLane;
  }
}

export interface AppOptions {
  logger?: FastifyServerOptions['logger'];
}

/** The front doors, in the order their routes are registered. */
const SURFACES: SurfaceUnit[] = [meta, v1a, v1b, v2, account, mcp];

/** Bodies of the JSON endpoints (ids, filters) are small; a route that takes more says so (ingestion). */
export const BODY_LIMIT = 256 * 1024;

/** A path longer than this in one segment is 414; a ref up to 200 characters is validated by its schema. */
const MAX_PARAM_LENGTH = 1000;

/** The surface of a request no route answers: by its path, and the shared-path rules under /v1. */
function surfaceOfUnrouted(req: FastifyRequest): Surface {
  const url = req.raw.url ?? req.url;
  if (url.startsWith('/v2')) return 'v2';
  if (url === '/mcp' || url.startsWith('/mcp/') || url.startsWith('/mcp?')) return 'mcp';
  if (url.startsWith('/v1/products') || url.startsWith('/v1/categories')) return surfaceOfRequest(req.raw) === 'B' ? 'v1b' : 'v1a';
  if (url.startsWith('/v1/auth') || url.startsWith('/v1/oauth') || url.startsWith('/v1/keys') || url.startsWith('/v1/admin') || url.startsWith('/v1/webhooks')
    || url.startsWith('/v1/alerts')) return 'account';
  return url.startsWith('/v1') ? 'v1a' : 'meta';
}

/** Builds the app from a container: plugins and route sets, no listening and no I/O of its own. */
export async function buildApp(c: Container, opts: AppOptions = {}): Promise<App> {
  const routes = new RouteIndex({ ignoreTrailingSlash: true, maxParamLength: MAX_PARAM_LENGTH });
  const front = new FrontDoor({ cache: c.cache, auth: c.auth, quota: c.quota, readiness: c.readiness, corsOrigins: c.config.corsOrigins });
  const app = Fastify({
    logger: opts.logger ?? false,
    serverFactory: (handler, options) => serverWithFrontDoor(front, handler, options),
    childLoggerFactory: lazyChildLogger,
    genReqId: () => crypto.randomUUID(),
    requestIdHeader: 'x-request-id',
    bodyLimit: BODY_LIMIT,
    ...serverTimeouts(c.config.connections),
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: MAX_PARAM_LENGTH, constraints: { surface: surfaceConstraint as never } },
    frameworkErrors,
    clientErrorHandler,
    // Coerced query values keep their declared types; nothing undeclared is dropped silently.
    ajv: { customOptions: { coerceTypes: 'array', removeAdditional: false, useDefaults: true, allErrors: false } },
  }).withTypeProvider<TypeBoxTypeProvider>();
  front.requestsLogged = (app.log as Partial<Logger>).isLevelEnabled?.('info') ?? false;
  capConnectionsPerAddress(app.server, c.config.connections.maxPerAddress);
  indexRoutes(app, routes);
  installErrorPresenters(app, v1Errors, surfaceOfUnrouted);
  app.addHook('onSend', (req, reply, payload, done) => {
    reply.header('X-Request-Id', req.id).header('X-Content-Type-Options', 'nosniff');
    done(null, payload);
  });
  installReadinessGate(app, c.readiness);
  // Before authentication: a preflight carries no key.
  await installCors(app, c.config.corsOrigins);
  await app.register(swagger, referenceOptions(c.config.version));
  installErrorHandlers(app);
  installNotFound(app, (path) => routes.allowed(path));
  // The reference page is public, like /openapi.json; its script is served from node_modules (no CDN).
  await app.register(scalar, {
    routePrefix: '/docs',
    configuration: { url: '/openapi.json', pageTitle: 'Catalog service API', withDefaultFonts: false, showDeveloperTools: 'never', agent: { disabled: true } },
  });
  installBearerChallenge(app, () => c.origin());
  installAuth(app, c.auth, c.authGuard);
  installRateLimit(app, c.quota, c.config.upgradeUrl);
  installTierGate(app);
  installFiniteNumbers(app);
  installClosedQuery(app, new RegExp(FREE_PARAMS));
  installCache(app, c.cache, front);
  app.decorate('frontDoor', front);
  app.addHook('preClose', (done) => {
    front.close();
    done();
  });
  installIdempotency(app, c.store.idempotency, () => c.clock.now());
  app.decorate('heavyLane', installHeavyLane(app));
  for (const unit of SURFACES) await registerSurface(app, unit, c);
  return app;
}
