import BetterSqlite3 from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSqliteStore, migrateSqlite, type SqliteStore } from '../../src/store/sqlite/index.js';
import { SQLITE_MIGRATIONS } from '../../src/store/sqlite/schema.js';
import type { LookupKey } from '../../src/store/types.js';
import { rec } from '../helpers/records.js';
import { ingest } from './contract.js';

/** Bulk lookup's reads on SQLite: every key through its index, however many values. */
let store: SqliteStore;
beforeAll(async () => {
  store = createSqliteStore(':memory:');
  await store.migrate();
  await ingest(store, Array.from({ length: 50 }, (_, i) => rec({ sku: `L${i}`, gtin: i % 2 ? '4006381333931' : null, url: `https://shop.example.com/p/${i}` })));
});
afterAll(() => store.close());

/** The SQL texts `run` prepares. */
function prepared(run: () => Promise<unknown>): Promise<string[]> {
  const db = store.db;
  const original = db.prepare.bind(db);
  const seen: string[] = [];
  db.prepare = ((sql: string) => { seen.push(sql); return original(sql); }) as typeof db.prepare;
  return run().finally(() => { db.prepare = original; }).then(() => seen);
}

describe('latestBy on SQLite', () => {
  it.each<[LookupKey, string]>([['uuid', 'listings_uuid'], ['sku', 'listings_sku'], ['gtin', 'listings_gtin'], ['url', 'listings_url']])(
    'reads %s values through %s, never a scan', async (key, index) => {
      // A value of its own per call: a statement already prepared (by another test) is not prepared again.
      const [sql] = await prepared(() => store.catalog.latestBy(key, Array.from({ length: 3 }, (_, i) => `${key}-probe-${i}`)));
      const plan = (store.db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all('a', 'b', 'c', 'd') as Array<{ detail: string }>).map((r) => r.detail).join('; ');
      expect(sql).toContain(`IN (?,?,?,?)`);
      expect(plan).toContain(`USING INDEX ${index}`);
      expect(plan).not.toMatch(/SCAN listings\b(?! USING)/);
    });
});

describe('migration 9', () => {
  it('indexes listings by GTIN (where one is given) and by URL, as a bulk load builds them', () => {
    const db = new BetterSqlite3(':memory:');
    db.exec('CREATE TABLE schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TEXT NOT NULL)');
    for (const m of SQLITE_MIGRATIONS.filter((m) => m.version < 6)) {
      db.exec(m.sql);
      db.prepare('INSERT INTO schema_migrations VALUES (?, ?, ?)').run(m.version, m.name, 't');
    }
    migrateSqlite(db);
    const sql = (name: string) => db.prepare("SELECT sql FROM sqlite_schema WHERE type = 'index' AND name = ?").pluck().get(name);
    expect(sql('listings_gtin')).toBe('CREATE INDEX listings_gtin ON listings (gtin) WHERE gtin IS NOT NULL');
    expect(sql('listings_url')).toBe('CREATE INDEX listings_url ON listings (url)');
    db.close();
  });
});
