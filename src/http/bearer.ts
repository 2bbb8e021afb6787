import type { FastifyRequest } from 'fastify';
import type { ErrorCode } from '../domain/errors.js';

const REALM = 'catalog';

/**
 * RFC 6750 3: a 401 from a protected resource names the Bearer scheme, with error="invalid_token"
 * when a credential was sent; a 403 for a tier or scope says error="insufficient_scope". The OAuth
 * endpoints set their own (RFC 6749 client authentication).
 */
export function bearerChallenge(code: ErrorCode, req: FastifyRequest): string | null {
  if (code === 'MISSING_API_KEY' || code === 'UNAUTHORIZED') {
    return req.headers.authorization || req.headers['x-api-key']
      ? `Bearer realm="${REALM}", error="invalid_token", error_description="The access token or API key is invalid, revoked or expired"`
      : `Bearer realm="${REALM}"`;
  }
  if (code === 'INSUFFICIENT_SCOPE' && req.principal) {
    return `Bearer realm="${REALM}", error="insufficient_scope", error_description="The key's tier does not include this endpoint"`;
  }
  return null;
}
