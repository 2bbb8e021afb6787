import type { FastifyInstance } from 'fastify';

const REALM = 'catalog';

/**
 * RFC 6750 3: a 401 from a protected resource names the Bearer scheme, with error="invalid_token"
 * when a credential was sent; a 403 for a tier or scope says error="insufficient_scope". The OAuth
 * endpoints set their own (RFC 6749 client authentication) and are left alone.
 */
export function installBearerChallenge(app: FastifyInstance): void {
  app.addHook('onSend', (req, reply, payload, done) => {
    const status = reply.statusCode;
    if ((status !== 401 && status !== 403) || reply.hasHeader('WWW-Authenticate') || /^\/v1\/oauth\/(token|revoke|introspect)\b/.test(req.url)) return done(null, payload);
    if (status === 401) {
      reply.header('WWW-Authenticate', req.headers.authorization || req.headers['x-api-key']
        ? `Bearer realm="${REALM}", error="invalid_token", error_description="The access token or API key is invalid, revoked or expired"`
        : `Bearer realm="${REALM}"`);
    } else if (req.principal && typeof payload === 'string' && payload.includes('"INSUFFICIENT_SCOPE"')) {
      reply.header('WWW-Authenticate', `Bearer realm="${REALM}", error="insufficient_scope", error_description="The key's tier does not include this endpoint"`);
    }
    done(null, payload);
  });
}
