import type { RouteOptions } from 'fastify';
import { Type, type TSchema } from 'typebox';
import { IDEMPOTENCY_HEADER, IdempotencyKeyHeader } from '../http/idempotency.js';
import { refusesUnknownQuery } from '../http/closed-query.js';
import { routeTagsAnswers } from '../http/cache.js';
import { answersWhileStarting } from '../http/readiness.js';
import type { Surface } from '../http/surface.js';
import { ERROR_SCHEMAS } from './error-schemas.js';
import { withFields } from '../domain/with-fields.js';

/**
 * The error statuses a route can answer because of what it declares, in its surface's envelopes:
 * one rule for every route, so the reference lists each status the shared hooks can send and no
 * other. A route declares only what its handler alone answers (a lookup's 404, a 409, a 405).
 */
export function standardErrors(route: Pick<RouteOptions, 'url' | 'method' | 'config' | 'schema' | 'attachValidation'>, surface: Surface): Record<number, TSchema> {
  const s = ERROR_SCHEMAS[surface];
  const schema = route.schema ?? {};
  const config = route.config as { auth?: boolean; minTier?: string } | undefined;
  const out: Record<number, TSchema> = { 500: s.coded };
  // The readiness gate (while the store loads) and a dependency that is down.
  if (!answersWhileStarting(route.url)) out[503] = s.coded;
  if (config?.auth !== false) Object.assign(out, { 401: s.coded, 429: s.rateLimited });
  if (config?.minTier) out[403] = s.coded;
  // A route that takes its validation errors itself (attachValidation) answers them its own way.
  // Unknown query parameters are refused on every path but the open ones (http/closed-query.ts).
  const validated = schema.querystring || schema.params || schema.body || schema.headers || refusesUnknownQuery(route.url ?? '');
  if (validated && !route.attachValidation) out[422] = s.validation;
  // A body that is not JSON, too large, or of another media type: any method that takes one.
  const methods = [route.method].flat().map((m) => String(m).toUpperCase());
  if (schema.body || methods.some((m) => m === 'POST' || m === 'PUT' || m === 'PATCH')) Object.assign(out, { 400: s.coded, 413: s.coded, 415: s.coded });
  if (schema.params) out[404] = s.coded;
  return out;
}

/** The answer to an If-None-Match that matches (docs/sync.md): no body, the tag and Cache-Control of the 200 it stands for. */
export const NotModified = Type.Null({
  description: 'Not modified: If-None-Match matched the current ETag. No body; the same ETag and Cache-Control as the 200.',
});

/**
 * The 304 a route answers when its 200 carries an entity tag (http/cache.ts `routeTagsAnswers`):
 * declared beside the 200, so the reference lists it; none for a route without a 200.
 */
export function conditionalAnswers(route: Pick<RouteOptions, 'method' | 'config' | 'schema'>): Record<number, TSchema> {
  const declared = (route.schema?.response ?? {}) as Record<string, unknown>;
  const methods = [route.method].flat().map((m) => String(m).toUpperCase());
  const config = route.config as { etag?: boolean } | undefined;
  return declared[200] && methods.some((m) => routeTagsAnswers(m, config)) ? { 304: NotModified } : {};
}

/**
 * A route marked `idempotent` takes an `Idempotency-Key` header: declared (so it is validated, and
 * documented), with the 409 of a key still in progress; its 422 comes with the declared header.
 */
export function declareIdempotencyKey(schema: NonNullable<RouteOptions['schema']>, surface: Surface): void {
  const headers = (schema.headers ?? Type.Object({})) as ReturnType<typeof Type.Object>;
  schema.headers = Type.Object(withFields(headers.properties, { [IDEMPOTENCY_HEADER]: Type.Optional(IdempotencyKeyHeader) }));
  schema.response = { 409: ERROR_SCHEMAS[surface].coded, 422: ERROR_SCHEMAS[surface].validation, ...(schema.response as object | undefined) };
}
