import type { SwaggerOptions } from '@fastify/swagger';
import { OAUTH_SCOPES } from '../../accounts/oauth.js';
import { readGuide } from './guide.js';
import { documentedUrl, mergeSharedPaths } from './shared-paths.js';
import { WEBHOOK_EVENTS } from './webhook-events.js';

/**
 * The options of @fastify/swagger that make `/openapi.json`: OpenAPI 3.1 of every surface from the
 * route schemas, the guide (docs/guide/*.md) as its introduction, tags grouped for the reader, the
 * shared /v1 paths merged, the rate-limit headers on every answer that carries them, and the
 * signed requests the service sends to webhook subscribers.
 */

export const TAGS = [
  { name: 'surface A', description: 'v1 with integer product ids and flat records; decimal prices as strings (spec 4.2)' },
  { name: 'surface B', description: 'v1 with product UUIDs; prices as {amount, currency} numbers; results/data envelopes (spec 4.3)' },
  { name: 'v2', description: 'V2 for agents: products, search, the agent endpoints and the event streams; errors {error: {code, message, details?}}' },
  { name: 'account', description: 'Registration, email verification, the calling key, key rotation, NDJSON ingestion' },
  { name: 'oauth', description: 'OAuth 2.1 client credentials: metadata, client registration, token, revocation, introspection' },
  { name: 'webhooks', description: 'Webhook subscriptions and their delivery log (pro and enterprise); deliveries are Standard Webhooks signed' },
  { name: 'alerts', description: 'Price and stock alerts of the calling key; firings arrive as alert_fired events (docs/alerts.md)' },
  { name: 'admin', description: 'Tier changes (X-Admin-Secret)' },
  { name: 'mcp', description: 'Model Context Protocol server for agents (docs/mcp.md)' },
  { name: 'meta', description: 'API root, health check, this reference and the agents\' index' },
];

/** How a reader meets the tags (Scalar's sidebar): the catalog first, then access, then the rest. */
export const TAG_GROUPS = [
  { name: 'Catalog', tags: ['surface A', 'surface B', 'v2'] },
  { name: 'Access', tags: ['account', 'oauth', 'admin'] },
  { name: 'Real time and agents', tags: ['webhooks', 'alerts', 'mcp'] },
  { name: 'Service', tags: ['meta'] },
];

const LIMIT_HEADERS = {
  'X-RateLimit-Limit': 'requests allowed in the current minute',
  'X-RateLimit-Remaining': 'requests left in the current minute',
  'X-RateLimit-Reset': 'when the minute window resets, Unix seconds',
  'X-DailyQuota-Limit': 'requests allowed today (left out when unlimited)',
  'X-DailyQuota-Remaining': 'requests left today (left out when unlimited)',
  'X-DailyQuota-Reset': 'when the daily quota resets, Unix seconds (left out when unlimited)',
  RateLimit: 'IETF RateLimit field: remaining and seconds to reset per window',
  'RateLimit-Policy': 'IETF RateLimit-Policy field: the windows and their quotas',
};

const headerRef = (name: string) => ({ $ref: `#/components/headers/${name}` });

/** What a status means here, for an answer whose schema says nothing of its own (see the guide's error table). */
const STATUS_TEXT: Record<string, string> = {
  200: 'OK', 201: 'Created', 202: 'Accepted', 204: 'No content',
  400: 'Bad request: the body is not JSON (or not a form), or a rule of this endpoint refuses it',
  401: 'No key, or a wrong, revoked or expired key or token (WWW-Authenticate names the OAuth metadata)',
  403: 'The key\'s tier is below the one this endpoint needs (INSUFFICIENT_SCOPE, required_tier in details)',
  404: 'Nothing has that id or name', 405: 'Not with this method (Allow lists the right ones)', 406: 'Accept must take application/json and text/event-stream',
  409: 'Conflicts with the current state', 413: 'The body is too large', 415: 'Unsupported content type',
  422: 'A parameter or field is invalid: each problem names it', 429: 'A rate limit or the daily quota is used up (Retry-After)',
  500: 'Internal error (no details are given away)', 503: 'Starting, or a dependency is down: retry after Retry-After seconds',
};

