import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Authenticator, Principal } from '../accounts/authenticator.js';
import { DomainError } from '../domain/errors.js';

declare module 'fastify' {
  interface FastifyRequest {
    principal: Principal | null;
    /** The raw credential, kept only for the request's lifetime (rotation needs it). */
    credential: string | null;
  }
}

export const REGISTRATION_HELP = {
  register: 'POST /v1/auth/register?verify=false with body {"agent_name": "<your agent>"} returns an api_key at once',
  send_key_as: 'Authorization: Bearer <API_KEY>',
  also_accepted: ['Authorization: ApiKey <API_KEY>', 'X-API-Key: <API_KEY>', 'api_key query parameter (discouraged: keys reach logs)'],
  oauth: 'GET /.well-known/oauth-authorization-server for OAuth 2.1 client credentials',
};

/** The four accepted forms of spec 5.2, in order of preference. */
export function credentialOf(req: FastifyRequest): string | null {
  const auth = req.headers.authorization;
  if (auth) {
    const m = /^(Bearer|ApiKey)\s+(\S+)\s*$/i.exec(auth);
    return m ? m[2] : auth.trim() || null;
  }
  const header = req.headers['x-api-key'];
  if (typeof header === 'string' && header.trim()) return header.trim();
  const q = (req.query as Record<string, unknown> | undefined)?.api_key;
  return typeof q === 'string' && q.trim() ? q.trim() : null;
}

const MISSING = () => new DomainError('MISSING_API_KEY', 'An API key is required: pass it as a bearer token (Authorization: Bearer <API_KEY>).', REGISTRATION_HELP);
const INVALID = () => new DomainError('UNAUTHORIZED', 'The API key or access token is invalid, revoked or expired.', { register: REGISTRATION_HELP.register });

export function installAuth(app: FastifyInstance, auth: Authenticator): void {
  app.decorateRequest('principal', null);
  app.decorateRequest('credential', null);
  // On request, before the body is read and the input validated: without a valid key the answer
  // is 401 whatever the input, and nothing is parsed for it. Callback style: a key the cache
  // holds (nearly every request) is accepted with nothing awaited.
  app.addHook('onRequest', (req, _reply, done) => {
    const options = req.routeOptions;
    const route = options.url;
    if (options.config?.auth === false || !route || route === '/docs' || route.startsWith('/docs/')) return done();
    const credential = credentialOf(req);
    if (!credential) return done(MISSING());
    const principal = auth.cached(credential);
    if (principal) {
      req.principal = principal;
      req.credential = credential;
      return done();
    }
    auth.authenticate(credential).then((result) => {
      if (!result.ok) return done(INVALID());
      req.principal = result.principal;
      req.credential = credential;
      done();
    }, done);
  });
}
