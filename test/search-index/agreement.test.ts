import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateDemoRecords } from '../../src/demo/generate.js';
import { IndexedSearch } from '../../src/catalog/search-index/indexed-search.js';
import { createSqliteStore } from '../../src/store/sqlite/index.js';
import type { ListingFilter, SearchQuery, SortKey, Store } from '../../src/store/types.js';
import { rec } from '../helpers/records.js';
import { StoreVocabulary } from '../../src/catalog/search-vocabulary.js';
import { forgivingQuery, widened } from '../../src/domain/search-text.js';
import { ingest } from '../store/contract.js';

/**
 * The index must answer exactly what the store's own search (FTS5, bm25) answers: the same totals
 * and facets, the same pages for every sort, and for relevance the same order to the last listing.
 */
let store: Store;
let index: IndexedSearch;

beforeAll(async () => {
  const records = [...generateDemoRecords({ listings: 3000, seed: 11, now: new Date('2026-11-20T00:00:00.000Z') })] as unknown as Array<Record<string, unknown>>;
  store = createSqliteStore(':memory:');
  await store.migrate();
  await ingest(store, records, 500);
  index = new IndexedSearch(store.catalog, store.events);
  await index.build();
}, 120_000);

afterAll(async () => {
  await store?.close();
});

async function both(q: SearchQuery) {
  const a = await store.catalog.search(q);
  const b = await index.search(q);
  if (!b) throw new Error('the index declined a query it holds every filter of');
  return { store: { ids: a.listings.map((l) => l.id), total: a.total, facets: a.facets }, index: b };
}

const TEXTS = ['samsung', 'phone', 'galaxy phone', 'apple iphone', 'wireless headphones', 'coffee', 'laptop 16gb', 'xiaomi',
  'shoes', 'zzzz nothing', 'bluetooth speaker', 'electronics', 'beauty', 'pro', 'black 128gb', 'Điện thoại', '!!!', 'the'];
const FILTERS: ListingFilter[] = [
  {}, { inStock: true }, { inStock: false }, { sources: ['shopee_sg', 'lazada_my'] }, { excludeSources: ['shopee_sg'] },
  { categoryLike: 'phone' }, { categoryExact: 'electronics' }, { brandLike: 'sam' }, { brandExact: 'apple' },
  { minPriceSgdMinor: 5000, maxPriceSgdMinor: 50000 }, { minDiscountPct: 10 }, { countries: ['SG', 'MY'] },
  { minHistoryDiscountPct: 1 }, { domain: 'shopee.sg' }, { inStock: true, countries: ['TH'], minPriceSgdMinor: 1000 },
];
const SORTS: SortKey[] = ['relevance', 'price_asc', 'price_desc', 'newest', 'rating', 'reviews', 'discount_desc', 'deal_desc'];

