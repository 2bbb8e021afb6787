import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { DomainError, type ErrorCode } from '../domain/errors.js';
import { bearerChallenge } from './bearer.js';
import { closestName } from './closest-name.js';
import { presenterFor } from './error-presenter.js';
import { ERROR_STATUS } from './error-status.js';
import { RequestValidationError, type FieldProblem } from './request-error.js';
import { WireError } from './wire-error.js';

export const DOC_URL = '/docs';

const PART: Record<string, string> = { querystring: 'query', params: 'path', headers: 'header', body: 'body' };

const TYPES: Record<string, string> = {
  maxLength: 'string_too_long', minLength: 'string_too_short', maximum: 'less_than_equal', minimum: 'greater_than_equal',
  exclusiveMaximum: 'less_than', exclusiveMinimum: 'greater_than', maxItems: 'too_long', minItems: 'too_short',
  type: 'type_error', const: 'enum',
  additionalProperties: 'extra_forbidden', required: 'missing',
};

type Schemaish = { properties?: Record<string, Schemaish>; items?: Schemaish };

/** The names an object at `path` of a request part's schema declares. */
function knownNames(schema: Schemaish | undefined, path: Array<string | number>): string[] {
  let s = schema;
  for (const p of path) s = typeof p === 'number' ? s?.items : s?.properties?.[p];
  return Object.keys(s?.properties ?? {});
}

/** Ajv errors -> `{loc, msg, type}` with the part of the request and the field named. */
export function problemsOf(err: FastifyError, req?: FastifyRequest): FieldProblem[] {
  const context = err.validationContext ?? '';
  const part = PART[context] ?? context ?? 'body';
  return (err.validation ?? []).map((v) => {
    const path = v.instancePath.split('/').filter(Boolean).map((p) => (/^\d+$/.test(p) ? Number(p) : p));
    const params = v.params as { missingProperty?: string; additionalProperty?: string; allowedValues?: unknown[] };
    const missing = params.missingProperty;
    const extra = params.additionalProperty;
    const loc = [part, ...path, ...(missing ? [missing] : []), ...(extra ? [extra] : [])];
    const field = loc.slice(1).join('.') || part;
    let msg: string;
    if (missing) msg = `${field} is required`;
    else if (extra) {
      const schema = (req?.routeOptions.schema as Record<string, Schemaish> | undefined)?.[context];
      const closest = closestName(extra, knownNames(schema, path));
      msg = `${field} is not a known ${part === 'query' ? 'parameter' : 'field'}${closest ? `; the closest known one is ${closest}` : ''}`;
    }
    else if (params.allowedValues) msg = `${field} must be one of: ${params.allowedValues.join(', ')}`;
    else msg = `${field} ${v.message ?? 'is invalid'}`;
    return { loc, msg, type: TYPES[v.keyword] ?? v.keyword };
  });
}

/** Fastify's and the router's own errors, as codes of ours: each answered in the surface's envelope. */
function frameworkError(err: FastifyError): { code: ErrorCode; message: string } | null {
  switch (err.code) {
    case 'FST_ERR_CTP_INVALID_JSON_BODY': return { code: 'BAD_REQUEST', message: 'the body is not valid JSON' };
    case 'FST_ERR_CTP_EMPTY_JSON_BODY': return { code: 'BAD_REQUEST', message: 'the body is empty; send a JSON document' };
    case 'FST_ERR_CTP_BODY_TOO_LARGE': return { code: 'PAYLOAD_TOO_LARGE', message: 'the body is larger than this endpoint takes' };
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
      return err.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE'
        ? { code: 'UNSUPPORTED_MEDIA_TYPE', message: 'unsupported content type; send application/json' }
        : { code: 'BAD_REQUEST', message: 'the Content-Length does not match the body' };
    case 'FST_ERR_BAD_URL': return { code: 'BAD_REQUEST', message: 'the URL is malformed' };
    case 'FST_ERR_CTP_INVALID_TYPE': return { code: 'BAD_REQUEST', message: 'the Content-Type header is malformed' };
  }
  const status = err.statusCode ?? 500;
  if (status === 413) return { code: 'PAYLOAD_TOO_LARGE', message: 'the body is larger than this endpoint takes' };
  if (status === 415) return { code: 'UNSUPPORTED_MEDIA_TYPE', message: 'unsupported content type; send application/json' };
  if (status === 414) return { code: 'URI_TOO_LONG', message: 'the URL is too long' };
  if (status >= 400 && status < 500) return { code: status === 404 ? 'NOT_FOUND' : 'BAD_REQUEST', message: 'bad request' };
  return null;
}

