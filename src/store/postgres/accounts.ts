import type pg from 'pg';
import type {
  AccessTokenRecord, AccountStore, ApiKeyRecord, KeyStore, NewApiKey, OAuthClientRecord, OAuthClientType, OAuthStore, VerificationRecord,
} from '../types.js';
import type { Tier } from '../../domain/tier.js';
import { inTransaction, one, rows, type Db } from './sql.js';
import { withFields } from '../../domain/with-fields.js';

interface KeyRow {
  id: number; prefix: string; hash: string; name: string | null; tier: Tier; pending_tier: Tier | null;
  pending_tier_at: string | null; email: string | null; verified: boolean; created_at: string; revoked_at: string | null;
  account_id: number | null;
}
const toKey = (r: KeyRow): ApiKeyRecord => ({
  id: r.id, prefix: r.prefix, hash: r.hash, name: r.name, tier: r.tier, pendingTier: r.pending_tier,
  pendingTierAt: r.pending_tier_at, email: r.email, verified: r.verified, createdAt: r.created_at, revokedAt: r.revoked_at,
  accountId: r.account_id ?? r.id,
});
const KEY_COLUMNS: Record<string, string> = {
  prefix: 'prefix', hash: 'hash', name: 'name', tier: 'tier', pendingTier: 'pending_tier', pendingTierAt: 'pending_tier_at',
  email: 'email', verified: 'verified', createdAt: 'created_at', revokedAt: 'revoked_at', accountId: 'account_id',
};

/** Inserts a key; `accountId` null starts a new account (account_id = the new id), in one statement. */
async function insertKey(db: Db, rec: NewApiKey, now: string, accountId: number | null): Promise<ApiKeyRecord> {
  const row = await one<{ id: number; account_id: number }>(db, `WITH n AS (SELECT nextval('api_keys_id_seq') AS id)
    INSERT INTO api_keys (id, prefix, hash, name, tier, pending_tier, pending_tier_at, email, verified, created_at, account_id)
    SELECT n.id, ?, ?, ?, ?, ?, ?, ?, ?, ?, coalesce(?::bigint, n.id) FROM n RETURNING id, account_id`,
  [rec.prefix, rec.hash, rec.name, rec.tier, rec.pendingTier, rec.pendingTierAt, rec.email, rec.verified, now, accountId]);
  return withFields(rec, { id: row!.id, createdAt: now, revokedAt: null, accountId: row!.account_id });
}

export class PgKeys implements KeyStore {
  constructor(private readonly pool: pg.Pool) {}

  async create(rec: Omit<ApiKeyRecord, 'id' | 'createdAt' | 'revokedAt'>, now: string): Promise<ApiKeyRecord> {
    const { accountId, ...fields } = rec;
    return insertKey(this.pool, fields, now, accountId ?? null);
  }

  async findByHash(hash: string): Promise<ApiKeyRecord | null> {
    const row = await one<KeyRow>(this.pool, 'SELECT * FROM api_keys WHERE hash = ?', [hash]);
    return row ? toKey(row) : null;
  }

  async findById(id: number): Promise<ApiKeyRecord | null> {
    const row = await one<KeyRow>(this.pool, 'SELECT * FROM api_keys WHERE id = ?', [id]);
    return row ? toKey(row) : null;
  }

  async update(id: number, patch: Partial<Omit<ApiKeyRecord, 'id'>>): Promise<void> {
    const entries = Object.entries(patch).filter(([k]) => KEY_COLUMNS[k]);
    if (!entries.length) return;
    const sets = entries.map(([k]) => `${KEY_COLUMNS[k]} = ?`).join(', ');
    await one(this.pool, `UPDATE api_keys SET ${sets} WHERE id = ?`, [...entries.map(([, v]) => v), id]);
  }

  async changeCount(): Promise<number> {
    return Number((await one<{ value: string }>(this.pool, "SELECT value FROM counters WHERE name = 'api_keys'"))!.value);
  }
}

export class PgAccounts implements AccountStore {
  constructor(private readonly pool: pg.Pool) {}

