import { afterAll, describe, expect, it } from 'vitest';
import { PG_MIGRATIONS } from '../../src/store/postgres/schema.js';
import type { PostgresStore } from '../../src/store/postgres/index.js';
import { schemaFactory } from './env.js';

const schemas = schemaFactory('migrations');
afterAll(() => schemas.dropAll());

const LISTING = `INSERT INTO listings (id, uuid, source, sku, title, brand, category, category_path, category_key, price, currency,
  price_sgd_minor, url, region, country_code, group_id, last_checked_at, data_updated_at, created_at, updated_at, tsv)
  VALUES ($1, $2, 'tiki_vn', $2, $3, $4, $5, $6, $7, '1.00', 'VND', 1, 'https://tiki.vn/x', 'vn', 'VN', $1, 't', 't', 't', 't', $8::tsvector)`;

/** A store as migrations up to `version` left it. */
async function storeAt(version: number): Promise<PostgresStore> {
  const store = (await schemas.store()) as PostgresStore;
  await store.pool.query('CREATE TABLE schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TEXT NOT NULL)');
  for (const m of PG_MIGRATIONS.filter((x) => x.version <= version)) {
    await store.pool.query(m.sql);
    await store.pool.query('INSERT INTO schema_migrations VALUES ($1, $2, $3)', [m.version, m.name, 't']);
  }
  return store;
}

describe('PostgreSQL migrations', () => {
  it('6 derives again the search terms and category key of the listings whose text has đ, leaves the rest, and flags accessories', async () => {
    const store = await storeAt(5);
    try {
      // As the writer stored them before: the stroke of đ kept in the terms, dropped from the slugs.
      await store.pool.query(LISTING, [1, 'a', 'Điện thoại Samsung', 'Đông Á', 'Điện thoại', '["Đồ điện tử","Điện thoại"]',
        '|đồ điện tử|điện thoại|o-ien-tu|ien-thoai|', "'đien':1A 'thoai':2A 'samsung':3A 'đong':4B 'a':5B 'đo':6C 'đien':7C 'tu':8C 'đien':9C 'thoai':10C"]);
      await store.pool.query(LISTING, [2, 'b', 'Old listing', null, null, null, null, "'old':1A 'listing':2A"]);
      await store.pool.query(LISTING, [3, 'c', 'Spigen Tough Armor Case for Galaxy S24', null, null, null, null, "'spigen':1A"]);
      const found = async (text: string) => (await store.catalog.search({ text, filter: {}, sort: 'relevance', limit: 10, offset: 0 })).listings.map((l) => l.id);
      expect(await found('dien thoai')).toEqual([]);

      await store.migrate();
      expect(await found('dien thoai samsung')).toEqual([1]);
      expect(await found('điện thoại')).toEqual([1]);
      expect(await found('dong a')).toEqual([1]);
      expect(await found('do dien tu')).toEqual([1]);
      expect(await found('old listing')).toEqual([2]);
      const keys = (await store.pool.query<{ id: number; category_key: string | null }>('SELECT id, category_key FROM listings ORDER BY id')).rows;
      expect(keys).toEqual([{ id: 1, category_key: '|đồ điện tử|điện thoại|do-dien-tu|dien-thoai|' }, { id: 2, category_key: null }, { id: 3, category_key: null }]);
      // ...and flags the accessories among the listings already stored.
      expect((await store.pool.query('SELECT id, accessory FROM listings ORDER BY id')).rows).toEqual([{ id: 1, accessory: 0 }, { id: 2, accessory: 0 }, { id: 3, accessory: 1 }]);
      expect((await store.pool.query('SELECT max(version) AS v FROM schema_migrations')).rows[0].v).toBe(PG_MIGRATIONS.at(-1)!.version);
    } finally {
      await store.close();
    }
  });

  it('15 takes the change time of the listings already stored from updated_at, and indexes it', async () => {
    const store = await storeAt(14);
    try {
      await store.pool.query(LISTING, [1, 'a', 'Old listing', null, null, null, null, "'old':1A"]);
      await store.pool.query(LISTING, [2, 'b', 'Other listing', null, null, null, null, "'other':1A"]);
      await store.pool.query("UPDATE listings SET updated_at = '2026-11-20T09:00:00.000Z' WHERE id = 2");
      await store.migrate();
      expect((await store.pool.query('SELECT id, changed_at FROM listings ORDER BY id')).rows)
        .toEqual([{ id: 1, changed_at: 't' }, { id: 2, changed_at: '2026-11-20T09:00:00.000Z' }]);
      const column = await store.pool.query("SELECT is_nullable FROM information_schema.columns WHERE table_schema = $1 AND table_name = 'listings' AND column_name = 'changed_at'", [store.schema]);
      expect(column.rows).toEqual([{ is_nullable: 'NO' }]);
      const index = await store.pool.query("SELECT indexdef FROM pg_indexes WHERE schemaname = $1 AND indexname = 'listings_changed'", [store.schema]);
      expect(index.rows[0]?.indexdef).toContain('(changed_at, id)');
    } finally {
      await store.close();
    }
  });
});
