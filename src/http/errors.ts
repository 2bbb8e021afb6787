import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { DomainError, ERROR_STATUS, type ErrorCode, type FieldProblem } from '../domain/errors.js';
import type { Surface } from './surface.js';
import { WireError } from './wire-error.js';

export const DOC_URL = '/docs';

function surfaceOf(req: FastifyRequest): Surface {
  return req.routeOptions.config?.surface ?? (req.url.startsWith('/v2') ? 'v2' : 'v1a');
}

/** Ajv errors -> `{loc, msg, type}` with the part of the request and the field named. */
export function problemsOf(err: FastifyError): FieldProblem[] {
  const part = ({ querystring: 'query', params: 'path', headers: 'header' } as Record<string, string>)[err.validationContext ?? ''] ?? err.validationContext ?? 'body';
  return (err.validation ?? []).map((v) => {
    const path = v.instancePath.split('/').filter(Boolean).map((p) => (/^\d+$/.test(p) ? Number(p) : p));
    const missing = (v.params as { missingProperty?: string }).missingProperty;
    const extra = (v.params as { additionalProperty?: string }).additionalProperty;
    const loc = [part, ...path, ...(missing ? [missing] : []), ...(extra ? [extra] : [])];
    const type = missing ? 'missing' : v.keyword === 'maxLength' ? 'string_too_long' : v.keyword === 'minLength' ? 'string_too_short'
      : v.keyword === 'maximum' ? 'less_than_equal' : v.keyword === 'minimum' ? 'greater_than_equal'
        : v.keyword === 'maxItems' ? 'too_long' : v.keyword === 'minItems' ? 'too_short' : v.keyword === 'type' ? 'type_error' : v.keyword;
    const field = loc.slice(1).join('.') || part;
    const msg = missing ? `${field} is required` : extra ? `${field} is not a known field` : `${field} ${v.message ?? 'is invalid'}`;
    return { loc, msg, type };
  });
}

/** The body of an error in the envelope of the surface that was asked. */
export function envelope(surface: Surface, code: ErrorCode, message: string, details?: Record<string, unknown>, problems?: FieldProblem[]) {
  if (code === 'VALIDATION_ERROR' && problems?.length) {
    if (surface === 'v1a' || surface === 'v1b') return { detail: problems };
    return {
      error: {
        code, message,
        details: { errors: problems.map((p) => ({ field: p.loc.slice(1).join('.') || String(p.loc[0]), message: p.msg, type: p.type })) },
        doc_url: DOC_URL,
      },
    };
  }
  return { error: { code, message, ...(details ? { details } : {}), doc_url: DOC_URL } };
}

export function sendDomainError(req: FastifyRequest, reply: FastifyReply, err: DomainError) {
  return reply.status(err.status).send(envelope(surfaceOf(req), err.code, err.message, err.details, err.problems));
}

export function installErrorHandlers(app: FastifyInstance): void {
  app.setErrorHandler((err: FastifyError, req, reply) => {
    if (err instanceof WireError) return reply.status(err.status).send(err.body);
    if (err instanceof DomainError) return sendDomainError(req, reply, err);
    if (err.validation) {
      const problems = problemsOf(err);
      return reply.status(422).send(envelope(surfaceOf(req), 'VALIDATION_ERROR', problems[0]?.msg ?? 'invalid request', undefined, problems));
    }
    const status = err.statusCode ?? 500;
    if (status === 413) return reply.status(413).send(envelope(surfaceOf(req), 'PAYLOAD_TOO_LARGE', 'request body too large'));
    if (status === 415 || err.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE') return reply.status(415).send(envelope(surfaceOf(req), 'BAD_REQUEST', 'unsupported content type; send application/json'));
    if (status >= 400 && status < 500) {
      const code: ErrorCode = status === 404 ? 'NOT_FOUND' : 'BAD_REQUEST';
      // Fastify's own 4xx messages (bad JSON, empty body) are safe to pass on; nothing else is.
      return reply.status(status).send(envelope(surfaceOf(req), code, err.code?.startsWith('FST_') ? err.message : 'bad request'));
    }
    if (isUnavailable(err)) {
      req.log.warn({ err: { code: err.code, message: err.message } }, 'dependency unavailable');
      return reply.status(503).header('Retry-After', '5').send(envelope(surfaceOf(req), 'SERVICE_UNAVAILABLE', 'the service is temporarily unavailable; retry shortly'));
    }
    req.log.error({ err }, 'unhandled error');
    return reply.status(500).send(envelope(surfaceOf(req), 'INTERNAL_ERROR', 'internal server error'));
  });
  app.setNotFoundHandler((req, reply) => {
    reply.status(404).send(envelope(surfaceOf(req), 'NOT_FOUND', `no route for ${req.method} ${req.url.split('?')[0]}`));
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

export { ERROR_STATUS };
