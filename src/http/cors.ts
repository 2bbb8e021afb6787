import cors from '@fastify/cors';
import type { FastifyInstance } from 'fastify';

/** Request headers a browser client may send: credentials, the surface selector, an agent's session context, MCP, tracing. */
export const CORS_ALLOWED_HEADERS = [
  'Authorization', 'X-API-Key', 'Content-Type', 'Catalog-Surface', 'X-Session-Context', 'X-Request-Id', 'Accept', 'Mcp-Protocol-Version',
];

/** Response headers a browser client may read: limits, retry hints, paging, caching. */
export const CORS_EXPOSED_HEADERS = [
  'X-Request-Id', 'X-Cache', 'Retry-After', 'X-RateLimit-Limit', 'X-RateLimit-Remaining', 'X-RateLimit-Reset',
  'X-DailyQuota-Limit', 'X-DailyQuota-Remaining', 'X-DailyQuota-Reset', 'RateLimit', 'RateLimit-Policy', 'Link',
  'Content-Disposition', 'WWW-Authenticate',
];

/**
 * The CORS policy (docs/api.md): browser apps call the API with a key in a header, never a cookie,
 * so any origin may read answers unless CORS_ORIGINS lists the allowed ones; credentials mode is
 * off. Preflights are answered before authentication and cached by the browser for ten minutes.
 */
export async function installCors(app: FastifyInstance, origins: readonly string[] | null): Promise<void> {
  await app.register(cors, {
    origin: origins === null ? '*' : [...origins],
    methods: ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'],
    allowedHeaders: CORS_ALLOWED_HEADERS,
    // Joined once here: the plugin joins an array again on every response.
    exposedHeaders: CORS_EXPOSED_HEADERS.join(', '),
    credentials: false,
    maxAge: 600,
    strictPreflight: true,
  });
}
