import type { IdempotencyRecord } from '../types.js';

export interface IdempotencyRow {
  scope: string; key: string; fingerprint: string | null; status: number | null; headers: string | null;
  body: Buffer | null; created_at: string; expires_at: string;
}

export const IDEMPOTENCY_COLUMNS = 'scope, key, fingerprint, status, headers, body, created_at, expires_at';

/**
 * Inserts a claim, or takes over an expired record (not yet purged) in the same statement; a row
 * comes back exactly when the claim was made. Parameters: scope, key, fingerprint, created, expires, now.
 */
export const CLAIM_SQL = `INSERT INTO idempotency_keys (scope, key, fingerprint, created_at, expires_at) VALUES (?, ?, ?, ?, ?)
  ON CONFLICT (scope, key) DO UPDATE SET fingerprint = excluded.fingerprint, status = NULL, headers = NULL, body = NULL,
    created_at = excluded.created_at, expires_at = excluded.expires_at
  WHERE idempotency_keys.expires_at <= ?
  RETURNING scope`;

export function toIdempotency(r: IdempotencyRow): IdempotencyRecord {
  return {
    scope: r.scope, key: r.key, fingerprint: r.fingerprint,
    response: r.status === null ? null : { status: r.status, headers: JSON.parse(r.headers ?? '{}') as Record<string, string>, body: r.body ?? Buffer.alloc(0) },
    createdAt: r.created_at, expiresAt: r.expires_at,
  };
}
