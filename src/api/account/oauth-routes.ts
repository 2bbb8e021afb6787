import type { FastifyPluginAsync } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { OAUTH_SCOPES } from '../../accounts/oauth.js';
import type { Container } from '../../container.js';
import { DomainError } from '../../domain/errors.js';
import { authFailed, credentialOf, refuseGuessing } from '../../http/auth.js';
import { PROTECTED_RESOURCE_PATH } from '../../http/bearer.js';
import { sendRateLimited } from '../../http/rate-limit.js';
import { baseUrl } from './base-url.js';
import { clientCredentials, oauthError, parseForm } from './oauth-http.js';
import { CodedError, OAuthError, RateLimited } from '../error-schemas.js';
import {
  AuthServerMetadata, ClientRegistration, Introspection, ProtectedResource, RegisteredClient, TokenOnlyRequest, TokenRequest, TokenResponse,
} from './schemas.js';
import { withFields } from '../../domain/with-fields.js';

const TAGS = ['oauth'];
const AUTH_METHODS = ['client_secret_basic', 'client_secret_post'];
/** The endpoints take a form (RFC 6749) or JSON. */
const CONSUMES = ['application/x-www-form-urlencoded', 'application/json'];
/** An RFC 6749 error, or the standard envelope for a body that is not a form or JSON at all. */
const BadRequest = Type.Union([OAuthError, CodedError]);
/** The endpoints that authenticate a client: its errors, and 429 after too many failures from an address. */
const CLIENT_ERRORS = { 400: BadRequest, 401: OAuthError, 429: RateLimited };
/** RFC 7009's 200 has no body (also for a token that is not the client's): nothing to serialize. */
const NO_BODY: object = { type: 'null', description: 'revoked, or not a token of this client: no body either way' };

/**
 * RFC 9728 protected-resource metadata: what a client that met a 401 (an MCP host) reads to find the
 * authorization server. Keys and access tokens are good for the whole API, so the resource is the
 * origin; the path-suffixed form names the MCP endpoint alone, for clients that look there first.
 */
function protectedResource(c: Container, path: string) {
  const origin = baseUrl(c);
  return {
    resource: `${origin}${path}`,
    authorization_servers: [origin],
    bearer_methods_supported: ['header'],
    scopes_supported: [...OAUTH_SCOPES],
    resource_name: 'Catalog service',
    resource_documentation: `${origin}/docs`,
  };
}

