import type { Database } from 'better-sqlite3';
import { CLAIM_SQL, IDEMPOTENCY_COLUMNS, toIdempotency, type IdempotencyRow } from '../sql/idempotency-rows.js';
import type { IdempotencyRecord, IdempotencyStore, StoredResponse } from '../types.js';

/** Idempotency keys on the embedded store (migration 14); one process writes at a time, so a claim is one transaction. */
export class SqliteIdempotency implements IdempotencyStore {
  private readonly claimTx: (rec: Omit<IdempotencyRecord, 'response'>, now: string) => IdempotencyRecord | null;

  constructor(private readonly db: Database) {
    const insert = db.prepare(CLAIM_SQL);
    const held = db.prepare(`SELECT ${IDEMPOTENCY_COLUMNS} FROM idempotency_keys WHERE scope = ? AND key = ?`);
    this.claimTx = db.transaction((rec: Omit<IdempotencyRecord, 'response'>, now: string) => {
      if (insert.get(rec.scope, rec.key, rec.fingerprint, rec.createdAt, rec.expiresAt, now)) return null;
      return toIdempotency(held.get(rec.scope, rec.key) as IdempotencyRow);
    });
  }

  async claim(rec: Omit<IdempotencyRecord, 'response'>, now: string): Promise<IdempotencyRecord | null> {
    return this.claimTx(rec, now);
  }

  async complete(scope: string, key: string, fingerprint: string, response: StoredResponse): Promise<void> {
    this.db.prepare('UPDATE idempotency_keys SET fingerprint = ?, status = ?, headers = ?, body = ? WHERE scope = ? AND key = ?')
      .run(fingerprint, response.status, JSON.stringify(response.headers), response.body, scope, key);
  }

  async release(scope: string, key: string): Promise<void> {
    this.db.prepare('DELETE FROM idempotency_keys WHERE scope = ? AND key = ? AND status IS NULL').run(scope, key);
  }

  async purge(now: string): Promise<number> {
    return this.db.prepare('DELETE FROM idempotency_keys WHERE expires_at <= ?').run(now).changes;
  }
}
