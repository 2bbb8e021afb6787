import { Type, type TSchema } from 'typebox';
import { ERROR_CODES } from '../domain/errors.js';
import type { Surface } from '../http/surface.js';
import { Nullable, OneOf } from './schema-kit.js';

/** Response schemas of the shared error bodies (api/envelopes.ts builds them). */

export const CodedError = Type.Object({
  error: Type.Object({
    code: OneOf(ERROR_CODES),
    message: Type.String(),
    details: Type.Optional(Type.Object({}, { additionalProperties: true })),
    doc_url: Type.String(),
  }),
}, { description: 'The standard error envelope: `{error: {code, message, details?, doc_url}}`' });

export const DetailValidation = Type.Object({
  detail: Type.Array(Type.Object({
    loc: Type.Array(Type.Union([Type.String(), Type.Integer()])),
    msg: Type.String(),
    type: Type.String(),
  })),
}, { description: 'v1 validation failure: each problem with its location (query, path or body, then the field)' });

export const FieldValidation = Type.Object({
  error: Type.Object({
    code: Type.Literal('VALIDATION_ERROR'),
    message: Type.String(),
    details: Type.Object({ errors: Type.Array(Type.Object({ field: Type.String(), message: Type.String(), type: Type.String() })) }),
    doc_url: Type.String(),
  }),
}, { description: 'V2 validation failure: each problem with its field path' });

const MinuteLimited = Type.Object({
  error: Type.Object({ code: Type.Literal('RATE_LIMIT_EXCEEDED'), message: Type.String(), doc_url: Type.String() }),
  rate_limit: Type.Object({
    retry_after: Type.Integer(), limit: Nullable(Type.Integer()), remaining: Nullable(Type.Integer()), reset_at: Type.String({ format: 'date-time' }),
  }),
});
const DailyLimited = Type.Object({
  error: Type.Literal('daily_limit_exceeded'), message: Type.String(), upgrade_url: Type.String(), reset_at: Type.String({ format: 'date-time' }),
});
export const RateLimited = Type.Union([MinuteLimited, DailyLimited], {
  description: 'Per-minute limit (RATE_LIMIT_EXCEEDED with a rate_limit block) or daily quota (daily_limit_exceeded); Retry-After says when to retry',
});

/** RFC 6749 5.2: what the OAuth endpoints answer a bad token request or client authentication with. */
export const OAuthError = Type.Object({
  error: OneOf(['invalid_request', 'invalid_client', 'unauthorized_client', 'unsupported_grant_type', 'unsupported_response_type', 'invalid_scope', 'invalid_client_metadata']),
  error_description: Type.String(),
}, { description: 'OAuth error (RFC 6749 5.2)' });

/** A refusal on /mcp: a JSON-RPC error, our code and details in `data` (api/mcp). */
export const RpcError = Type.Object({
  jsonrpc: Type.Literal('2.0'),
  id: Type.Union([Type.String(), Type.Number(), Type.Null()]),
  error: Type.Object({
    code: Type.Integer({ description: '-32000 for a refusal of ours (code in data.code); JSON-RPC codes for protocol errors' }),
    message: Type.String(),
    data: Type.Optional(Type.Object({}, { additionalProperties: true, description: 'code (ours) and its details' })),
  }),
}, { description: 'JSON-RPC 2.0 error' });

/** The bodies one surface answers errors with: what its ErrorPresenter builds. */
export interface ErrorSchemas {
  coded: TSchema;
  validation: TSchema;
  rateLimited: TSchema;
}

const V1: ErrorSchemas = { coded: CodedError, validation: DetailValidation, rateLimited: RateLimited };
const FIELDS: ErrorSchemas = { coded: CodedError, validation: FieldValidation, rateLimited: RateLimited };

export const ERROR_SCHEMAS: Readonly<Record<Surface, ErrorSchemas>> = {
  meta: V1, v1a: V1, v1b: V1, v2: FIELDS, account: FIELDS, mcp: { coded: RpcError, validation: RpcError, rateLimited: RpcError },
};
