import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createSqliteStore, type SqliteStore } from '../../src/store/sqlite/index.js';
import { rec } from '../helpers/records.js';
import { ingest } from './contract.js';

/**
 * An update sets the columns that changed and no other: SQLite rewrites every index on a column
 * an UPDATE sets, to the same value or not. A temporary trigger on the other indexed columns
 * fires for each update that sets any of them.
 */
let store: SqliteStore;
beforeEach(async () => {
  store = createSqliteStore(':memory:');
  await store.migrate();
  store.db.exec(`CREATE TEMP TABLE set_columns (id INTEGER);
    CREATE TEMP TRIGGER unrelated_set AFTER UPDATE OF source, sku, url, gtin, uuid ON listings BEGIN INSERT INTO set_columns VALUES (new.id); END;`);
});
afterEach(() => store.close());

const fired = () => store.db.prepare('SELECT id FROM temp.set_columns').pluck().all();
const at = (d: number) => `2026-11-${d}T10:00:00.000Z`;

describe('updates on the embedded store', () => {
  it('a price change sets the price columns, not the URL, SKU or GTIN, and reads back whole', async () => {
    await ingest(store, [rec({ gtin: '4006381333931', observed_at: at(20) })]);
    await ingest(store, [rec({ gtin: '4006381333931', price: '449.00', observed_at: at(21) })]);
    expect(fired()).toEqual([]);
    const l = (await store.catalog.getById(1))!;
    expect(l).toMatchObject({ price: '449.00', priceSgd: '449.00', gtin: '4006381333931', url: rec().url, lastCheckedAt: at(21), updatedAt: at(21) });
    expect(await store.catalog.getBySku('SKU-1')).toHaveLength(1);
  });

  it('a new URL sets it, and the listing is found by it', async () => {
    await ingest(store, [rec({ observed_at: at(20) })]);
    await ingest(store, [rec({ url: 'https://shop.example.com/moved', observed_at: at(21) })]);
    expect(fired()).toEqual([1]);
    expect((await store.catalog.latestBy('url', ['https://shop.example.com/moved'])).get('https://shop.example.com/moved')?.id).toBe(1);
  });
});
