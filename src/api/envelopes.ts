import type { WindowState } from '../accounts/quota.js';
import type { ErrorCode } from '../domain/errors.js';
import { DOC_URL } from '../http/errors.js';
import type { ErrorPresenter } from '../http/error-presenter.js';
import type { FieldProblem } from '../http/request-error.js';

/** The error bodies of spec 7.1 that several surfaces share; each surface's errors.ts picks its own. */

/** `{error: {code, message, details?, doc_url}}`: most endpoints and all of V2. */
export function codedError(code: ErrorCode, message: string, details?: Record<string, unknown>) {
  return { error: { code, message, ...(details ? { details } : {}), doc_url: DOC_URL } };
}

/** `{detail: [{loc, msg, type}]}`: validation failures on v1. */
export function detailValidation(problems: FieldProblem[]) {
  return { detail: problems };
}

/** `{error: {code: VALIDATION_ERROR, message, details: {errors: [{field, message, type}]}}}`: validation failures on V2. */
export function fieldValidation(problems: FieldProblem[]) {
  return {
    error: {
      code: 'VALIDATION_ERROR' as const,
      message: problems[0]?.msg ?? 'invalid request',
      details: { errors: problems.map((p) => ({ field: p.loc.slice(1).join('.') || String(p.loc[0]), message: p.msg, type: p.type })) },
      doc_url: DOC_URL,
    },
  };
}

/** Per-minute 429 (spec 7.3): the error and a rate_limit block. */
export function rateLimitBody(w: WindowState, message: string) {
  return {
    error: { code: 'RATE_LIMIT_EXCEEDED' as const, message, doc_url: DOC_URL },
    rate_limit: { retry_after: w.retryAfter, limit: w.limit, remaining: w.remaining, reset_at: w.resetAt.toISOString() },
  };
}

/** Daily quota 429 (spec 7.1): a code string, a message, where to upgrade, when it resets. */
export function dailyLimitBody(w: WindowState, message: string, upgradeUrl: string) {
  return { error: 'daily_limit_exceeded' as const, message, upgrade_url: upgradeUrl, reset_at: w.resetAt.toISOString() };
}

/** The v1 error bodies: coded errors, `detail` validation failures, and the 429s of spec 7. */
export const v1Errors: ErrorPresenter = {
  error: codedError,
  validation: detailValidation,
  rateLimited: rateLimitBody,
  dailyLimited: dailyLimitBody,
};
