import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateDemoRecords } from '../../src/demo/generate.js';
import { createSqliteStore } from '../../src/store/sqlite/index.js';
import type { ListingFilter, PageCursor, PageResult, SearchQuery, SortKey, Store } from '../../src/store/types.js';
import { ingest } from '../store/contract.js';
import { StoreVocabulary } from '../../src/catalog/search-vocabulary.js';
import { forgivingQuery, widened } from '../../src/domain/search-text.js';
import { schemaFactory } from './env.js';

/** One generated file imported into both stores: every answer that does not depend on ranking must agree. */
const schemas = schemaFactory('parity');
let sqlite: Store;
let postgres: Store;
let records: Array<Record<string, unknown>>;

beforeAll(async () => {
  records = [...generateDemoRecords({ listings: 2000, seed: 7, now: new Date('2026-11-20T00:00:00.000Z') })] as unknown as Array<Record<string, unknown>>;
  sqlite = createSqliteStore(':memory:');
  postgres = await schemas.store();
  await postgres.migrate();
  const [a, b] = await Promise.all([ingest(sqlite, records, 500), ingest(postgres, records, 500)]);
  expect(b).toEqual(a);
});

afterAll(async () => {
  await sqlite?.close();
  await postgres?.close();
  await schemas.dropAll();
});

const TEXTS = ['samsung', 'galaxy phone', 'apple iphone', 'wireless headphones', 'coffee', 'laptop 16gb', 'xiaomi', 'shoes',
  'zzzz nothing', 'bluetooth speaker', 'electronics', 'beauty'];
const FILTERS: ListingFilter[] = [
  {}, { inStock: true }, { sources: ['shopee_sg', 'lazada_my'] }, { categoryLike: 'phone' }, { brandLike: 'sam' },
  { minPriceSgdMinor: 5000, maxPriceSgdMinor: 50000 }, { minDiscountPct: 10 }, { countries: ['SG', 'MY'] }, { minHistoryDiscountPct: 1 },
];
const SORTS: SortKey[] = ['price_asc', 'price_desc', 'newest', 'rating', 'reviews', 'discount_desc', 'deal_desc'];

async function both(query: SearchQuery) {
  return Promise.all([sqlite.catalog.search(query), postgres.catalog.search(query)]);
}

