import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ErrorCode } from '../domain/errors.js';

const REALM = 'catalog';

/** Where OAuth protected-resource metadata (RFC 9728) is served: the resource is the whole API. */
export const PROTECTED_RESOURCE_PATH = '/.well-known/oauth-protected-resource';

declare module 'fastify' {
  interface FastifyInstance {
    /** The absolute URL of the protected-resource metadata, named in every 401 challenge. */
    protectedResourceMetadata?: () => string;
  }
}

/** Challenges name the metadata URL on the service's origin (PUBLIC_URL; never the Host header). */
export function installBearerChallenge(app: FastifyInstance, origin: () => string): void {
  app.decorate('protectedResourceMetadata', () => `${origin()}${PROTECTED_RESOURCE_PATH}`);
}

/**
 * RFC 6750 3: a 401 from a protected resource names the Bearer scheme, with error="invalid_token"
 * when a credential was sent; a 403 for a tier or scope says error="insufficient_scope". A 401 also
 * points to the protected-resource metadata (RFC 9728 5.1), so a client (an MCP host) can discover
 * the authorization server. The OAuth endpoints set their own (RFC 6749 client authentication).
 */
export function bearerChallenge(code: ErrorCode, req: FastifyRequest): string | null {
  if (code === 'MISSING_API_KEY' || code === 'UNAUTHORIZED') {
    const meta = req.server.protectedResourceMetadata ? `, resource_metadata="${req.server.protectedResourceMetadata()}"` : '';
    return req.headers.authorization || req.headers['x-api-key']
      ? `Bearer realm="${REALM}", error="invalid_token", error_description="The access token or API key is invalid, revoked or expired"${meta}`
      : `Bearer realm="${REALM}"${meta}`;
  }
  if (code === 'INSUFFICIENT_SCOPE' && req.principal) {
    return `Bearer realm="${REALM}", error="insufficient_scope", error_description="The key's tier does not include this endpoint"`;
  }
  return null;
}