describe('the search index agrees with the store', () => {
  it('relevance: the same order, totals and facets for every text and filter', async () => {
    let nonEmpty = 0;
    for (const text of TEXTS) {
      for (const filter of FILTERS) {
        for (const [offset, limit] of [[0, 20], [15, 100]]) {
          const r = await both({ text, filter, sort: 'relevance', limit, offset, facets: true });
          expect({ text, filter, offset, ...r.index }).toEqual({ text, filter, offset, ...r.store });
          if (r.store.total) nonEmpty++;
        }
      }
    }
    expect(nonEmpty).toBeGreaterThan(100);
  });

  it('the one-word fast path gives the same pages as the full ranking', async () => {
    for (const text of ['samsung', 'phone', 'pro', 'black', 'electronics', 'the', 'nothingatall']) {
      for (const [offset, limit] of [[0, 1], [0, 20], [20, 20], [95, 100]]) {
        const r = await both({ text, filter: {}, sort: 'relevance', limit, offset });
        expect({ text, offset, ...r.index }).toEqual({ text, offset, ...r.store, facets: undefined });
      }
    }
  });

  it('every other sort, with and without text, and deep paging by id', async () => {
    for (const sort of SORTS) {
      for (const filter of FILTERS.slice(0, 8)) {
        for (const text of [undefined, 'samsung', 'phone case']) {
          const r = await both({ text, filter, sort, limit: 30, offset: 10, facets: text === undefined });
          expect({ sort, filter, text, ...r.index }).toEqual({ sort, filter, text, ...r.store });
          for (const afterId of [1, 100, 2999, 5000]) {
            const k = await both({ text, filter, sort, limit: 20, offset: 0, afterId });
            expect({ sort, filter, text, afterId, ...k.index }).toEqual({ sort, filter, text, afterId, ...k.store, facets: undefined });
          }
        }
      }
    }
  });

  it('products first and accessories left out (issue 18 item 14): the same pages, the fast path included', async () => {
    let reordered = 0;
    for (const text of [...TEXTS, 'case', 'galaxy', 'iphone', 'case for', 'otterbox']) {
      for (const filter of [{}, { inStock: true }, { excludeAccessories: true }, { categoryLike: 'phone', excludeAccessories: true }]) {
        for (const [offset, limit] of [[0, 1], [0, 20], [15, 100]]) {
          const r = await both({ text, filter, sort: 'relevance', limit, offset, productsFirst: true });
          expect({ text, filter, offset, ...r.index }).toEqual({ text, filter, offset, ...r.store });
          const plain = await both({ text, filter, sort: 'relevance', limit, offset });
          if (JSON.stringify(plain.store.ids) !== JSON.stringify(r.store.ids)) reordered++;
        }
      }
      const p = await both({ text, filter: { excludeAccessories: true }, sort: 'price_asc', limit: 5, offset: 0, facets: true });
      expect({ text, ...p.index }).toEqual({ text, ...p.store });
    }
    expect(reordered).toBeGreaterThan(5);
  });

  it('counts the categories as the store does', async () => {
    const sorted = (cs: Array<{ path: string[]; count: number }>) => cs.map((c) => `${JSON.stringify(c.path)} ${c.count}`).sort();
    const fromStore = await store.catalog.categories();
    expect(fromStore.length).toBeGreaterThan(10);
    expect(sorted((await index.categories())!)).toEqual(sorted(fromStore));
  });

  it('leaves to the store the filters it does not hold', async () => {
    expect(await index.search({ filter: { ids: [1, 2] }, sort: 'newest', limit: 5, offset: 0 })).toBeNull();
    expect(await index.search({ filter: { modifiedSince: '2026-11-01T00:00:00.000Z' }, sort: 'newest', limit: 5, offset: 0 })).toBeNull();
  });
});