describe('SQLite and PostgreSQL agree on the same data', () => {
  it('imports to the same listings, ids, groups and events', async () => {
    expect(await postgres.catalog.count()).toBe(await sqlite.catalog.count());
    for (const id of [1, 2, 500, 1000, 1999, 2000]) expect(await postgres.catalog.getById(id)).toEqual(await sqlite.catalog.getById(id));
    expect(await postgres.events.lastId()).toBe(await sqlite.events.lastId());
    const [ea, eb] = await Promise.all([sqlite.events.readAfter(0, 100_000), postgres.events.readAfter(0, 100_000)]);
    expect(eb).toEqual(ea);
    const groupsOf = async (s: Store) => (await s.catalog.getMany(Array.from({ length: 2000 }, (_, i) => i + 1))).map((l) => l.groupId);
    expect(await groupsOf(postgres)).toEqual(await groupsOf(sqlite));
  });

  it('search totals, facets and matched id sets', async () => {
    let nonEmpty = 0;
    for (const text of TEXTS) {
      for (const filter of FILTERS) {
        const [a, b] = await both({ text, filter, sort: 'relevance', limit: 100, offset: 0, facets: true });
        expect({ text, filter, total: b.total }).toEqual({ text, filter, total: a.total });
        expect(b.facets).toEqual(a.facets);
        if (a.total <= 100) expect(b.listings.map((l) => l.id).sort()).toEqual(a.listings.map((l) => l.id).sort());
        if (a.total) nonEmpty++;
      }
    }
    expect(nonEmpty).toBeGreaterThan(20);
  });

  it('forgiving queries: the same vocabulary, expansion and matches, the second tier (not exact) alone too', async () => {
    const [va, vb] = await Promise.all([new StoreVocabulary(sqlite.catalog).lookup(), new StoreVocabulary(postgres.catalog).lookup()]);
    let widenedNonEmpty = 0;
    for (const text of ['samsnug galaxy', 'wireles headphnes', 'blutooth speker', 'samsung gal', 'tv', 'earphones', 'dien thoai', 'coffe', 'xiaomi redm', 'samsung', 'phone', 'wireless', 'speaker', 'headphones', 'bluetooth']) {
      const terms = forgivingQuery(text, va)!;
      expect(forgivingQuery(text, vb), text).toEqual(terms);
      for (const filter of [{}, { inStock: true }] as ListingFilter[]) {
        for (const exceptExact of [false, true]) {
          const [a, b] = await both({ text, terms, exceptExact, filter, sort: 'relevance', limit: 500, offset: 0, facets: true });
          expect({ text, filter, exceptExact, total: b.total }).toEqual({ text, filter, exceptExact, total: a.total });
          expect(b.facets).toEqual(a.facets);
          expect(b.listings.map((l) => l.id).sort()).toEqual(a.listings.map((l) => l.id).sort());
          if (exceptExact && widened(terms) && a.total) widenedNonEmpty++;
        }
      }
    }
    expect(widenedNonEmpty).toBeGreaterThan(2);
  });

  it('every non-relevance sort gives the same pages', async () => {
    for (const sort of SORTS) {
      for (const filter of FILTERS.slice(0, 4)) {
        const [a, b] = await both({ filter, sort, limit: 30, offset: 10, facets: false });
        expect(b.listings.map((l) => l.id)).toEqual(a.listings.map((l) => l.id));
        const [ka, kb] = await both({ text: 'samsung', filter, sort, limit: 20, offset: 0, afterId: 100 });
        expect(kb.listings.map((l) => l.id)).toEqual(ka.listings.map((l) => l.id));
      }
    }
  });

  it('keyset pages, categories, observations and group stats', async () => {
    for (const sort of ['newest', 'price_asc', 'price_desc'] as const) {
      let ca: PageCursor | null = null;
      let cb: PageCursor | null = null;
      for (let i = 0; i < 3; i++) {
        const [pa, pb]: PageResult[] = await Promise.all([sqlite.catalog.page({ inStock: true }, sort, ca, 25, 0), postgres.catalog.page({ inStock: true }, sort, cb, 25, 0)]);
        expect(pb.total).toBe(pa.total);
        expect(pb.listings.map((l) => l.id)).toEqual(pa.listings.map((l) => l.id));
        ca = pa.next;
        cb = pb.next;
      }
    }
    const byPath = (c: Array<{ path: string[]; count: number }>) => [...c].sort((x, y) => x.path.join('/').localeCompare(y.path.join('/')));
    expect(byPath(await postgres.catalog.categories())).toEqual(byPath(await sqlite.catalog.categories()));
    for (const id of [1, 17, 300]) {
      expect(await postgres.catalog.observations(id, '2000-01-01', { limit: 50, offset: 0 }))
        .toEqual(await sqlite.catalog.observations(id, '2000-01-01', { limit: 50, offset: 0 }));
    }
    for (const [since, filter] of [['2026-11-13T00:00:00.000Z', {}], ['2026-10-01T00:00:00.000Z', { categoryLike: 'phone' }]] as const) {
      const byId = (m: Array<{ id: number }>) => [...m].sort((x, y) => x.id - y.id);
      const [ma, mb] = await Promise.all([sqlite.catalog.priceMoves(since, filter), postgres.catalog.priceMoves(since, filter)]);
      expect(ma.length).toBeGreaterThan(10);
      expect(byId(mb)).toEqual(byId(ma));
    }
    const groups = (await sqlite.catalog.getMany([1, 2, 3, 4, 5, 50, 60])).map((l) => l.groupId);
    expect(await postgres.catalog.groupStats(groups)).toEqual(await sqlite.catalog.groupStats(groups));
  });
});
