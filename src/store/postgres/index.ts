import pg from 'pg';
import { PgIdempotency } from './idempotency.js';
import { parseRateCsv, rateTableToCsv, type RateTable } from '../../domain/fx.js';
import { decodeChange } from '../../domain/event-codec.js';
import type { CatalogEvent, EventKind } from '../../domain/events.js';
import type { EventLogStore, FxStore, Store, StoreClock } from '../types.js';
import { PgCatalog } from './catalog.js';
import { PgAccounts, PgKeys, PgOAuth } from './accounts.js';
import { PgActivity } from './activity.js';
import { PgAlerts } from './alerts.js';
import { PG_MIGRATIONS } from './schema.js';
import { PgWebhooks } from './webhooks.js';
import { inTransaction, one, pgTypes, rows } from './sql.js';
import { withFields } from '../../domain/with-fields.js';

export interface PostgresOptions {
  /** Schema holding every table (created when missing); tests give each run its own. */
  schema?: string;
  /** Pool size per process; N instances open N times this many connections. */
  max?: number;
  /** Milliseconds a statement may run before the server cancels it (a slow database never piles up work). */
  statementTimeoutMs?: number;
  /** Milliseconds a request waits for a pooled connection (or a new one) before it fails (503). */
  connectTimeoutMs?: number;
  /** Connections of the ingest writer, apart from the pool above (default 2): writers take turns on one row anyway. */
  writerMax?: number;
  /** The clock that stamps listing change times (tests give theirs; the wall clock otherwise). */
  now?: () => Date;
}

const WRITER_CONNECT_TIMEOUT_MS = 60_000;
const SCHEMA_NAME = /^[a-z_][a-z0-9_]{0,62}$/;

/** `postgres://...?schema=name`: the schema parameter is ours, pg never sees it. */
export function parsePostgresUrl(url: string): { connectionString: string; schema: string | undefined } {
  const u = new URL(url);
  const schema = u.searchParams.get('schema') ?? undefined;
  u.searchParams.delete('schema');
  return { connectionString: u.toString(), schema };
}

class PgEvents implements EventLogStore {
  constructor(private readonly pool: pg.Pool) {}

  async readAfter(afterId: number, limit: number, kinds?: EventKind[]): Promise<CatalogEvent[]> {
    const filter = kinds?.length ? ' AND kind = ANY(?::text[])' : '';
    const found = await rows<{ id: number; kind: EventKind; listing_id: number; payload: string; created_at: string }>(this.pool,
      `SELECT id, kind, listing_id, payload, created_at FROM events WHERE id > ?${filter} ORDER BY id LIMIT ?`,
      kinds?.length ? [afterId, kinds, limit] : [afterId, limit]);
    return found.map((r) => ({ id: r.id, listingId: r.listing_id, createdAt: r.created_at, change: decodeChange(r.kind, r.payload) }));
  }

  async lastId(): Promise<number> {
    return (await one<{ id: number }>(this.pool, 'SELECT coalesce(max(id), 0)::bigint AS id FROM events'))!.id;
  }
}

class PgFx implements FxStore {
  constructor(private readonly pool: pg.Pool) {}

  async current(): Promise<RateTable | null> {
    const row = await one<{ csv: string }>(this.pool, 'SELECT csv FROM fx_rates WHERE id = 1');
    return row ? parseRateCsv(row.csv) : null;
  }

  async replace(table: RateTable): Promise<void> {
    await this.pool.query(`INSERT INTO fx_rates (id, csv, updated_at) VALUES (1, $1, $2)
      ON CONFLICT (id) DO UPDATE SET csv = excluded.csv, updated_at = excluded.updated_at`, [rateTableToCsv(table), new Date().toISOString()]);
  }
}

export class PostgresStore implements Store {
  readonly kind = 'postgres' as const;
  readonly catalog: PgCatalog;
  readonly events: PgEvents;
  readonly fx: PgFx;
  readonly keys: PgKeys;
  readonly accounts: PgAccounts;
  readonly oauth: PgOAuth;
  readonly activity: PgActivity;
  readonly webhooks: PgWebhooks;
  readonly idempotency: PgIdempotency;
  readonly alerts: PgAlerts;