  async rotateKey(oldId: number, next: NewApiKey, now: string): Promise<ApiKeyRecord | null> {
    return inTransaction(this.pool, async (client) => {
      // The row lock makes concurrent rotations of one key (on any instance) take turns; the loser sees it revoked.
      const old = await one<{ account_id: number | null; id: number }>(client,
        'UPDATE api_keys SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL RETURNING id, account_id', [now, oldId]);
      // Nothing was changed: the commit that follows writes nothing.
      if (!old) return null;
      const created = await insertKey(client, next, now, old.account_id ?? old.id);
      await client.query('UPDATE oauth_clients SET key_id = $1 WHERE key_id = $2', [created.id, oldId]);
      return created;
    });
  }

  async findByPrefix(prefix: string): Promise<ApiKeyRecord[]> {
    return (await rows<KeyRow>(this.pool, 'SELECT * FROM api_keys WHERE prefix = ? ORDER BY id', [prefix])).map(toKey);
  }

  async createVerification(rec: VerificationRecord): Promise<void> {
    await one(this.pool, 'INSERT INTO email_verifications (hash, key_id, email, expires_at) VALUES (?, ?, ?, ?)',
      [rec.hash, rec.keyId, rec.email, rec.expiresAt]);
  }

  async takeVerification(hash: string): Promise<VerificationRecord | null> {
    const row = await one<{ hash: string; key_id: number; email: string; expires_at: string }>(this.pool,
      'DELETE FROM email_verifications WHERE hash = ? RETURNING hash, key_id, email, expires_at', [hash]);
    return row ? { hash: row.hash, keyId: row.key_id, email: row.email, expiresAt: row.expires_at } : null;
  }
}

interface ClientRow { client_id: string; secret_hash: string | null; name: string; type: OAuthClientType; key_id: number; scope: string; created_at: string }
interface TokenRow { hash: string; client_id: string; key_id: number; scope: string; issued_at: string; expires_at: string; revoked_at: string | null }

export class PgOAuth implements OAuthStore {
  constructor(private readonly pool: pg.Pool) {}

  async createClient(rec: OAuthClientRecord): Promise<void> {
    await one(this.pool, 'INSERT INTO oauth_clients (client_id, secret_hash, name, type, key_id, scope, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)',
      [rec.clientId, rec.secretHash, rec.name, rec.type, rec.keyId, rec.scope, rec.createdAt]);
  }

  async findClient(clientId: string): Promise<OAuthClientRecord | null> {
    const r = await one<ClientRow>(this.pool, 'SELECT * FROM oauth_clients WHERE client_id = ?', [clientId]);
    return r ? { clientId: r.client_id, secretHash: r.secret_hash, name: r.name, type: r.type, keyId: r.key_id, scope: r.scope, createdAt: r.created_at } : null;
  }

  async createToken(rec: AccessTokenRecord): Promise<void> {
    await one(this.pool, 'INSERT INTO oauth_tokens (hash, client_id, key_id, scope, issued_at, expires_at, revoked_at) VALUES (?, ?, ?, ?, ?, ?, ?)',
      [rec.hash, rec.clientId, rec.keyId, rec.scope, rec.issuedAt, rec.expiresAt, rec.revokedAt]);
  }

  async findToken(hash: string): Promise<AccessTokenRecord | null> {
    const r = await one<TokenRow>(this.pool, 'SELECT * FROM oauth_tokens WHERE hash = ?', [hash]);
    return r ? { hash: r.hash, clientId: r.client_id, keyId: r.key_id, scope: r.scope, issuedAt: r.issued_at, expiresAt: r.expires_at, revokedAt: r.revoked_at } : null;
  }

  async revokeToken(hash: string, now: string): Promise<void> {
    await one(this.pool, 'UPDATE oauth_tokens SET revoked_at = ? WHERE hash = ? AND revoked_at IS NULL', [now, hash]);
  }

  async purgeExpiredTokens(now: string): Promise<number> {
    return (await this.pool.query('DELETE FROM oauth_tokens WHERE expires_at < $1', [now])).rowCount ?? 0;
  }
}
