import BetterSqlite3 from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { migrateSqlite } from '../../src/store/sqlite/index.js';
import { SQLITE_MIGRATIONS } from '../../src/store/sqlite/schema.js';

const LISTING = `INSERT INTO listings (id, uuid, source, sku, title, price, currency, price_sgd_minor, url, region, country_code, group_id,
  last_checked_at, data_updated_at, created_at, updated_at) VALUES (?, ?, 'lazada_sg', ?, 'Old listing', '1.00', 'SGD', 100,
  'https://www.lazada.sg/x', 'sg', 'SG', ?, 't', 't', 't', 't')`;

/** A store as migrations up to `version` left it. */
function storeAt(version: number) {
  const db = new BetterSqlite3(':memory:');
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
    expect(db.prepare('SELECT * FROM listings ORDER BY id').all()).toEqual(rows);
    // Migrating runs every later version too: 9 adds the GTIN and URL lookup indexes.
    expect(indexes()).toEqual([...before, 'listings_source_sku', 'listings_uuid', 'listings_gtin', 'listings_url'].sort());
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
});
