import { Readable } from 'node:stream';
import { beforeEach, describe, expect, it } from 'vitest';
import { shippedRates } from '../../src/catalog/fx-service.js';
import { groupOffersOf, offerOfListing, offeredSince } from '../../src/domain/buybox.js';
import { docOf } from '../../src/catalog/search-index/indexed-search.js';
import { IngestService } from '../../src/catalog/ingest.js';
import { isAccessoryListing } from '../../src/domain/accessory.js';
import type { Listing } from '../../src/domain/listing.js';
import type { MerchantOffer, SearchQuery, Store } from '../../src/store/types.js';
import { rec } from '../helpers/records.js';
import { freshStore } from './fresh-store.js';

/** Imports records through the real normalization and the store's batch writer. */
export async function ingest(store: Store, lines: Array<Record<string, unknown>>, batchSize = 1000) {
  const text = lines.map((l) => JSON.stringify(l)).join('\n');
  return new IngestService(store.catalog, shippedRates).ingestStream(Readable.from([text]), {
    batchSize, now: () => new Date('2026-11-20T12:00:00.000Z'),
  });
}

/** A listing as groupMerchants reads it. */
const merchantOfListing = (l: Listing): MerchantOffer => ({
  id: l.id, source: l.source, merchantId: l.merchantId, price: l.price, currency: l.currency, priceSgd: l.priceSgd, url: l.url,
  affiliateUrl: l.affiliateUrl, rating: l.rating, reviewCount: l.reviewCount, inStock: l.inStock, lastCheckedAt: l.lastCheckedAt, accessory: isAccessoryListing(l),
});

const q = (over: Partial<SearchQuery> = {}): SearchQuery => ({ filter: {}, sort: 'relevance', limit: 50, offset: 0, ...over });
const at = (day: number, hour = 10) => `2026-11-${String(day).padStart(2, '0')}T${String(hour).padStart(2, '0')}:00:00.000Z`;

const FIXTURE = [
  rec({ sku: 'A1', source: 'shopee_sg', title: 'Samsung Galaxy A55 5G 128GB Navy', price: '499.00', brand: 'Samsung', rating: 4.6 }),
  rec({ sku: 'A2', source: 'lazada_sg', title: 'Samsung Galaxy A55 5G 128GB Navy', price: '479.00', brand: 'Samsung', rating: 4.2 }),
  rec({ sku: 'B1', source: 'amazon_sg', title: 'Apple iPhone 15 128GB Black', price: '1199.00', brand: 'Apple', rating: 4.8, in_stock: false, stock_level: 'out' }),
  rec({ sku: 'C1', source: 'shopee_sg', title: 'Sony WH-1000XM5 Wireless Headphones', price: '399.00', brand: 'Sony', rating: 3.5,
    category: 'Headphones', category_path: ['Electronics', 'Audio', 'Headphones'] }),
  rec({ sku: 'D1', source: 'lazada_sg', title: 'Café Crème Coffee Beans 1kg', price: '9.50', brand: 'Nescafé', rating: null, review_count: null,
    category: 'Coffee', category_path: ['Groceries', 'Beverages', 'Coffee'] }),
];

