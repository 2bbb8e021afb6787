import BetterSqlite3 from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { migrateSqlite } from '../../src/store/sqlite/index.js';
import { SQLITE_MIGRATIONS } from '../../src/store/sqlite/schema.js';

const LISTING = `INSERT INTO listings (id, uuid, source, sku, title, price, currency, price_sgd_minor, url, region, country_code, group_id,
  last_checked_at, data_updated_at, created_at, updated_at) VALUES (?, ?, 'lazada_sg', ?, 'Old listing', '1.00', 'SGD', 100,
  'https://www.lazada.sg/x', 'sg', 'SG', ?, 't', 't', 't', 't')`;

describe('SQLite migrations', () => {
  it('5 rebuilds listings with the same rows, ids and indexes, the UUID and (source, sku) unique through named indexes', () => {
    const db = new BetterSqlite3(':memory:');
    db.exec('CREATE TABLE schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TEXT NOT NULL)');
    for (const m of SQLITE_MIGRATIONS.filter((m) => m.version <= 4)) {
      db.exec(m.sql);
      db.prepare('INSERT INTO schema_migrations VALUES (?, ?, ?)').run(m.version, m.name, 't');
    }
    const indexes = () => db.prepare("SELECT name FROM sqlite_schema WHERE type = 'index' AND tbl_name = 'listings' AND sql IS NOT NULL ORDER BY name").pluck().all();
    const before = indexes();
    db.prepare(LISTING).run(7, 'uuid-a', 'A', 7);
    db.prepare(LISTING).run(9, 'uuid-b', 'B', 7);
    const rows = db.prepare('SELECT * FROM listings ORDER BY id').all();

    migrateSqlite(db);
    expect(db.prepare('SELECT * FROM listings ORDER BY id').all()).toEqual(rows);
    expect(indexes()).toEqual([...before, 'listings_source_sku', 'listings_uuid'].sort());
    expect(() => db.prepare(LISTING).run(10, 'uuid-a', 'C', 10)).toThrow(/UNIQUE constraint failed: listings.uuid/);
    expect(() => db.prepare(LISTING).run(11, 'uuid-c', 'A', 11)).toThrow(/UNIQUE constraint failed: listings.source, listings.sku/);
    db.close();
  });
});
