import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateDemoRecords } from '../../src/demo/generate.js';
import { IndexedSearch } from '../../src/catalog/search-index/indexed-search.js';
import { createSqliteStore } from '../../src/store/sqlite/index.js';
import type { ListingFilter, Store } from '../../src/store/types.js';
import { ingest } from '../store/contract.js';

/** The filter facets (GET /v1/search/filters) the index counts are the store's, to the last bucket and id. */
let store: Store;
let index: IndexedSearch;

beforeAll(async () => {
  const records = [...generateDemoRecords({ listings: 1500, seed: 7, now: new Date('2026-11-20T00:00:00.000Z') })] as unknown as Array<Record<string, unknown>>;
  // Stock levels the demo never writes: every availability value has listings, in both letter cases.
  records.forEach((r, i) => {
    if (i % 11 === 0) r.stock_level = i % 2 ? 'preorder' : 'PreOrder';
    if (i % 13 === 0) r.stock_level = 'discontinued';
    if (i % 17 === 0) r.in_stock = null;
  });
  store = createSqliteStore(':memory:');
  await store.migrate();
  await ingest(store, records, 500);
  index = new IndexedSearch(store.catalog, store.events);
  await index.build();
}, 120_000);

afterAll(async () => {
  await store?.close();
});

const TEXTS = [undefined, 'samsung', 'phone', 'galaxy phone', 'coffee', 'black 128gb', 'zzzz nothing', '!!!', 'pro'];
const FILTERS: ListingFilter[] = [
  {}, { countries: ['SG'] }, { countries: ['SG', 'MY', 'TH', 'PH', 'VN', 'ID'] }, { inStock: true }, { brandLike: 'sam' },
  { categoryLike: 'phone', minPriceSgdMinor: 10000 }, { domain: 'shopee.sg' }, { maxPriceSgdMinor: 2000, countries: ['MY'] },
];

describe('filter facets: index and store agree', () => {
  it('domains, countries, availability, cheapest and dearest for every text and filter', async () => {
    let seen = 0;
    for (const text of TEXTS) {
      for (const filter of FILTERS) {
        const q = { text, filter, sort: 'relevance' as const, limit: 1, offset: 0, facets: true, filterFacets: true };
        const a = await store.catalog.search(q);
        const b = await index.search(q);
        expect(b, 'the index answers a query it holds every filter of').not.toBeNull();
        expect({ text, filter, total: b!.total, facets: b!.facets, filters: b!.filterFacets })
          .toEqual({ text, filter, total: a.total, facets: a.facets, filters: a.filterFacets });
        if (a.filterFacets!.availability.length >= 3) seen++;
      }
    }
    expect(seen).toBeGreaterThan(10);
  });
});
