import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { checkedPage, dealChecks } from '../../src/catalog/deal-checks.js';
import { generateDemoRecords } from '../../src/demo/generate.js';
import { createSqliteStore } from '../../src/store/sqlite/index.js';
import type { SortKey, Store } from '../../src/store/types.js';
import { ingest } from '../store/contract.js';
import { schemaFactory } from './env.js';

/**
 * The honest-deal reads (docs/deals.md) on PostgreSQL: one generated catalog with 90 days of
 * history in both stores; every page of deals gets the same checks from one observations read.
 */
const NOW = new Date('2026-11-20T00:00:00.000Z');
/** Checked two days after the import: the demo's 90 days of history then cover the whole window. */
const LATER = new Date(NOW.getTime() + 2 * 86_400_000);
const schemas = schemaFactory('deals');
let sqlite: Store;
let postgres: Store;

beforeAll(async () => {
  const records = [...generateDemoRecords({ listings: 2000, seed: 11, now: NOW })] as unknown as Array<Record<string, unknown>>;
  sqlite = createSqliteStore(':memory:');
  postgres = await schemas.store();
  await postgres.migrate();
  await Promise.all([ingest(sqlite, records, 500), ingest(postgres, records, 500)]);
});

afterAll(async () => {
  await sqlite?.close();
  await postgres?.close();
  await schemas.dropAll();
});

const fetcher = (s: Store, sort: SortKey) => (limit: number, offset: number) =>
  s.catalog.search({ filter: sort === 'discount_desc' ? { minDiscountPct: 5 } : { minHistoryDiscountPct: 1 }, sort, limit, offset });

describe('honest deals on PostgreSQL', () => {
  it('checks every page of deals as the embedded store does, in one read per page', async () => {
    const spy = vi.spyOn(postgres.catalog, 'observationsFor');
    let checked = 0;
    let flagged = 0;
    for (const sort of ['discount_desc', 'deal_desc'] as const) {
      for (let offset = 0; offset < 600; offset += 100) {
        const [a, b] = await Promise.all([fetcher(sqlite, sort)(100, offset), fetcher(postgres, sort)(100, offset)]);
        expect(b.listings.map((l) => l.id)).toEqual(a.listings.map((l) => l.id));
        spy.mockClear();
        const [ca, cb] = await Promise.all([dealChecks(sqlite.catalog, a.listings, LATER), dealChecks(postgres.catalog, b.listings, LATER)]);
        expect(spy.mock.calls.length).toBeLessThanOrEqual(1);
        expect(Object.fromEntries(cb)).toEqual(Object.fromEntries(ca));
        checked += cb.size;
        flagged += [...cb.values()].filter((c) => c.originalNeverCharged === true).length;
      }
    }
    spy.mockRestore();
    expect(checked).toBeGreaterThan(200);
    expect(flagged).toBeGreaterThan(0);
  });

  it('leaves out flagged deals with the same pages and totals on both stores', async () => {
    for (const [limit, offset] of [[20, 0], [50, 30], [100, 200]]) {
      const [a, b] = await Promise.all([
        checkedPage(sqlite.catalog, fetcher(sqlite, 'discount_desc'), limit, offset, true, LATER),
        checkedPage(postgres.catalog, fetcher(postgres, 'discount_desc'), limit, offset, true, LATER),
      ]);
      expect(b.listings.map((l) => l.id)).toEqual(a.listings.map((l) => l.id));
      expect(b.total).toBe(a.total);
      expect([...b.checks.values()].some((c) => c.originalNeverCharged === true)).toBe(false);
      const unfiltered = await fetcher(postgres, 'discount_desc')(1, 0);
      expect(b.total).toBeLessThan(unfiltered.total);
    }
  });
});
