/**
 * The closed list of domain error codes. Services throw DomainError with one of these; the HTTP
 * error handler maps it to the status and the envelope of the surface that was asked.
 */
export const ERROR_STATUS = {
  VALIDATION_ERROR: 422,
  INVALID_PRICE_RANGE: 400,
  BAD_REQUEST: 400,
  UNAUTHORIZED: 401,
  MISSING_API_KEY: 401,
  INSUFFICIENT_SCOPE: 403,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  PRODUCT_NOT_FOUND: 404,
  CONFLICT: 409,
  PAYLOAD_TOO_LARGE: 413,
  RATE_LIMIT_EXCEEDED: 429,
  DAILY_LIMIT_EXCEEDED: 429,
  INTERNAL_ERROR: 500,
  SERVICE_UNAVAILABLE: 503,
} as const;

export type ErrorCode = keyof typeof ERROR_STATUS;

export interface FieldProblem {
  /** Where the problem is, e.g. ['query', 'limit'] or ['body', 'product_ids']. */
  loc: Array<string | number>;
  msg: string;
  type: string;
}

export class DomainError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly details?: Record<string, unknown>,
    readonly problems?: FieldProblem[],
  ) {
    super(message);
    this.name = 'DomainError';
  }

  get status(): number {
    return ERROR_STATUS[this.code];
  }
}

export function validationError(loc: Array<string | number>, msg: string, type = 'value_error'): DomainError {
  return new DomainError('VALIDATION_ERROR', msg, undefined, [{ loc, msg, type }]);
}

export function notFound(what: string, details?: Record<string, unknown>): DomainError {
  return new DomainError('NOT_FOUND', `${what} not found`, details);
}
