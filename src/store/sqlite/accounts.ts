import type { Database } from 'better-sqlite3';
import type {
  AccessTokenRecord, AccountStore, ApiKeyRecord, NewApiKey, OAuthClientRecord, OAuthClientType, OAuthStore, VerificationRecord,
} from '../types.js';
import type { Tier } from '../../domain/tier.js';
import { Statements } from './statements.js';
import { withFields } from '../../domain/with-fields.js';

export interface KeyRow {
  id: number; prefix: string; hash: string; name: string | null; tier: Tier; pending_tier: Tier | null;
  pending_tier_at: string | null; email: string | null; verified: number; created_at: string; revoked_at: string | null;
  account_id: number | null;
}

export const toKey = (r: KeyRow): ApiKeyRecord => ({
  id: r.id, prefix: r.prefix, hash: r.hash, name: r.name, tier: r.tier, pendingTier: r.pending_tier,
  pendingTierAt: r.pending_tier_at, email: r.email, verified: r.verified === 1, createdAt: r.created_at, revokedAt: r.revoked_at,
  accountId: r.account_id ?? r.id,
});

/** Inserts a key; `accountId` null starts a new account (account_id = the new id). */
export function insertKey(db: Database, rec: NewApiKey, now: string, accountId: number | null): ApiKeyRecord {
  const id = Number(db.prepare(`INSERT INTO api_keys (prefix, hash, name, tier, pending_tier, pending_tier_at, email, verified, created_at, account_id)
    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`).run(rec.prefix, rec.hash, rec.name, rec.tier, rec.pendingTier, rec.pendingTierAt,
    rec.email, rec.verified ? 1 : 0, now, accountId).lastInsertRowid);
  if (accountId === null) db.prepare('UPDATE api_keys SET account_id = id WHERE id = ?').run(id);
  return withFields(rec, { id, createdAt: now, revokedAt: null, accountId: accountId ?? id });
}

export class SqliteAccounts implements AccountStore {
  constructor(private readonly db: Database) {}

  async rotateKey(oldId: number, next: NewApiKey, now: string): Promise<ApiKeyRecord | null> {
    return this.db.transaction(() => {
      const old = this.db.prepare('SELECT * FROM api_keys WHERE id = ?').get(oldId) as KeyRow | undefined;
      if (!old) return null;
      const revoked = this.db.prepare('UPDATE api_keys SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL').run(now, oldId);
      if (revoked.changes !== 1) return null;
      const created = insertKey(this.db, next, now, old.account_id ?? old.id);
      this.db.prepare('UPDATE oauth_clients SET key_id = ? WHERE key_id = ?').run(created.id, oldId);
      return created;
    }).immediate();
  }

  async findByPrefix(prefix: string): Promise<ApiKeyRecord[]> {
    return (this.db.prepare('SELECT * FROM api_keys WHERE prefix = ? ORDER BY id').all(prefix) as KeyRow[]).map(toKey);
  }

  async createVerification(rec: VerificationRecord): Promise<void> {
    this.db.prepare('INSERT INTO email_verifications (hash, key_id, email, expires_at) VALUES (?, ?, ?, ?)')
      .run(rec.hash, rec.keyId, rec.email, rec.expiresAt);
  }

  async takeVerification(hash: string): Promise<VerificationRecord | null> {
    const row = this.db.prepare('DELETE FROM email_verifications WHERE hash = ? RETURNING hash, key_id, email, expires_at').get(hash) as
      { hash: string; key_id: number; email: string; expires_at: string } | undefined;
    return row ? { hash: row.hash, keyId: row.key_id, email: row.email, expiresAt: row.expires_at } : null;
  }
}

interface ClientRow { client_id: string; secret_hash: string | null; name: string; type: OAuthClientType; key_id: number; scope: string; created_at: string }
interface TokenRow { hash: string; client_id: string; key_id: number; scope: string; issued_at: string; expires_at: string; revoked_at: string | null }

export class SqliteOAuth implements OAuthStore {
  /** The reads a request's credential may need: prepared once, not per call. */
  private readonly q: Statements;

  constructor(private readonly db: Database) {
    this.q = new Statements(db);
  }

  async createClient(rec: OAuthClientRecord): Promise<void> {
    this.db.prepare('INSERT INTO oauth_clients (client_id, secret_hash, name, type, key_id, scope, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)')
      .run(rec.clientId, rec.secretHash, rec.name, rec.type, rec.keyId, rec.scope, rec.createdAt);
  }

  async findClient(clientId: string): Promise<OAuthClientRecord | null> {
    const r = this.q.get('SELECT * FROM oauth_clients WHERE client_id = ?').get(clientId) as ClientRow | undefined;
    return r ? { clientId: r.client_id, secretHash: r.secret_hash, name: r.name, type: r.type, keyId: r.key_id, scope: r.scope, createdAt: r.created_at } : null;
  }

  async createToken(rec: AccessTokenRecord): Promise<void> {
    this.db.prepare('INSERT INTO oauth_tokens (hash, client_id, key_id, scope, issued_at, expires_at, revoked_at) VALUES (?, ?, ?, ?, ?, ?, ?)')
      .run(rec.hash, rec.clientId, rec.keyId, rec.scope, rec.issuedAt, rec.expiresAt, rec.revokedAt);
  }

  async findToken(hash: string): Promise<AccessTokenRecord | null> {
    const r = this.q.get('SELECT * FROM oauth_tokens WHERE hash = ?').get(hash) as TokenRow | undefined;
    return r ? { hash: r.hash, clientId: r.client_id, keyId: r.key_id, scope: r.scope, issuedAt: r.issued_at, expiresAt: r.expires_at, revokedAt: r.revoked_at } : null;
  }

  async revokeToken(hash: string, now: string): Promise<void> {
    this.db.prepare('UPDATE oauth_tokens SET revoked_at = ? WHERE hash = ? AND revoked_at IS NULL').run(now, hash);
  }

  async purgeExpiredTokens(now: string): Promise<number> {
    return this.db.prepare('DELETE FROM oauth_tokens WHERE expires_at < ?').run(now).changes;
  }
}