describe('the index follows the store', () => {
  let s: Store;
  let ix: IndexedSearch;
  const ids = async (text: string, filter: ListingFilter = {}) => (await ix.search({ text, filter, sort: 'relevance', limit: 50, offset: 0 }))!;

  beforeAll(async () => {
    s = createSqliteStore(':memory:');
    await s.migrate();
    await ingest(s, [rec({ sku: 'K1', title: 'Philips Electric Kettle 1.7L', brand: 'Philips', price: '59.00' })]);
    ix = new IndexedSearch(s.catalog, s.events);
    await ix.build();
  });

  afterAll(async () => {
    await s?.close();
  });

  it('sees a listing as soon as it is committed, by any writer', async () => {
    expect((await ids('toaster')).total).toBe(0);
    await ingest(s, [rec({ sku: 'T1', title: 'Breville Toaster 4 slice', brand: 'Breville', price: '89.00' })]);
    const r = await ids('toaster');
    expect(r.total).toBe(1);
    expect(r.ids).toEqual([(await s.catalog.getBySku('T1'))[0].id]);
  });

  it('moves a listing whose title changed off its old words, and re-prices it', async () => {
    await ingest(s, [rec({ sku: 'K1', title: 'Philips Glass Jug 1.7L', brand: 'Philips', price: '49.00', observed_at: '2026-11-21T10:00:00.000Z' })]);
    expect((await ids('kettle')).total).toBe(0);
    expect((await ids('jug')).total).toBe(1);
    expect((await ids('philips', { maxPriceSgdMinor: 5000 })).total).toBe(1);
    expect((await ids('philips', { maxPriceSgdMinor: 4899 })).total).toBe(0);
    const q: SearchQuery = { text: 'philips jug', filter: {}, sort: 'relevance', limit: 10, offset: 0, facets: true };
    expect(await ix.search(q)).toEqual({ ids: (await s.catalog.search(q)).listings.map((l) => l.id), total: 1, facets: (await s.catalog.search(q)).facets });
  });

  it('without a head read per search: its own writes at once (marked), others once the tail catches it up', async () => {
    const lazy = new IndexedSearch(s.catalog, s.events, { head: 'own-writes' });
    await lazy.build();
    const total = async (text: string) => (await lazy.search({ text, filter: {}, sort: 'relevance', limit: 5, offset: 0 }))!.total;
    await ingest(s, [rec({ sku: 'L1', title: 'Lazy blender one', brand: 'Bosch' })]);
    expect(await total('blender')).toBe(0);
    lazy.markStale();
    expect(await total('blender')).toBe(1);
    await ingest(s, [rec({ sku: 'L2', title: 'Lazy blender two', brand: 'Bosch' })]);
    void lazy.catchUp();
    expect(await total('blender')).toBe(2);
  });

  it('once a turn: the searches of one turn share a read of the head; the next turn, or an own write, reads it again', async () => {
    let reads = 0;
    const events = Object.create(s.events, { lastId: { value: () => (reads++, s.events.lastId()) } }) as typeof s.events;
    const turn = new IndexedSearch(s.catalog, events, { head: 'turn' });
    await turn.build();
    await new Promise((resolve) => setImmediate(resolve));
    const total = async (text: string) => (await turn.search({ text, filter: {}, sort: 'relevance', limit: 5, offset: 0 }))!.total;
    reads = 0;
    // One request's search after another's, as a server handles a turn's requests: one read.
    for (const text of ['kettle', 'jug', 'philips']) await total(text);
    expect(reads).toBe(1);
    await new Promise((resolve) => setImmediate(resolve));
    await ingest(s, [rec({ sku: 'TT1', title: 'Turnstile toaster', brand: 'Bosch' })]);
    await new Promise((resolve) => setImmediate(resolve));
    expect(await total('turnstile')).toBe(1);
    expect(reads).toBe(2);
    turn.markStale();
    await total('turnstile');
    expect(reads).toBe(3);
  });

  it('folds compatibility forms as the store does, in its tokens and its ranking', async () => {
    await ingest(s, [
      rec({ sku: 'W1', title: 'ＵＳＢ－Ｃ Charging Cable ﬁber braided ＵＳＢ', brand: 'Ａｎｋｅｒ', category: 'Ｃａｂｌｅｓ', category_path: null }),
      rec({ sku: 'W2', title: 'USB hub 4 port ｶﾞｼﾞｪｯﾄ', brand: 'Anker' }),
      rec({ sku: 'W3', title: 'Kettle ²⁰²⁶ edition ① usb', brand: 'Philips' }),
    ]);
    for (const text of ['usb', 'ＵＳＢ', 'fiber cable', 'anker', 'cables', 'ガジェット', '2026', '1 usb']) {
      const q: SearchQuery = { text, filter: {}, sort: 'relevance', limit: 40, offset: 0 };
      const store = await s.catalog.search(q);
      expect(store.total).toBeGreaterThan(0);
      expect({ text, ...(await ix.search(q)) }).toEqual({ text, ids: store.listings.map((l) => l.id), total: store.total });
    }
  });

  it('counts categories as the store does after listings move between them', async () => {
    const sorted = (cs: Array<{ path: string[]; count: number }>) => cs.map((c) => `${JSON.stringify(c.path)} ${c.count}`).sort();
    await ingest(s, [
      rec({ sku: 'C1', title: 'Plain rice cooker', category: 'Rice Cookers', category_path: null }),
      rec({ sku: 'C2', title: 'Nameless gadget', category: null, category_path: null }),
      rec({ sku: 'C3', title: 'Moved kettle', category: 'Kettles', category_path: ['Home', 'Kitchen', 'Kettles'] }),
    ]);
    expect(sorted((await ix.categories())!)).toEqual(sorted(await s.catalog.categories()));
    await ingest(s, [rec({ sku: 'C3', title: 'Moved kettle', category: 'Jugs', category_path: ['Home', 'Jugs'], observed_at: '2026-11-22T11:00:00.000Z' })]);
    const after = await s.catalog.categories();
    expect(after.some((c) => c.path.join('/') === 'Home/Jugs')).toBe(true);
    expect(sorted((await ix.categories())!)).toEqual(sorted(after));
  });

  it('ranks the same as the store after many changes', async () => {
    const more = Array.from({ length: 300 }, (_, i) => rec({
      sku: `M${i}`, title: `${['Philips', 'Sony', 'Samsung'][i % 3]} ${['Kettle', 'Jug', 'Speaker', 'Phone'][i % 4]} model ${i % 17} ${i % 2 ? 'black' : ''}`,
      brand: ['Philips', 'Sony', 'Samsung'][i % 3], price: `${10 + i}.50`,
    }));
    await ingest(s, more);
    await ingest(s, more.slice(0, 100).map((r, i) => ({ ...r, title: `${r.title as string} renamed ${i % 5}`, observed_at: '2026-11-22T10:00:00.000Z' })));
    for (const text of ['philips', 'kettle', 'black', 'renamed', 'model 3', 'sony speaker black']) {
      const q: SearchQuery = { text, filter: {}, sort: 'relevance', limit: 40, offset: 0 };
      expect({ text, ...(await ix.search(q)) }).toEqual({ text, ids: (await s.catalog.search(q)).listings.map((l) => l.id), total: (await s.catalog.search(q)).total });
    }
  });

  it('forgiving queries (docs/search.md): the same expansion, order, totals and facets, the second tier alone too', async () => {
    const storeVocab = await new StoreVocabulary(store.catalog).lookup();
    let widenedNonEmpty = 0;
    for (const text of ['samsnug galaxy', 'wireles headphnes', 'blutooth speker', 'samsung gal', 'tv', 'earphones', 'iphone 15', 'dien thoai',
      'laptop 16gb', 'xiaomi redm', 'galaxy s2', 'phone', 'coffe maker', 'bluetooth', 'smartphone', 'wirelss']) {
      const terms = (await index.forgiving(text))!.terms!;
      expect(forgivingQuery(text, storeVocab), text).toEqual(terms);
      for (const filter of [{}, { inStock: true }, { countries: ['SG', 'MY'] }] as ListingFilter[]) {
        for (const productsFirst of [false, true]) {
          for (const exceptExact of [false, true]) {
            const r = await both({ text, terms, exceptExact, filter, sort: 'relevance', limit: 30, offset: 0, facets: true, productsFirst });
            expect({ text, filter, exceptExact, ...r.index }).toEqual({ text, filter, exceptExact, ...r.store });
            if (r.store.total && exceptExact && widened(terms)) widenedNonEmpty++;
          }
        }
        const p = await both({ text, terms, filter, sort: 'price_asc', limit: 10, offset: 5 });
        expect({ text, ...p.index }).toEqual({ text, ...p.store });
      }
    }
    expect(widenedNonEmpty).toBeGreaterThan(15);
  });

});