  /** `writerPool`: the ingest writer's connections (pipelined), so an import never holds the request path's. */
  constructor(readonly pool: pg.Pool, readonly schema: string, readonly writerPool: pg.Pool = pool, opts: StoreClock = {}) {
    this.catalog = new PgCatalog(pool, writerPool, opts.now);
    this.events = new PgEvents(pool);
    this.fx = new PgFx(pool);
    this.keys = new PgKeys(pool);
    this.accounts = new PgAccounts(pool);
    this.oauth = new PgOAuth(pool);
    this.activity = new PgActivity(pool);
    this.webhooks = new PgWebhooks(pool);
    this.idempotency = new PgIdempotency(pool);
    this.alerts = new PgAlerts(pool);
  }

  async migrate(): Promise<void> {
    await inTransaction(this.pool, async (client) => {
      // One migrator per schema at a time, whichever instance starts first.
      await client.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`catalog-migrate:${this.schema}`]);
      await client.query(`CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TEXT NOT NULL)`);
      const done = new Set((await client.query<{ version: number }>('SELECT version FROM schema_migrations')).rows.map((r) => r.version));
      for (const m of PG_MIGRATIONS) {
        if (done.has(m.version)) continue;
        await client.query(m.sql);
        await m.run?.(client);
        await client.query('INSERT INTO schema_migrations (version, name, applied_at) VALUES ($1, $2, $3)', [m.version, m.name, new Date().toISOString()]);
      }
    });
  }


  async close(): Promise<void> {
    if (this.writerPool !== this.pool) await this.writerPool.end().catch(() => undefined);
    await this.pool.end().catch(() => undefined);
  }
}

/** Runs once per process and schema before the pool exists: the schema and the pg_trgm extension. */
async function prepare(connectionString: string, schema: string): Promise<string> {
  const client = new pg.Client({ connectionString, connectionTimeoutMillis: 5000 });
  await client.connect();
  try {
    await client.query('SELECT pg_advisory_lock(hashtext($1))', ['catalog-prepare']);
    try {
      await client.query(`CREATE SCHEMA IF NOT EXISTS "${schema}"`);
      await client.query('CREATE EXTENSION IF NOT EXISTS pg_trgm WITH SCHEMA public');
    } finally {
      await client.query('SELECT pg_advisory_unlock(hashtext($1))', ['catalog-prepare']);
    }
    // The extension may live elsewhere (installed before us); its schema joins the search path.
    const ext = await client.query<{ s: string }>("SELECT extnamespace::regnamespace::text AS s FROM pg_extension WHERE extname = 'pg_trgm'");
    return ext.rows[0]?.s ?? 'public';
  } finally {
    await client.end();
  }
}

/**
 * Opens the PostgreSQL store: a bounded pool, a connect timeout, a server-side statement timeout
 * and idle clients closed, so a slow or restarting database gives quick errors (503) instead of
 * queued work, and the pool reconnects by itself when it returns.
 */
export async function createPostgresStore(url: string, opts: PostgresOptions = {}): Promise<PostgresStore> {
  const parsed = parsePostgresUrl(url);
  const schema = opts.schema ?? parsed.schema ?? 'public';
  if (!SCHEMA_NAME.test(schema)) throw new Error(`schema must match ${SCHEMA_NAME}, got ${schema}`);
  const extSchema = await prepare(parsed.connectionString, schema);
  const searchPath = [...new Set([schema, extSchema, 'public'])].map((s) => `"${s.replace(/"/g, '')}"`).join(',');
  const config: pg.PoolConfig = {
    connectionString: parsed.connectionString,
    max: opts.max ?? 10,
    connectionTimeoutMillis: opts.connectTimeoutMs ?? 3000,
    idleTimeoutMillis: 30_000,
    statement_timeout: opts.statementTimeoutMs ?? 10_000,
    idle_in_transaction_session_timeout: 60_000,
    options: `-c search_path=${searchPath}`,
    types: pgTypes,
    application_name: 'catalog',
  };
  const pool = new pg.Pool(config);
  // The writer sends a batch's statements without waiting for each answer (protocol pipelining).
  // An import may wait longer for its connection than a request: a process busy for seconds (a
  // synchronous import into another store beside it, an index build) must not time out a connect
  // that only waited for the event loop. A refused connection still fails at once.
  const writerPool = new pg.Pool(withFields(config, {
    max: opts.writerMax ?? 2, pipeline: true, application_name: 'catalog-ingest',
    connectionTimeoutMillis: Math.max(config.connectionTimeoutMillis!, WRITER_CONNECT_TIMEOUT_MS),
  }));
  // A connection dropped while idle (database restart) must not crash the process; the pool replaces it.
  pool.on('error', () => undefined);
  writerPool.on('error', () => undefined);
  return new PostgresStore(pool, schema, writerPool, { now: opts.now });
}
