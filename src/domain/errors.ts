/**
 * The closed list of error codes. Services throw DomainError with one of these; the HTTP error
 * handler maps the code to its status (http/error-status.ts) and to the envelope of the surface
 * that was asked.
 */
export const ERROR_CODES = [
  'VALIDATION_ERROR', 'INVALID_PRICE_RANGE', 'BAD_REQUEST', 'UNAUTHORIZED', 'MISSING_API_KEY', 'INSUFFICIENT_SCOPE',
  'FORBIDDEN', 'NOT_FOUND', 'PRODUCT_NOT_FOUND', 'METHOD_NOT_ALLOWED', 'CONFLICT', 'PAYLOAD_TOO_LARGE', 'UNSUPPORTED_MEDIA_TYPE',
  'URI_TOO_LONG', 'HEADERS_TOO_LARGE', 'RATE_LIMIT_EXCEEDED', 'DAILY_LIMIT_EXCEEDED', 'INTERNAL_ERROR', 'SERVICE_UNAVAILABLE',
] as const;

export type ErrorCode = (typeof ERROR_CODES)[number];

export class DomainError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly details?: Record<string, unknown>,
  ) {
    super(message);
    this.name = 'DomainError';
  }
}
