import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import BetterSqlite3, { type Database, type Statement } from 'better-sqlite3';
import { parseRateCsv, rateTableToCsv, type RateTable } from '../../domain/fx.js';
import { decodeChange } from '../../domain/event-codec.js';
import type { CatalogEvent, EventKind } from '../../domain/events.js';
import { isAccessoryListing } from '../../domain/accessory.js';
import { categoryKey, fromJsonColumn } from '../../domain/listing-columns.js';
import { indexForm } from '../../domain/search-text.js';
import type { ApiKeyRecord, BulkLoadCapability, RecoveryCapability, EventLogStore, FxStore, KeyStore, Store, StoreClock } from '../types.js';
import { insertKey, SqliteAccounts, SqliteOAuth, toKey, type KeyRow } from './accounts.js';
import { SqliteActivity } from './activity.js';
import { SqliteIdempotency } from './idempotency.js';
import { Statements } from './statements.js';
import { SqliteAlerts } from './alerts.js';
import { SqliteCatalog } from './catalog.js';
import { sqliteRecovery } from './recovery.js';
import { SQLITE_MIGRATIONS } from './schema.js';
import { SqliteWebhooks } from './webhooks.js';

/** Opens the embedded store: WAL so readers never wait for the importer, and other processes see commits. */
export function openSqlite(path: string): Database {
  if (path !== ':memory:') mkdirSync(dirname(path), { recursive: true });
  const db = new BetterSqlite3(path);
  // For a new store only (a store's page size is fixed when it is created): 16 KiB pages make a
  // bulk load's writes cheaper than 4 KiB ones, mostly in the system time of the WAL's writes.
  db.pragma('page_size = 16384');
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.pragma('busy_timeout = 5000');
  db.pragma('cache_size = -131072');
  // Mapped pages count in RSS (bench/RESULTS.md, "Memory"): 64 MB maps the hot part; the rest comes through the page cache.
  db.pragma('mmap_size = 67108864');
  db.pragma('temp_store = MEMORY');
  db.pragma('foreign_keys = ON');
  return db;
}

/**
 * The functions migrations call: 6 and 7 index search text again in the form the code indexes it
 * in, 7 derives category keys again and flags accessories.
 */
export function registerMigrationFunctions(db: Database): void {
  const text = (v: unknown) => (typeof v === 'string' ? v : null);
  db.function('is_accessory', { deterministic: true }, (title: unknown, path: unknown, category: unknown) =>
    (isAccessoryListing({ title: text(title) ?? '', categoryPath: fromJsonColumn<string[]>(text(path)), category: text(category) }) ? 1 : 0));
  db.function('index_form', { deterministic: true }, (v: unknown) => (typeof v === 'string' ? indexForm(v) : v));
  db.function('category_key_of', { deterministic: true }, (path: unknown, category: unknown) =>
    categoryKey(fromJsonColumn<string[]>(text(path)), text(category)));
}

export function migrateSqlite(db: Database): void {
  registerMigrationFunctions(db);
  db.exec('CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TEXT NOT NULL)');
  const done = new Set(db.prepare('SELECT version FROM schema_migrations').pluck().all() as number[]);
  for (const m of SQLITE_MIGRATIONS) {
    if (done.has(m.version)) continue;
    db.transaction(() => {
      db.exec(m.sql);
      db.prepare('INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)').run(m.version, m.name, new Date().toISOString());
    })();
  }
}

class SqliteEvents implements EventLogStore {
  /** readAfter's shapes (one per set of kinds asked): the tail reads the log several times a second. */
  private readonly statements: Statements;
  private readonly head: Statement;
  private readonly unlogged: Statement;

  constructor(private readonly db: Database) {
    this.statements = new Statements(db, 50);
    this.head = db.prepare('SELECT coalesce(max(id), 0) FROM events').pluck();
    this.unlogged = db.prepare("SELECT value FROM counters WHERE name = 'unlogged_changes'").pluck();
  }

  async readAfter(afterId: number, limit: number, kinds?: EventKind[]): Promise<CatalogEvent[]> {
    const filter = kinds?.length ? ` AND kind IN (${kinds.map(() => '?').join(',')})` : '';
    const rows = this.statements.get(`SELECT id, kind, listing_id, payload, created_at FROM events WHERE id > ?${filter} ORDER BY id LIMIT ?`)
      .all(afterId, ...(kinds ?? []), limit) as Array<{ id: number; kind: EventKind; listing_id: number; payload: string; created_at: string }>;
    return rows.map((r) => ({ id: r.id, listingId: r.listing_id, createdAt: r.created_at, change: decodeChange(r.kind, r.payload) }));
  }

  async lastId(): Promise<number> {
    // Read before every indexed search: one prepared statement, not a prepare per call.
    return this.head.get() as number;
  }

