import type pg from 'pg';
import { CLAIM_SQL, IDEMPOTENCY_COLUMNS, toIdempotency, type IdempotencyRow } from '../sql/idempotency-rows.js';
import type { IdempotencyRecord, IdempotencyStore, StoredResponse } from '../types.js';
import { one } from './sql.js';

/** Idempotency keys on PostgreSQL (migration 14): the primary key decides which of two instances claims. */
export class PgIdempotency implements IdempotencyStore {
  constructor(private readonly pool: pg.Pool) {}

  async claim(rec: Omit<IdempotencyRecord, 'response'>, now: string): Promise<IdempotencyRecord | null> {
    // The holder may be released between the failed insert and the read: then claim again.
    for (;;) {
      if (await one(this.pool, CLAIM_SQL, [rec.scope, rec.key, rec.fingerprint, rec.createdAt, rec.expiresAt, now], true)) return null;
      const held = await one<IdempotencyRow>(this.pool, `SELECT ${IDEMPOTENCY_COLUMNS} FROM idempotency_keys WHERE scope = ? AND key = ?`, [rec.scope, rec.key], true);
      if (held) return toIdempotency(held);
    }
  }

  async complete(scope: string, key: string, fingerprint: string, response: StoredResponse): Promise<void> {
    await this.pool.query('UPDATE idempotency_keys SET fingerprint = $1, status = $2, headers = $3, body = $4 WHERE scope = $5 AND key = $6',
      [fingerprint, response.status, JSON.stringify(response.headers), response.body, scope, key]);
  }

  async release(scope: string, key: string): Promise<void> {
    await this.pool.query('DELETE FROM idempotency_keys WHERE scope = $1 AND key = $2 AND status IS NULL', [scope, key]);
  }

  async purge(now: string): Promise<number> {
    return (await this.pool.query('DELETE FROM idempotency_keys WHERE expires_at <= $1', [now])).rowCount ?? 0;
  }
}