/** What every store adapter must do, identically. `makeStore` returns a fresh, empty, migrated store. */
export function storeContract(name: string, makeStore: () => Promise<Store>): void {
  describe(`store contract: ${name}`, () => {
    const fresh = freshStore(makeStore);
    let store: Store;
    beforeEach(() => {
      store = fresh();
    });

    it('migrate is safe to run again', async () => {
      await store.migrate();
      expect(await store.catalog.count()).toBe(0);
    });

    it('inserts, updates and leaves unchanged records by (source, sku), with ids in import order', async () => {
      const first = await ingest(store, [rec({ sku: 'X1' }), rec({ sku: 'X2', source: 'lazada_sg' })]);
      expect(first).toMatchObject({ inserted: 2, updated: 0, unchanged: 0, rejected: 0 });
      const again = await ingest(store, [rec({ sku: 'X1' }), rec({ sku: 'X2', source: 'lazada_sg', title: 'Other title', observed_at: at(20, 11) })]);
      expect(again).toMatchObject({ inserted: 0, updated: 1, unchanged: 1 });
      expect(await store.catalog.count()).toBe(2);
      const [a, b] = await store.catalog.getMany([1, 2]);
      expect(a.sku).toBe('X1');
      expect(b.title).toBe('Other title');
      expect(await store.catalog.getByUuid(a.uuid)).toEqual(a);
      expect(await store.catalog.getById(99)).toBeNull();
    });

    it('an unchanged record later in time only moves last_checked_at', async () => {
      await ingest(store, [rec()]);
      await ingest(store, [rec({ observed_at: at(21) })]);
      const l = (await store.catalog.getById(1))!;
      expect(l.lastCheckedAt).toBe(at(21));
      expect(l.updatedAt).toBe(at(20));
    });

    it('every read sees a later check; an earlier one never lowers it, a change moves it on', async () => {
      await ingest(store, [rec(), rec({ sku: 'X2', source: 'lazada_sg' })]);
      await ingest(store, [rec({ observed_at: at(21) })]);
      await ingest(store, [rec({ observed_at: at(20, 18) })]);
      const checked = async () => {
        const c = store.catalog;
        const [one] = await c.getMany([1]);
        const scanned: string[] = [];
        for await (const x of c.scan({}, 1, 0)) scanned.push(x.lastCheckedAt);
        const sampled = (await c.sample({ ids: [1] }, 1, 3)).listings.map((x) => x.lastCheckedAt);
        const group = (await c.groupMembers(one.groupId)).find((x) => x.id === 1)!;
        const merchant = (await c.groupMerchants(one.groupId)).find((x) => x.id === 1)!;
        const offers = (await c.groupOffers([one.groupId], at(1))).get(one.groupId)!;
        return [
          (await c.getById(1))!.lastCheckedAt, one.lastCheckedAt, (await c.getByUuid(one.uuid))!.lastCheckedAt,
          (await c.getBySku('SKU-1'))[0].lastCheckedAt, (await c.latestBy('sku', ['SKU-1'])).get('SKU-1')!.lastCheckedAt,
          ...scanned, ...sampled, group.lastCheckedAt, merchant.lastCheckedAt, offers.cheapest!.lastCheckedAt,
          (await c.getSized(1))!.listing.lastCheckedAt,
        ];
      };
      expect(await checked()).toEqual(Array(11).fill(at(21)));
      expect((await store.catalog.getById(2))!.lastCheckedAt).toBe(at(20));
      await ingest(store, [rec({ price: '449.00', observed_at: at(22) })]);
      expect(await checked()).toEqual(Array(11).fill(at(22)));
      await ingest(store, [rec({ price: '449.00', observed_at: at(23) })]);
      expect(await checked()).toEqual(Array(11).fill(at(23)));
    });

    it('a price change appends an observation and a price_change event in the same batch', async () => {
      await ingest(store, [rec({ price: '499.00' })]);
      await ingest(store, [rec({ price: '449.00', observed_at: at(21) }), rec({ price: '429.00', observed_at: at(22) })]);
      const l = (await store.catalog.getById(1))!;
      expect(l.price).toBe('429.00');
      expect(l.priceTrend).toBe('down');
      const obs = await store.catalog.observations(1, at(1), { limit: 10, offset: 0 });
      expect(obs.total).toBe(3);
      expect(obs.entries.map((o) => o.price)).toEqual(['429.00', '449.00', '499.00']);
      const events = await store.events.readAfter(0, 100);
      expect(events.map((e) => e.change.kind)).toEqual(['product_update', 'product_update', 'price_change', 'product_update', 'price_change']);
      expect(events.map((e) => e.id)).toEqual([1, 2, 3, 4, 5]);
      expect(await store.events.lastId()).toBe(5);
      expect((await store.events.readAfter(3, 100, ['price_change'])).map((e) => e.id)).toEqual([5]);
      expect(events[2].change).toMatchObject({ kind: 'price_change', oldPrice: '499.00', newPrice: '449.00' });
    });

    it('two records of one listing in one batch: the second sees the first', async () => {
      const s = await ingest(store, [rec({ price: '10.00' }), rec({ price: '12.00', observed_at: at(21) }), rec({ price: '12.00', observed_at: at(22) })]);
      expect(s).toMatchObject({ inserted: 1, updated: 1, unchanged: 1 });
      expect((await store.catalog.getById(1))!.lastCheckedAt).toBe(at(22));
    });

    it('search requires every word, and filters, facets and sorts agree', async () => {
      await ingest(store, FIXTURE);
      const ids = async (query: Partial<SearchQuery>) => (await store.catalog.search(q(query))).listings.map((l) => l.sku);
      expect((await ids({ text: 'samsung navy', sort: 'price_asc' }))).toEqual(['A2', 'A1']);
      expect(await ids({ text: 'samsung iphone' })).toEqual([]);
      expect(await ids({ text: '!!!' })).toEqual([]);
      expect(await ids({ text: 'cafe' })).toEqual(['D1']);
      expect(await ids({ text: 'headphones' })).toEqual(['C1']);
      expect(await ids({ text: 'electronics', sort: 'price_desc' })).toEqual(['B1', 'A1', 'A2', 'C1']);
      expect(await ids({ filter: { sources: ['lazada_sg'] }, sort: 'price_asc' })).toEqual(['D1', 'A2']);
      expect(await ids({ filter: { brandLike: 'SAMS' }, sort: 'price_asc' })).toEqual(['A2', 'A1']);
      expect(await ids({ filter: { categoryLike: 'audio' } })).toEqual(['C1']);
      expect(await ids({ filter: { categoryExact: 'mobile-phones' }, sort: 'price_asc' })).toEqual(['A2', 'A1', 'B1']);
      expect(await ids({ filter: { inStock: false } })).toEqual(['B1']);
      expect(await ids({ filter: { minPriceSgdMinor: 40000, maxPriceSgdMinor: 49900 }, sort: 'price_asc' })).toEqual(['A2', 'A1']);
      expect(await ids({ filter: { excludeSources: ['shopee_sg', 'lazada_sg'] } })).toEqual(['B1']);
      expect(await ids({ sort: 'rating' })).toEqual(['B1', 'A1', 'A2', 'C1', 'D1']);
      expect(await ids({ text: 'samsung', sort: 'price_asc', afterId: 2 })).toEqual(['A1']);
      const r = await store.catalog.search(q({ text: 'samsung', facets: true, limit: 1 }));
      expect(r.total).toBe(2);
      expect(r.listings).toHaveLength(1);
      expect(r.facets!.platform).toEqual([{ value: 'lazada_sg', count: 1 }, { value: 'shopee_sg', count: 1 }]);
      expect(r.facets!.rating.map((b) => b.count)).toEqual([2, 2, 2, 2]);
      expect(r.facets!.price.find((b) => b.range === '100 to 500')!.count).toBe(2);
      const all = await store.catalog.search(q({ facets: true }));
      expect(all.total).toBe(5);
      expect(all.facets!.brand[0]).toEqual({ value: 'Samsung', count: 2 });
      expect(all.facets!.category).toEqual([
        { value: 'Smartphones', count: 3 }, { value: 'Coffee', count: 1 }, { value: 'Headphones', count: 1 },
      ]);
    });

    it('search folds compatibility forms: fullwidth, halfwidth and ligature text is found by its plain words, and the other way round', async () => {
      await ingest(store, [
        rec({ sku: 'W1', title: 'ＵＳＢ－Ｃ Charging Cable ﬁber braided', brand: 'Ａｎｋｅｒ', category: 'Ｃａｂｌｅｓ', category_path: null }),
        rec({ sku: 'W2', title: 'USB hub 4 port ｶﾞｼﾞｪｯﾄ', brand: 'Anker' }),
      ]);
      const skus = async (text: string) => (await store.catalog.search(q({ text }))).listings.map((l) => l.sku).sort();
      expect(await skus('usb')).toEqual(['W1', 'W2']);
      expect(await skus('ＵＳＢ')).toEqual(['W1', 'W2']);
      expect(await skus('ｕｓｂ ｈｕｂ')).toEqual(['W2']);
      expect(await skus('fiber cable')).toEqual(['W1']);
      expect(await skus('anker cables')).toEqual(['W1']);
      expect(await skus('ガジェット')).toEqual(['W2']);
    });

    it('search folds đ to d in titles, brands and category paths, and in queries (issue 18 item 16)', async () => {
      await ingest(store, [
        rec({ sku: 'V1', source: 'tiki_vn', title: 'Điện thoại Samsung Galaxy A55', price: '9990000', currency: 'VND', country_code: 'VN',
          category: 'Điện thoại', category_path: ['Điện thoại & Máy tính bảng', 'Điện thoại'] }),
        rec({ sku: 'V2', source: 'tiki_vn', title: 'Quạt Asia Fan', brand: 'Điện Quang', price: '590000', currency: 'VND', country_code: 'VN' }),
      ]);
      const skus = async (text: string) => (await store.catalog.search(q({ text }))).listings.map((l) => l.sku).sort();
      for (const text of ['dien thoai', 'điện thoại', 'ĐIỆN THOẠI samsung', 'may tinh bang']) expect(await skus(text), text).toEqual(['V1']);
      expect(await skus('dien quang')).toEqual(['V2']);
      expect(await skus('dien')).toEqual(['V1', 'V2']);
      expect((await store.catalog.search(q({ filter: { categoryExact: 'dien-thoai' } }))).listings.map((l) => l.sku)).toEqual(['V1']);
    });

    it('accessories: flagged at ingest, after the products when asked, left out by the filter (issue 18 item 14)', async () => {
      await ingest(store, [
        ...FIXTURE.slice(0, 2),
        rec({ sku: 'CS1', source: 'shopee_sg', title: 'Galaxy A55 Case Samsung Galaxy A55 Cover', brand: 'Spigen', price: '19.90',
          category: 'Phone Cases', category_path: ['Electronics', 'Phone Cases'] }),
        rec({ sku: 'CS2', source: 'lazada_sg', title: 'Tempered glass screen protector for Samsung Galaxy A55 A55', brand: 'Ringke', price: '9.90', category: 'Screen Protectors' }),
      ]);
      const skus = async (over: Partial<SearchQuery>) => (await store.catalog.search(q({ text: 'galaxy a55', ...over }))).listings.map((l) => l.sku);
      expect((await skus({ productsFirst: true })).slice(0, 2).sort()).toEqual(['A1', 'A2']);
      expect((await skus({ productsFirst: true })).slice(2).sort()).toEqual(['CS1', 'CS2']);
      expect((await skus({ productsFirst: true, limit: 1, offset: 2 }))).toHaveLength(1);
      expect((await skus({ filter: { excludeAccessories: true } })).sort()).toEqual(['A1', 'A2']);
      expect(await skus({ filter: { excludeAccessories: true }, sort: 'price_asc' })).toEqual(['A2', 'A1']);
      expect((await store.catalog.searchDocs(0, 10)).map((d) => [d.id, d.accessory])).toEqual([[1, false], [2, false], [3, true], [4, true]]);
    });

    it('priceMoves: the listings whose price changed since a time, with the price before their first change (issue 18 item 17)', async () => {
      await ingest(store, [rec({ sku: 'M1', price: '100.00', observed_at: at(1) }), rec({ sku: 'M2', source: 'lazada_sg', price: '50.00', observed_at: at(1) }),
        rec({ sku: 'M3', source: 'amazon_sg', price: '10.00', observed_at: at(15) })]);
      await ingest(store, [rec({ sku: 'M1', price: '90.00', observed_at: at(5) })]);
      await ingest(store, [rec({ sku: 'M1', price: '80.00', observed_at: at(12) }), rec({ sku: 'M2', source: 'lazada_sg', price: '55.00', observed_at: at(12) })]);
      await ingest(store, [rec({ sku: 'M1', price: '70.00', observed_at: at(14) }), rec({ sku: 'M2', source: 'lazada_sg', price: '55.00', observed_at: at(16) })]);
      const moves = (await store.catalog.priceMoves(at(10), {})).sort((a, b) => a.id - b.id);
      expect(moves).toEqual([
        { id: 1, price: '70.00', currency: 'SGD', before: '90.00', beforeCurrency: 'SGD', changes: 2, lastChangeAt: at(14) },
        { id: 2, price: '55.00', currency: 'SGD', before: '50.00', beforeCurrency: 'SGD', changes: 1, lastChangeAt: at(12) },
      ]);
      expect(await store.catalog.priceMoves(at(13), { sources: ['lazada_sg'] })).toEqual([]);
      expect(await store.catalog.priceMoves(at(20), {})).toEqual([]);
    });

    it('a listing moved to another category path is searched by the new path\'s words, its category the same', async () => {
      const headphones = { sku: 'H1', title: 'Sony WH-1000XM5', category: 'Headphones' };
      await ingest(store, [rec({ ...headphones, category_path: ['Electronics', 'Audio', 'Headphones'] })]);
      await ingest(store, [rec({ ...headphones, category_path: ['Gaming', 'Accessories', 'Headphones'], observed_at: at(21) })]);
      const skus = async (text: string) => (await store.catalog.search(q({ text }))).listings.map((l) => l.sku);
      expect(await skus('gaming accessories')).toEqual(['H1']);
      expect(await skus('electronics')).toEqual([]);
    });

    it('searchDocs: the search columns of every listing in id order, as a search index derives them from the listing', async () => {
      await ingest(store, [
        ...FIXTURE,
        rec({ sku: 'N1', source: 'tiki_vn', title: 'Nồi cơm điện Sharp', brand: null, category: 'Rice Cookers', category_path: null, price: '1290000', currency: 'VND', rating: null, review_count: null, in_stock: null, original_price: '1500000' }),
      ]);
      const all = await store.catalog.searchDocs(0, 1000);
      expect(all.map((d) => d.id)).toEqual(Array.from({ length: FIXTURE.length + 1 }, (_, i) => i + 1));
      expect(all).toEqual((await store.catalog.getMany(all.map((d) => d.id))).map(docOf));
      // titles: getMany's order and absences, four columns of each row.
      const wanted = [3, 999, 1, 3, 2];
      const full = await store.catalog.getMany(wanted);
      expect(await store.catalog.titles(wanted)).toEqual(full.map((l) => ({ id: l.id, groupId: l.groupId, brand: l.brand, title: l.title })));
      expect(await store.catalog.titles([])).toEqual([]);
      expect((await store.catalog.searchDocs(2, 2)).map((d) => d.id)).toEqual([3, 4]);
      expect(all.at(-1)).toMatchObject({ brand: null, categoryText: 'Rice Cookers', rating: null, inStock: null, discountPct: 14 });
    });

    it('page keeps its place while listings are inserted', async () => {
      await ingest(store, Array.from({ length: 7 }, (_, i) => rec({ sku: `P${i}`, price: `${100 + i}.00` })));
      const first = await store.catalog.page({}, 'price_asc', null, 3, 0);
      expect(first.total).toBe(7);
      expect(first.listings.map((l) => l.sku)).toEqual(['P0', 'P1', 'P2']);
      await ingest(store, [rec({ sku: 'CHEAP', price: '1.00' }), rec({ sku: 'MID', price: '103.50' })]);
      const second = await store.catalog.page({}, 'price_asc', first.next, 3, 0);
      expect(second.listings.map((l) => l.sku)).toEqual(['P3', 'MID', 'P4']);
      const newest = await store.catalog.page({}, 'newest', null, 4, 0);
      const next = await store.catalog.page({}, 'newest', newest.next, 10, 0);
      expect(new Set([...newest.listings, ...next.listings].map((l) => l.id)).size).toBe(9);
      expect(next.next).toBeNull();
    });

    it('scan streams in id order from an offset; sample is reproducible', async () => {
      await ingest(store, FIXTURE);
      const scanned: number[] = [];
      for await (const l of store.catalog.scan({}, 3, 1)) scanned.push(l.id);
      expect(scanned).toEqual([2, 3, 4]);
      const a = await store.catalog.sample({}, 3, 7);
      const b = await store.catalog.sample({}, 3, 7);
      expect(a.total).toBe(5);
      expect(a.listings.map((l) => l.id)).toEqual(b.listings.map((l) => l.id));
    });

    it('getBySku, groupMembers, groupStats and categories', async () => {
      await ingest(store, [...FIXTURE, rec({ sku: 'A1', source: 'amazon_sg', title: 'Samsung Galaxy A55 5G 128GB Navy', price: '489.00' })]);
      const bySku = await store.catalog.getBySku('A1');
      expect(bySku.map((l) => l.source).sort()).toEqual(['amazon_sg', 'shopee_sg']);
      const a1 = bySku.find((l) => l.source === 'shopee_sg')!;
      const members = await store.catalog.groupMembers(a1.groupId);
      expect(members.map((l) => l.sku).sort()).toEqual(['A1', 'A1', 'A2']);
      const stats = await store.catalog.groupStats([a1.groupId, a1.groupId]);
      expect(stats.get(a1.groupId)).toEqual({ size: 3, minPriceSgdMinor: 47900 });
      expect(await store.catalog.groupMerchants(a1.groupId)).toEqual(members.map(merchantOfListing));
      expect(await store.catalog.groupMerchants(999_999)).toEqual([]);
      // A listing with its group's size, as getById and groupStats read them apart.
      for (const l of bySku) {
        const size = (await store.catalog.groupStats([l.groupId])).get(l.groupId)!.size;
        expect(await store.catalog.getSized(l.id)).toEqual({ listing: l, groupSize: size });
      }
      const alone = (await store.catalog.getBySku('C1'))[0];
      expect((await store.catalog.getSized(alone.id))!.groupSize).toBe(1);
      expect(await store.catalog.getSized(999_999)).toBeNull();
      const cats = await store.catalog.categories();
      expect(cats.find((c) => c.path.join('/') === 'Electronics/Mobile Phones/Smartphones')?.count).toBe(4);
      expect(cats).toHaveLength(3);
    });

    it('groupMerchants: the members as merchant offers, each with its accessory flag as the rule gives it', async () => {
      const a55 = (over: Record<string, unknown>) => rec({ title: 'Samsung Galaxy A55 5G 128GB Navy', brand: 'Samsung', ...over });
      await ingest(store, [
        a55({ sku: 'P1', price: '499.00', in_stock: false, merchant_id: 'shop-1', affiliate_url: 'https://aff.example/p1', rating: 4.5, review_count: 12 }),
        a55({ sku: 'P2', source: 'lazada_sg', price: '489.00' }),
        a55({ sku: 'P3', source: 'amazon_sg', title: 'Case for Samsung Galaxy A55 5G 128GB Navy', price: '19.00' }),
        a55({ sku: 'P4', source: 'qoo10_sg', price: '479.00', category: 'Phone Cases', category_path: ['Electronics', 'Mobile Accessories', 'Phone Cases'] }),
      ]);
      const p1 = (await store.catalog.getBySku('P1'))[0];
      const members = await store.catalog.groupMembers(p1.groupId);
      const merchants = await store.catalog.groupMerchants(p1.groupId);
      expect(merchants).toEqual(members.map(merchantOfListing));
      const flagged = new Map(merchants.map((m) => [m.id, m.accessory]));
      for (const l of members) expect(flagged.get(l.id)).toBe(isAccessoryListing(l));
      expect(merchants.filter((m) => m.accessory).length).toBeGreaterThan(0);
      expect(merchants.find((m) => m.id === p1.id)).toMatchObject({ inStock: false, merchantId: 'shop-1', affiliateUrl: 'https://aff.example/p1', rating: '4.5', reviewCount: 12 });
    });

    it('groupOffers: every group of a page in one read, exactly groupOffersOf over its members', async () => {
      const a55 = (over: Record<string, unknown>) => rec({ title: 'Samsung Galaxy A55 5G 128GB Navy', ...over });
      await ingest(store, [
        ...FIXTURE,
        // Tied with A2 at the lowest price and checked later: it holds the box.
        a55({ sku: 'A3', source: 'amazon_sg', price: '479.00', observed_at: at(20, 11) }),
        // Cheaper, but out of stock, or not seen for over 30 days: no offers.
        a55({ sku: 'A4', source: 'qoo10_sg', price: '399.00', in_stock: false }),
        a55({ sku: 'A5', source: 'carousell_sg', price: '299.00', observed_at: '2026-10-01T10:00:00.000Z' }),
      ]);
      const now = new Date('2026-11-20T12:00:00.000Z');
      const all = await store.catalog.getMany(Array.from({ length: 20 }, (_, i) => i + 1));
      const groupIds = [...new Set(all.map((l) => l.groupId))];
      // Ids past the end and more of them than one SQLite statement takes change nothing.
      const found = await store.catalog.groupOffers([...groupIds, ...Array.from({ length: 600 }, (_, i) => 10_000 + i), groupIds[0]], offeredSince(now));
      expect([...found.keys()].sort()).toEqual(groupIds.slice().sort());
      for (const g of groupIds) {
        const members = all.filter((l) => l.groupId === g).map((l) => ({ ...offerOfListing(l), inStock: l.inStock }));
        expect(found.get(g)).toEqual(groupOffersOf(members, now));
      }
      const phone = found.get(all[0].groupId)!;
      expect(phone.size).toBe(5);
      expect(phone.offers).toBe(3);
      expect(phone.cheapest).toEqual({ listingId: 6, price: '479.00', currency: 'SGD', priceSgdMinor: 47900, lastCheckedAt: at(20, 11) });
      const iphone = found.get(all[2].groupId)!;
      expect(iphone).toEqual({ size: 1, offers: 0, cheapest: null });
      expect(await store.catalog.groupOffers([], offeredSince(now))).toEqual(new Map());
    });

    it('observationsFor: each listing\'s observations since a time and the one in force then, in one read', async () => {
      await ingest(store, [rec({ price: '499.00', observed_at: at(1) }), rec({ sku: 'X2', source: 'lazada_sg', price: '10.00', observed_at: at(2) })]);
      await ingest(store, [rec({ price: '449.00', observed_at: at(5) }), rec({ price: '429.00', observed_at: at(10) }), rec({ price: '439.00', observed_at: at(12) })]);
      const pairs = (m: Map<number, Array<{ observedAt: string; price: string }>>, id: number) => m.get(id)?.map((o) => [o.observedAt, o.price]);
      const found = await store.catalog.observationsFor([1, 2, 99, 1, ...Array.from({ length: 600 }, (_, i) => 1000 + i)], at(6));
      expect(pairs(found, 1)).toEqual([[at(5), '449.00'], [at(10), '429.00'], [at(12), '439.00']]);
      expect(pairs(found, 2)).toEqual([[at(2), '10.00']]);
      expect(found.get(2)![0]).toEqual({ listingId: 2, observedAt: at(2), price: '10.00', currency: 'SGD', source: 'lazada_sg' });
      expect([...found.keys()].sort()).toEqual([1, 2]);
      expect(pairs(await store.catalog.observationsFor([1], at(1)), 1)).toHaveLength(4);
      // One at `since` itself is one of those since; the last before is still read.
      expect(pairs(await store.catalog.observationsFor([1], at(5)), 1)).toEqual([[at(1), '499.00'], [at(5), '449.00'], [at(10), '429.00'], [at(12), '439.00']]);
      expect(await store.catalog.observationsFor([], at(1))).toEqual(new Map());
    });

    it('fx replace keeps one table', async () => {
      expect(await store.fx.current()).toBeNull();
      const t = shippedRates();
      await store.fx.replace(t);
      await store.fx.replace(t);
      expect(await store.fx.current()).toEqual(t);
    });

    it('keys: create, find by hash and id, update', async () => {
      const k = await store.keys.create({ prefix: 'ck_test_1', hash: 'h1', name: 'n', tier: 'free', pendingTier: null, pendingTierAt: null, email: null, verified: false }, at(20));
      expect(k.id).toBe(1);
      expect(await store.keys.findByHash('h1')).toMatchObject({ id: 1, tier: 'free', verified: false, revokedAt: null, createdAt: at(20) });
      await store.keys.update(1, { tier: 'pro', verified: true, pendingTier: 'free', pendingTierAt: at(30) });
      expect(await store.keys.findById(1)).toMatchObject({ tier: 'pro', verified: true, pendingTier: 'free', pendingTierAt: at(30) });
      expect(await store.keys.findByHash('nope')).toBeNull();
    });

    it('keys: every committed key write moves the change count, and reads do not', async () => {
      const base = { name: null, tier: 'pro' as const, pendingTier: null, pendingTierAt: null, email: null, verified: true };
      const counts = [await store.keys.changeCount()];
      const k = await store.keys.create({ ...base, prefix: 'ck_c1', hash: 'hc1' }, at(20));
      counts.push(await store.keys.changeCount());
      await store.keys.findByHash('hc1');
      await store.keys.findById(k.id);
      counts.push(await store.keys.changeCount());
      await store.keys.update(k.id, { tier: 'free' });
      counts.push(await store.keys.changeCount());
      await store.accounts.rotateKey(k.id, { ...base, prefix: 'ck_c2', hash: 'hc2' }, at(21));
      counts.push(await store.keys.changeCount());
      expect(counts[1]).toBeGreaterThan(counts[0]);
      expect(counts[2]).toBe(counts[1]);
      expect(counts[3]).toBeGreaterThan(counts[2]);
      expect(counts[4]).toBeGreaterThan(counts[3]);
    });

    it('accounts: a rotation revokes the old key once and moves its OAuth clients', async () => {
      const base = { name: null, tier: 'pro' as const, pendingTier: null, pendingTierAt: null, email: null, verified: true };
      const old = await store.keys.create({ ...base, prefix: 'ck_p1', hash: 'h-old' }, at(20));
      await store.oauth.createClient({ clientId: 'c1', secretHash: 's', name: 'app', type: 'confidential', keyId: old.id, scope: 'read', createdAt: at(20) });
      const next = await store.accounts.rotateKey(old.id, { ...base, prefix: 'ck_p2', hash: 'h-new' }, at(21));
      expect(next).toMatchObject({ accountId: old.id, revokedAt: null });
      expect(await store.accounts.rotateKey(old.id, { ...base, prefix: 'ck_p3', hash: 'h-3' }, at(21))).toBeNull();
      expect((await store.keys.findById(old.id))!.revokedAt).toBe(at(21));
      expect((await store.oauth.findClient('c1'))!.keyId).toBe(next!.id);
      expect((await store.accounts.findByPrefix('ck_p2')).map((k) => k.id)).toEqual([next!.id]);
      await store.accounts.createVerification({ hash: 'v1', keyId: next!.id, email: 'a@b.c', expiresAt: at(22) });
      expect(await store.accounts.takeVerification('v1')).toMatchObject({ keyId: next!.id });
      expect(await store.accounts.takeVerification('v1')).toBeNull();
    });

    it('oauth tokens: create, find, revoke, purge', async () => {
      const key = await store.keys.create({ prefix: 'ck_o', hash: 'ho', name: null, tier: 'pro', pendingTier: null, pendingTierAt: null, email: null, verified: true }, at(20));
      await store.oauth.createClient({ clientId: 'c2', secretHash: null, name: 'pub', type: 'public', keyId: key.id, scope: '', createdAt: at(20) });
      await store.oauth.createToken({ hash: 't1', clientId: 'c2', keyId: key.id, scope: '', issuedAt: at(20), expiresAt: at(20, 11), revokedAt: null });
      await store.oauth.createToken({ hash: 't2', clientId: 'c2', keyId: key.id, scope: '', issuedAt: at(20), expiresAt: at(25), revokedAt: null });
      await store.oauth.revokeToken('t2', at(21));
      expect((await store.oauth.findToken('t2'))!.revokedAt).toBe(at(21));
      expect(await store.oauth.purgeExpiredTokens(at(21))).toBe(1);
      expect(await store.oauth.findToken('t1')).toBeNull();
    });
  });
}
