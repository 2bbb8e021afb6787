import { Type, type TSchema } from 'typebox';
import { ERROR_CODES } from '../domain/errors.js';
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

/** The statuses every authenticated route can answer besides its own, in one surface's envelopes (413 and 415 where it takes a body). */
export function errorResponses(coded: TSchema, validation: TSchema, opts: { body?: boolean } = {}): Record<number, TSchema> {
  const out: Record<number, TSchema> = { 400: coded, 401: coded, 403: coded, 404: coded, 422: validation, 429: RateLimited, 500: coded, 503: coded };
  if (opts.body) Object.assign(out, { 413: coded, 415: coded });
  return out;
}