/** OAuth 2.1 client credentials: RFC 8414 metadata, RFC 7591 registration, token, RFC 7009 revocation, RFC 7662 introspection. */
export function oauthRoutes(c: Container): FastifyPluginAsync {
  return async (base) => {
    const app = base.withTypeProvider<TypeBoxTypeProvider>();
    app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_req, body, done) => done(null, parseForm(body as string)));
    const config = { surface: 'account' as const, auth: false };

    app.get('/.well-known/oauth-authorization-server', { config, schema: { tags: TAGS, summary: 'OAuth metadata (RFC 8414)', security: [], response: { 200: AuthServerMetadata } } }, async () => {
      const issuer = baseUrl(c);
      return {
        issuer,
        // No response type is offered (response_types_supported is empty), but MCP clients read the
        // metadata only when it names an authorization endpoint: this one says what to use instead.
        authorization_endpoint: `${issuer}/v1/oauth/authorize`,
        token_endpoint: `${issuer}/v1/oauth/token`,
        registration_endpoint: `${issuer}/v1/oauth/register`,
        revocation_endpoint: `${issuer}/v1/oauth/revoke`,
        introspection_endpoint: `${issuer}/v1/oauth/introspect`,
        grant_types_supported: ['client_credentials'],
        response_types_supported: [],
        token_endpoint_auth_methods_supported: AUTH_METHODS,
        revocation_endpoint_auth_methods_supported: AUTH_METHODS,
        introspection_endpoint_auth_methods_supported: AUTH_METHODS,
        scopes_supported: [...OAUTH_SCOPES],
        service_documentation: `${issuer}/docs`,
      };
    });

    app.get('/v1/oauth/authorize', { config, schema: { tags: TAGS, summary: 'Authorization endpoint: no response type offered yet (400 unsupported_response_type)', security: [], response: { 400: OAuthError } } }, async (_req, reply) =>
      oauthError(reply, 'unsupported_response_type', 'The authorization code flow is not offered yet: use an API key, or the client_credentials grant at /v1/oauth/token.'));

    const resourceSchema = { tags: TAGS, summary: 'OAuth protected-resource metadata (RFC 9728): the authorization server and scopes', security: [], response: { 200: ProtectedResource } };
    app.get(PROTECTED_RESOURCE_PATH, { config, schema: resourceSchema }, async () => protectedResource(c, ''));
    app.get(`${PROTECTED_RESOURCE_PATH}/mcp`, { config, schema: resourceSchema }, async () => protectedResource(c, '/mcp'));

    app.post('/v1/oauth/register', {
      config: withFields(config, { idempotent: true }), attachValidation: true,
      schema: {
        tags: TAGS, summary: 'Dynamic client registration (RFC 7591); 5 per hour per IP', security: [], body: ClientRegistration,
        description: 'Send your API key with it (Authorization: Bearer) and the client inherits its tier; a bad key is 401.',
        response: { 201: RegisteredClient, 400: BadRequest, 401: CodedError, 429: RateLimited },
      },
    }, async (req, reply) => {
      if (req.validationError) return oauthError(reply, 'invalid_client_metadata', req.validationError.message);
      const b = req.body;
      const method = b.token_endpoint_auth_method ?? (b.client_type === 'public' ? 'none' : 'client_secret_basic');
      if (![...AUTH_METHODS, 'none'].includes(method)) return oauthError(reply, 'invalid_client_metadata', `token_endpoint_auth_method must be one of ${AUTH_METHODS.join(', ')}, none`);
      const type = method === 'none' ? 'public' : 'confidential';
      if (b.client_type && b.client_type !== type) return oauthError(reply, 'invalid_client_metadata', 'client_type contradicts token_endpoint_auth_method');
      if (b.grant_types?.some((g) => g !== 'client_credentials')) return oauthError(reply, 'invalid_client_metadata', 'only the client_credentials grant is available');
      const owner = await ownerOf(c, credentialOf(req));
      const r = await c.oauth.registerClient(req.ip, { name: b.client_name, type, scope: b.scope }, owner);
      if (!r.ok && r.reason === 'invalid_scope') return oauthError(reply, 'invalid_client_metadata', `scope must be within: ${OAUTH_SCOPES.join(' ')}`);
      if (!r.ok) return sendRateLimited(reply, r.throttle, `At most 5 client registrations per hour per IP address; retry after ${r.throttle.retryAfter} s.`);
      return reply.status(201).header('Cache-Control', 'no-store').header('Pragma', 'no-cache').send({
        client_id: r.client.clientId, ...(r.clientSecret ? { client_secret: r.clientSecret } : {}),
        client_id_issued_at: Math.floor(Date.parse(r.client.createdAt) / 1000), client_secret_expires_at: 0,
        client_name: r.client.name, client_type: type, token_endpoint_auth_method: method,
        grant_types: type === 'confidential' ? ['client_credentials'] : [], scope: r.client.scope,
      });
    });

    app.post('/v1/oauth/token', {
      config, attachValidation: true,
      schema: {
        tags: TAGS, summary: 'Token endpoint: client_credentials (form or JSON body; Basic or body client auth)', security: [], body: TokenRequest,
        consumes: CONSUMES, response: { 200: TokenResponse, ...CLIENT_ERRORS },
      },
    }, async (req, reply) => {
      const b = req.validationError ? undefined : req.body;
      if (!b?.grant_type) return oauthError(reply, 'invalid_request', 'grant_type is required');
      if (b.grant_type !== 'client_credentials') return oauthError(reply, 'unsupported_grant_type', 'only client_credentials is supported');
      const creds = clientCredentials(req, b);
      if (!creds.ok) return oauthError(reply, creds.error, creds.description);
      if (await refuseGuessing(req, reply, c.authGuard)) return reply;
      const auth = await c.oauth.authenticateClient(creds.clientId, creds.clientSecret);
      if (!auth.ok && auth.reason === 'invalid_client') await authFailed(req, c.authGuard, 'client_secret');
      if (!auth.ok) return oauthError(reply, auth.reason, auth.reason === 'invalid_client' ? 'client authentication failed' : 'public clients cannot use client_credentials');
      const t = await c.oauth.issueToken(auth.client, b.scope);
      if (!t.ok) return oauthError(reply, t.reason, t.reason === 'invalid_scope' ? `scope must be within: ${auth.client.scope}` : 'the client owner key is revoked');
      reply.header('Cache-Control', 'no-store').header('Pragma', 'no-cache');
      return { access_token: t.accessToken, token_type: 'Bearer' as const, expires_in: t.expiresIn, scope: t.scope };
    });

    app.post('/v1/oauth/revoke', {
      config, attachValidation: true, schema: {
        tags: TAGS, summary: 'Token revocation (RFC 7009)', security: [], body: TokenOnlyRequest, consumes: CONSUMES,
        response: { 200: NO_BODY, ...CLIENT_ERRORS },
      },
    }, async (req, reply) => {
      const b = req.validationError ? undefined : req.body;
      if (await refuseGuessing(req, reply, c.authGuard)) return reply;
      const client = await authenticated(c, req, b);
      if (!client.ok) return oauthError(reply, client.error, client.description);
      if (!b?.token) return oauthError(reply, 'invalid_request', 'token is required');
      await c.oauth.revoke(client.client, b.token);
      return reply.status(200).header('Cache-Control', 'no-store').send();
    });

    app.post('/v1/oauth/introspect', {
      config, attachValidation: true, schema: {
        tags: TAGS, summary: 'Token introspection (RFC 7662), own tokens only', security: [], body: TokenOnlyRequest, consumes: CONSUMES,
        response: { 200: Introspection, ...CLIENT_ERRORS },
      },
    }, async (req, reply) => {
      const b = req.validationError ? undefined : req.body;
      if (await refuseGuessing(req, reply, c.authGuard)) return reply;
      const client = await authenticated(c, req, b);
      if (!client.ok) return oauthError(reply, client.error, client.description);
      if (!b?.token) return oauthError(reply, 'invalid_request', 'token is required');
      reply.header('Cache-Control', 'no-store');
      return c.oauth.introspect(client.client, b.token);
    });
  };
}

async function authenticated(c: Container, req: Parameters<typeof clientCredentials>[0], body: { client_id?: string; client_secret?: string } | undefined) {
  const creds = clientCredentials(req, body);
  if (!creds.ok) return creds;
  const auth = await c.oauth.authenticateClient(creds.clientId, creds.clientSecret);
  if (!auth.ok) await authFailed(req, c.authGuard, 'client_secret');
  return auth.ok ? { ok: true as const, client: auth.client } : { ok: false as const, error: 'invalid_client' as const, description: 'client authentication failed' };
}

/** A key (or token) sent with a registration makes the client inherit its tier; a bad one is refused, not ignored. */
async function ownerOf(c: Container, credential: string | null) {
  if (!credential) return null;
  const r = await c.auth.authenticate(credential);
  const key = r.ok ? await c.keys.activeById(r.principal.keyId) : null;
  if (!key) throw new DomainError('UNAUTHORIZED', 'The API key or access token sent with the registration is invalid, revoked or expired.');
  return key;
}