type Operation = { security?: unknown[]; responses?: Record<string, { description?: string; headers?: Record<string, unknown> }> };
type Document = { paths?: Record<string, Record<string, Operation>>; info: { description?: string }; components?: Record<string, unknown> };

/**
 * Says what each status means; authenticated operations are counted: their answers carry the limit
 * headers; a 429 or 503 says when to retry; an operation that answers 304 tags its 200 and its 304.
 */
function describeResponses(doc: Document): void {
  for (const ops of Object.values(doc.paths ?? {})) {
    for (const op of Object.values(ops)) {
      const tagged = op.responses?.['304'] !== undefined;
      for (const [status, response] of Object.entries(op.responses ?? {})) {
        if (response.description === 'Default Response' && STATUS_TEXT[status]) response.description = STATUS_TEXT[status];
        if (tagged && (status === '200' || status === '304')) response.headers = { ...response.headers, ETag: headerRef('ETag') };
        if (op.security?.length !== 0 && /^2|^304$|^429$/.test(status)) {
          response.headers = { ...response.headers, ...Object.fromEntries(Object.keys(LIMIT_HEADERS).map((h) => [h, headerRef(h)])) };
        }
        if (status === '429' || status === '503') response.headers = { ...response.headers, 'Retry-After': headerRef('Retry-After') };
      }
    }
  }
}

export function referenceOptions(version: string): SwaggerOptions {
  return {
    openapi: {
      openapi: '3.1.0',
      info: { title: 'Catalog service', version, description: '' },
      tags: TAGS,
      components: {
        securitySchemes: {
          bearer: { type: 'http', scheme: 'bearer', description: 'An API key (ck_...) or an OAuth access token: `Authorization: Bearer <token>`' },
          apiKeyHeader: { type: 'apiKey', in: 'header', name: 'X-API-Key', description: 'The API key in a header of its own' },
          apiKeyQuery: { type: 'apiKey', in: 'query', name: 'api_key', description: 'For a browser EventSource, which cannot set headers; discouraged: URLs reach logs' },
          oauth2: {
            type: 'oauth2', description: 'OAuth 2.1 client credentials; register a client with POST /v1/oauth/register',
            flows: { clientCredentials: { tokenUrl: '/v1/oauth/token', scopes: Object.fromEntries(OAUTH_SCOPES.map((s) => [s, `read: ${s.split(':')[0]}`])) } },
          },
        },
      },
      security: [{ bearer: [] }, { apiKeyHeader: [] }, { apiKeyQuery: [] }, { oauth2: [] }],
    },
    transform: ({ schema, url, route }) => ({ schema, url: documentedUrl(url, route.constraints) }),
    // Built once, at the first request for the document (@fastify/swagger caches it).
    transformObject: (built) => {
      const unmerged = (built as { openapiObject: unknown }).openapiObject as Document;
      // Before the merge, so that both variants of a shared path read alike where they are alike.
      describeResponses(unmerged);
      const doc = mergeSharedPaths(unmerged);
      doc.info.description = readGuide();
      doc.components = {
        ...doc.components,
        headers: {
          ...Object.fromEntries(Object.entries(LIMIT_HEADERS).map(([name, description]) => [name, { description, schema: { type: 'string' } }])),
          'Retry-After': { description: 'seconds to wait before retrying', schema: { type: 'integer', minimum: 0 } },
          ETag: { description: 'entity tag of the answer: send it back in If-None-Match for a 304 while it is unchanged (docs/sync.md)', schema: { type: 'string' } },
        },
      };
      return { ...doc, webhooks: WEBHOOK_EVENTS, 'x-tagGroups': TAG_GROUPS } as never;
    },
  };
}