export function sendError(req: FastifyRequest, reply: FastifyReply, code: ErrorCode, message: string, details?: Record<string, unknown>) {
  const challenge = bearerChallenge(code, req);
  if (challenge) reply.header('WWW-Authenticate', challenge);
  return reply.status(ERROR_STATUS[code]).send(presenterFor(req).error(code, message, details));
}

/** Where a fault happened, without the stack: the first frame's file and line. */
function whereOf(err: Error): string | undefined {
  const frame = err.stack?.split('\n').find((l) => l.trimStart().startsWith('at '));
  return frame?.trim().replace(/^at /, '').slice(0, 200);
}

export function installErrorHandlers(app: FastifyInstance): void {
  app.setErrorHandler((err: FastifyError, req, reply) => {
    if (err instanceof WireError) return reply.status(err.status).send(err.body);
    if (err instanceof DomainError) return sendError(req, reply, err.code, err.message, err.details);
    if (err instanceof RequestValidationError) return reply.status(422).send(presenterFor(req).validation(err.problems));
    if (err.validation) return reply.status(422).send(presenterFor(req).validation(problemsOf(err, req)));
    const known = frameworkError(err);
    if (known) return sendError(req, reply, known.code, known.message);
    if (isUnavailable(err)) {
      req.log.warn({ err: { code: err.code, message: err.message } }, 'dependency unavailable');
      reply.header('Retry-After', '5');
      return sendError(req, reply, 'SERVICE_UNAVAILABLE', 'the service is temporarily unavailable; retry shortly');
    }
    req.log.error({ err: { type: err.name, code: err.code, message: err.message, at: whereOf(err) } }, 'unhandled error');
    return sendError(req, reply, 'INTERNAL_ERROR', 'internal server error');
  });
}

// Network errors, PostgreSQL SQLSTATEs (57014: statement timeout or cancel; 53300: too many
// connections; 57P0x: server shutting down; 08xxx: connection failures) and SQLite's busy.
const UNAVAILABLE_CODES = new Set([
  'ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'EHOSTUNREACH', 'ENOTFOUND', 'EAI_AGAIN',
  '57014', '53300', '57P01', '57P02', '57P03', '08000', '08001', '08003', '08004', '08006', 'SQLITE_BUSY',
]);
// pg (pool and client) and ioredis (no offline queue, command timeout) report these without a code.
const UNAVAILABLE_MESSAGES = /Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error|Cannot use a pool after calling end|Stream isn't writeable|Command timed out|Connection is closed/i;
export function isUnavailable(err: { code?: string; message?: string }): boolean {
  return (!!err.code && UNAVAILABLE_CODES.has(err.code)) || UNAVAILABLE_MESSAGES.test(err.message ?? '');
}

/** 404 for a path no route has; 405 with `Allow` for a known path asked with another method. */
export function installNotFound(app: FastifyInstance, allowed: (path: string) => string[]): void {
  app.setNotFoundHandler((req, reply) => {
    const path = req.url.split('?')[0];
    const methods = allowed(path);
    if (methods.length) {
      reply.header('Allow', methods.join(', '));
      return sendError(req, reply, 'METHOD_NOT_ALLOWED', `${req.method} is not allowed on ${path}; use ${methods.join(', ')}`, { allowed: methods });
    }
    return sendError(req, reply, 'NOT_FOUND', `no route for ${req.method} ${path}`);
  });
}

/** Router errors (a malformed or over-long URL) in the surface's envelope. */
export function frameworkErrors(err: FastifyError, req: FastifyRequest, reply: FastifyReply) {
  if (err.code === 'FST_ERR_MAX_PARAM_LENGTH') return sendError(req, reply, 'URI_TOO_LONG', 'a path segment is too long');
  return sendError(req, reply, 'BAD_REQUEST', 'the URL is malformed');
}