  async unloggedChanges(): Promise<number> {
    return this.unlogged.get() as number;
  }
}

class SqliteFx implements FxStore {
  constructor(private readonly db: Database) {}

  async current(): Promise<RateTable | null> {
    const csv = this.db.prepare('SELECT csv FROM fx_rates WHERE id = 1').pluck().get() as string | undefined;
    return csv ? parseRateCsv(csv) : null;
  }

  async replace(table: RateTable): Promise<void> {
    this.db.prepare('INSERT INTO fx_rates (id, csv, updated_at) VALUES (1, ?, ?) ON CONFLICT (id) DO UPDATE SET csv = excluded.csv, updated_at = excluded.updated_at')
      .run(rateTableToCsv(table), new Date().toISOString());
  }
}

const KEY_COLUMNS: Record<string, string> = {
  prefix: 'prefix', hash: 'hash', name: 'name', tier: 'tier', pendingTier: 'pending_tier', pendingTierAt: 'pending_tier_at',
  email: 'email', verified: 'verified', createdAt: 'created_at', revokedAt: 'revoked_at', accountId: 'account_id',
};

class SqliteKeys implements KeyStore {
  /** The reads a request's credential may need: prepared once, not per call. */
  private readonly q: Statements;

  constructor(private readonly db: Database) {
    this.q = new Statements(db);
  }

  async create(rec: Omit<ApiKeyRecord, 'id' | 'createdAt' | 'revokedAt'>, now: string): Promise<ApiKeyRecord> {
    return insertKey(this.db, rec, now, rec.accountId ?? null);
  }

  async findByHash(hash: string): Promise<ApiKeyRecord | null> {
    const row = this.q.get('SELECT * FROM api_keys WHERE hash = ?').get(hash) as KeyRow | undefined;
    return row ? toKey(row) : null;
  }

  async findById(id: number): Promise<ApiKeyRecord | null> {
    const row = this.q.get('SELECT * FROM api_keys WHERE id = ?').get(id) as KeyRow | undefined;
    return row ? toKey(row) : null;
  }

  async update(id: number, patch: Partial<Omit<ApiKeyRecord, 'id'>>): Promise<void> {
    const entries = Object.entries(patch).filter(([k]) => KEY_COLUMNS[k]);
    if (!entries.length) return;
    const sets = entries.map(([k]) => `${KEY_COLUMNS[k]} = ?`).join(', ');
    const values = entries.map(([, v]) => (typeof v === 'boolean' ? (v ? 1 : 0) : v));
    this.db.prepare(`UPDATE api_keys SET ${sets} WHERE id = ?`).run(...values, id);
  }

  async changeCount(): Promise<number> {
    return (this.q.get("SELECT value FROM counters WHERE name = 'api_keys'").get() as { value: number }).value;
  }
}

export class SqliteStore implements Store {
  readonly kind = 'sqlite' as const;
  readonly catalog: SqliteCatalog;
  readonly events: SqliteEvents;
  readonly fx: SqliteFx;
  readonly keys: SqliteKeys;
  readonly accounts: SqliteAccounts;
  readonly oauth: SqliteOAuth;
  readonly activity: SqliteActivity;
  readonly webhooks: SqliteWebhooks;
  readonly idempotency: SqliteIdempotency;
  readonly alerts: SqliteAlerts;
  readonly bulkLoad: BulkLoadCapability;
  readonly recovery: RecoveryCapability;

  /** `opts.now`: the clock that stamps listing change times (tests give theirs; the wall clock otherwise). */
  constructor(readonly db: Database, opts: StoreClock = {}) {
    migrateSqlite(db);
    this.catalog = new SqliteCatalog(db, opts.now);
    this.recovery = sqliteRecovery(db);
    this.events = new SqliteEvents(db);
    this.fx = new SqliteFx(db);
    this.keys = new SqliteKeys(db);
    this.accounts = new SqliteAccounts(db);
    this.oauth = new SqliteOAuth(db);
    this.activity = new SqliteActivity(db);
    this.webhooks = new SqliteWebhooks(db);
    this.idempotency = new SqliteIdempotency(db);
    this.alerts = new SqliteAlerts(db);
    const catalog = this.catalog;
    this.bulkLoad = {
      startImport: () => catalog.startImport(),
      start: () => catalog.startBulkLoad(),
      finish: (opts) => catalog.finishBulkLoad(opts),
    };
  }

  async migrate(): Promise<void> {
    migrateSqlite(this.db);
  }

  async close(): Promise<void> {
    await this.catalog.endImport();
    if (this.db.open) this.db.close();
  }
}

export function createSqliteStore(path: string, opts: StoreClock = {}): SqliteStore {
  return new SqliteStore(openSqlite(path), opts);
}
