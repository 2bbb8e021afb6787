import BetterSqlite3 from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { migrateSqlite, registerMigrationFunctions } from '../../src/store/sqlite/index.js';
import { SQLITE_MIGRATIONS } from '../../src/store/sqlite/schema.js';

const LISTING = `INSERT INTO listings (id, uuid, source, sku, title, price, currency, price_sgd_minor, url, region, country_code, group_id,
  last_checked_at, data_updated_at, created_at, updated_at) VALUES (?, ?, 'lazada_sg', ?, 'Old listing', '1.00', 'SGD', 100,
  'https://www.lazada.sg/x', 'sg', 'SG', ?, 't', 't', 't', 't')`;

/** A store as migrations up to `version` left it. */
function storeAt(version: number) {
  const db = new BetterSqlite3(':memory:');
  registerMigrationFunctions(db);
  db.exec('CREATE TABLE schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TEXT NOT NULL)');
  for (const m of SQLITE_MIGRATIONS.filter((m) => m.version <= version)) {
    db.exec(m.sql);
    db.prepare('INSERT INTO schema_migrations VALUES (?, ?, ?)').run(m.version, m.name, 't');
  }
  return db;
}

describe('SQLite migrations', () => {
  it('5 rebuilds listings with the same rows, ids and indexes, the UUID and (source, sku) unique through named indexes', () => {
    const db = storeAt(4);
    const indexes = () => db.prepare("SELECT name FROM sqlite_schema WHERE type = 'index' AND tbl_name = 'listings' AND sql IS NOT NULL ORDER BY name").pluck().all();
    const before = indexes();
    db.prepare(LISTING).run(7, 'uuid-a', 'A', 7);
    db.prepare(LISTING).run(9, 'uuid-b', 'B', 7);
    const rows = db.prepare('SELECT * FROM listings ORDER BY id').all();

    migrateSqlite(db);
    // The same rows, with the accessory flag migration 7 adds, the change time 15 adds and 16's line hash (none yet).
    expect(db.prepare('SELECT * FROM listings ORDER BY id').all()).toEqual(rows.map((r) => ({ ...(r as object), accessory: 0, changed_at: 't', line_hash: null })));
    // Migrating runs every later version too: 9 adds the GTIN and URL lookup indexes, 15 the change time's.
    expect(indexes()).toEqual([...before, 'listings_source_sku', 'listings_uuid', 'listings_gtin', 'listings_url', 'listings_changed'].sort());
    expect(() => db.prepare(LISTING).run(10, 'uuid-a', 'C', 10)).toThrow(/UNIQUE constraint failed: listings.uuid/);
    expect(() => db.prepare(LISTING).run(11, 'uuid-c', 'A', 11)).toThrow(/UNIQUE constraint failed: listings.source, listings.sku/);
    db.close();
  });

  it('6 indexes again the search text that compatibility folding changes, and leaves the rest', () => {
    const db = storeAt(5);
    db.prepare(LISTING).run(1, 'uuid-a', 'A', 1);
    db.prepare(LISTING).run(2, 'uuid-b', 'B', 2);
    db.prepare(`UPDATE listings SET title = 'ＵＳＢ Cable', brand = 'Ａｎｋｅｒ', category_path = '["Ｃａｂｌｅｓ","Data"]' WHERE id = 2`).run();
    // As the writer indexed them before: the stored text as it is.
    db.prepare("INSERT INTO listings_fts (rowid, title, brand, category) VALUES (1, 'Old listing', NULL, ''), (2, 'ＵＳＢ Cable', 'Ａｎｋｅｒ', 'Ｃａｂｌｅｓ Data')").run();
    const match = (text: string) => db.prepare('SELECT rowid FROM listings_fts WHERE listings_fts MATCH ? ORDER BY rowid').pluck().all(text);
    expect(match('usb')).toEqual([]);

    migrateSqlite(db);
    expect(match('usb')).toEqual([2]);
    expect(match('anker')).toEqual([2]);
    expect(match('cables data')).toEqual([2]);
    expect(match('"ｕｓｂ"')).toEqual([]);
    expect(match('old listing')).toEqual([1]);
    expect(db.prepare('SELECT count(*) FROM listings_fts').pluck().get()).toBe(2);
    db.close();
  });

  it('7 indexes again, and keys again, the listings whose text has đ; the rest are left as they are', () => {
    const db = storeAt(6);
    db.prepare(LISTING).run(1, 'uuid-a', 'A', 1);
    db.prepare(LISTING).run(2, 'uuid-b', 'B', 2);
    db.prepare(`UPDATE listings SET title = 'Điện thoại Samsung', brand = 'Đông Á', category = 'Điện thoại',
      category_path = '["Đồ điện tử","Điện thoại"]', category_key = '|đồ điện tử|điện thoại|o-ien-tu|ien-thoai|' WHERE id = 2`).run();
    // As the writer indexed them before: the stroke of đ kept (FTS5 removes marks, not the stroke).
    db.prepare("INSERT INTO listings_fts (rowid, title, brand, category) VALUES (1, 'Old listing', NULL, ''), (2, 'Điện thoại Samsung', 'Đông Á', 'Đồ điện tử Điện thoại')").run();
    const match = (text: string) => db.prepare('SELECT rowid FROM listings_fts WHERE listings_fts MATCH ? ORDER BY rowid').pluck().all(text);
    expect(match('dien')).toEqual([]);

    migrateSqlite(db);
    expect(match('dien thoai samsung')).toEqual([2]);
    expect(match('dong a')).toEqual([2]);
    expect(match('do dien tu')).toEqual([2]);
    expect(match('old listing')).toEqual([1]);
    expect(db.prepare('SELECT count(*) FROM listings_fts').pluck().get()).toBe(2);
    expect(db.prepare('SELECT category_key FROM listings WHERE id = 2').pluck().get()).toBe('|đồ điện tử|điện thoại|do-dien-tu|dien-thoai|');
    expect(db.prepare('SELECT category_key FROM listings WHERE id = 1').pluck().get()).toBeNull();
    db.close();
  });

  it('7 flags the accessories among the listings already stored', () => {
    const db = storeAt(6);
    db.prepare(LISTING).run(1, 'uuid-a', 'A', 1);
    db.prepare(LISTING).run(2, 'uuid-b', 'B', 2);
    db.prepare(LISTING).run(3, 'uuid-c', 'C', 3);
    db.prepare("UPDATE listings SET title = 'Spigen Tough Armor Case for Galaxy S24' WHERE id = 2").run();
    db.prepare(`UPDATE listings SET title = 'Clear Armor', category = 'Phone Cases', category_path = '["Electronics","Phone Cases"]' WHERE id = 3`).run();
    migrateSqlite(db);
    expect(db.prepare('SELECT id, accessory FROM listings ORDER BY id').all()).toEqual([{ id: 1, accessory: 0 }, { id: 2, accessory: 1 }, { id: 3, accessory: 1 }]);
    db.close();
  });

  it('15 takes the change time of the listings already stored from updated_at, and indexes it', () => {
    const db = storeAt(14);
    db.prepare(LISTING).run(1, 'uuid-a', 'A', 1);
    db.prepare(LISTING).run(2, 'uuid-b', 'B', 2);
    db.prepare("UPDATE listings SET updated_at = '2026-11-20T09:00:00.000Z' WHERE id = 2").run();
    migrateSqlite(db);
    expect(db.prepare('SELECT id, changed_at FROM listings ORDER BY id').all()).toEqual([{ id: 1, changed_at: 't' }, { id: 2, changed_at: '2026-11-20T09:00:00.000Z' }]);
    const plan = db.prepare("EXPLAIN QUERY PLAN SELECT id FROM listings WHERE changed_at >= '2026-11-20' ORDER BY changed_at, id").all() as Array<{ detail: string }>;
    expect(plan.map((p) => p.detail).join(' ')).toContain('listings_changed');
    db.close();
  });
});
