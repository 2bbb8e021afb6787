import type { IncomingHttpHeaders } from 'node:http';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Authenticator, Principal } from '../accounts/authenticator.js';
import type { AuthGuard, CredentialKind } from '../accounts/auth-guard.js';
import type { WindowState } from '../accounts/quota.js';
import { DomainError } from '../domain/errors.js';
import { sendRateLimited } from './rate-limit.js';

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

/**
 * The credential of the three header forms of spec 5.2, in order of preference; undefined when
 * the request sends none in a header (an Authorization header that names none is null).
 */
export function headerCredential(headers: IncomingHttpHeaders): string | null | undefined {
  const auth = headers.authorization;
  if (auth) {
    const m = /^(Bearer|ApiKey)\s+(\S+)\s*$/i.exec(auth);
    return m ? m[2] : auth.trim() || null;
  }
  const header = headers['x-api-key'];
  if (typeof header === 'string' && header.trim()) return header.trim();
  return undefined;
}

/** The four accepted forms of spec 5.2, in order of preference. */
export function credentialOf(req: FastifyRequest): string | null {
  const given = headerCredential(req.headers);
  if (given !== undefined) return given;
  const q = (req.query as Record<string, unknown> | undefined)?.api_key;
  return typeof q === 'string' && q.trim() ? q.trim() : null;
}

const MISSING = () => new DomainError('MISSING_API_KEY', 'An API key is required: pass it as a bearer token (Authorization: Bearer <API_KEY>).', REGISTRATION_HELP);
const INVALID = () => new DomainError('UNAUTHORIZED', 'The API key or access token is invalid, revoked or expired.', { register: REGISTRATION_HELP.register });

const refusedMessage = (w: WindowState) =>
  `Too many failed authentications from this address; retry after ${w.retryAfter} s.`;

/** Counts a failed check against the address and logs it (never the credential). */
export async function authFailed(req: FastifyRequest, guard: AuthGuard, kind: CredentialKind): Promise<void> {
  let failures: number | null = null;
  try {
    failures = await guard.failed(req.ip);
  } catch (err) {
    // Like the tier limits: a limiter fault (Redis down) must not turn a 401 into a 5xx.
    req.log.warn({ err: { message: (err as Error).message } }, 'rate limiter unavailable; failed authentication not counted');
  }
  req.log.warn({ ip: req.ip, credential: kind, failures }, 'authentication failed');
}

/** Answers 429 when the address has failed too often; true when it did. */
export async function refuseGuessing(req: FastifyRequest, reply: FastifyReply, guard: AuthGuard): Promise<boolean> {
  let refused: WindowState | null;
  try {
    refused = await guard.refused(req.ip);
  } catch (err) {
    req.log.warn({ err: { message: (err as Error).message } }, 'rate limiter unavailable; authentication admitted unlimited');
    return false;
  }
  if (!refused) return false;
  await sendRateLimited(reply, refused, refusedMessage(refused));
  return true;
}

export function installAuth(app: FastifyInstance, auth: Authenticator, guard: AuthGuard): void {
  app.decorateRequest('principal', null);
  app.decorateRequest('credential', null);
  // On request, before the body is read and the input validated: without a valid key the answer
  // is 401 whatever the input, and nothing is parsed for it. Callback style: a key the cache
  // holds (nearly every request) is accepted with nothing awaited.
  app.addHook('onRequest', (req, reply, done) => {
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
    void (async () => {
      if (await refuseGuessing(req, reply, guard)) return;
      const result = await auth.authenticate(credential);
      if (!result.ok) {
        await authFailed(req, guard, auth.kindOf(credential));
        return done(INVALID());
      }
      req.principal = result.principal;
      req.credential = credential;
      done();
    })().catch(done);
  });
}
