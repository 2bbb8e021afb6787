import { beforeEach, describe, expect, it } from 'vitest';
import type { SearchQuery, Store } from '../../src/store/types.js';
import { rec } from '../helpers/records.js';
import { freshStore } from './fresh-store.js';
import { ingest } from './contract.js';

const at = (day: number) => `2026-11-${String(day).padStart(2, '0')}T10:00:00.000Z`;
const q = (over: Partial<SearchQuery> = {}): SearchQuery => ({ filter: {}, sort: 'relevance', limit: 10, offset: 0, ...over });

const FIXTURE = [
  rec({ sku: 'A1', source: 'shopee_sg', title: 'Samsung Galaxy A55 Navy', price: '499.00', brand: 'Samsung', gtin: '8806095426280', url: 'https://shopee.sg/a55-i.1.2', observed_at: at(10) }),
  rec({ sku: 'A1', source: 'lazada_sg', title: 'Samsung Galaxy A55 Navy', price: '479.00', brand: 'SAMSUNG', gtin: '08806095426280', url: 'https://www.lazada.sg/products/a55-i9.html', observed_at: at(12) }),
  rec({ sku: 'A2', source: 'lazada_my', title: 'Samsung Galaxy A55 (8+128)', price: '1599.00', currency: 'MYR', country_code: 'MY', brand: 'Samsung', url: 'https://www.lazada.com.my/products/a55-i7.html', observed_at: at(11) }),
  rec({ sku: 'P1', source: 'shopee_sg', title: 'Samsung Galaxy S25 Edge', price: '1699.00', brand: 'samsung', stock_level: 'Preorder', in_stock: true, url: 'https://shopee.sg/s25-i.3.4', observed_at: at(10) }),
  rec({ sku: 'K1', source: 'lazada_sg', title: 'Philips Kettle 1.7L', price: '59.00', brand: 'Philips', in_stock: false, stock_level: 'discontinued',
    category: 'Kettles', category_path: ['Home & Living', 'Kitchen Appliances', 'Kettles'], url: 'https://www.lazada.sg/products/kettle-i5.html', observed_at: at(10) }),
  rec({ sku: 'K2', source: 'amazon_sg', title: 'Philips Rice Cooker', price: '89.00', brand: 'Philips', in_stock: null,
    category: 'Rice Cookers', category_path: ['Home & Living', 'Kitchen Appliances', 'Rice Cookers'], url: 'https://www.amazon.sg/dp/B0RICE', observed_at: at(10) }),
  rec({ sku: 'N1', source: 'shopee_sg', title: 'Unbranded cable', price: '3.00', brand: null, url: 'https://shopee.sg/cable-i.5.6', observed_at: at(10) }),
];

/** Bulk lookups, brand counts and filter facets (issue 20): what every store adapter must answer identically. */
export function lookupContract(name: string, makeStore: () => Promise<Store>): void {
  describe(`lookup contract: ${name}`, () => {
    const fresh = freshStore(makeStore);
    let store: Store;
    beforeEach(async () => {
      store = fresh();
      await ingest(store, FIXTURE);
    });

    it('latestBy: per value the most recently updated listing with exactly that text; absent values absent', async () => {
      const bySku = await store.catalog.latestBy('sku', ['A1', 'A2', 'nope', 'A1']);
      expect([...bySku.keys()].sort()).toEqual(['A1', 'A2']);
      expect(bySku.get('A1')).toMatchObject({ source: 'lazada_sg' });
      const [a1] = await store.catalog.getBySku('A1');
      expect(bySku.get('A1')).toEqual(a1);
      const byGtin = await store.catalog.latestBy('gtin', ['8806095426280', '08806095426280', '00008806095426280']);
      expect(byGtin.get('8806095426280')).toMatchObject({ source: 'shopee_sg', sku: 'A1' });
      expect(byGtin.get('08806095426280')).toMatchObject({ source: 'lazada_sg', sku: 'A1' });
      expect(byGtin.size).toBe(2);
      const byUrl = await store.catalog.latestBy('url', ['https://www.amazon.sg/dp/B0RICE', 'https://www.amazon.sg/dp/B0RICE/']);
      expect([...byUrl.values()].map((l) => l.sku)).toEqual(['K2']);
      const byUuid = await store.catalog.latestBy('uuid', [a1.uuid]);
      expect(byUuid.get(a1.uuid)).toEqual(a1);
      expect((await store.catalog.latestBy('sku', [])).size).toBe(0);
    });

    it('latestBy: many values at once (more than one statement\'s IN list)', async () => {
      const skus = [...Array.from({ length: 1500 }, (_, i) => `X${i}`), 'K1', 'N1'];
      const found = await store.catalog.latestBy('sku', skus);
      expect([...found.keys()].sort()).toEqual(['K1', 'N1']);
    });

    it('brandCounts: spellings that differ in case are one brand named by the commonest; most listings first; by category', async () => {
      expect(await store.catalog.brandCounts({})).toEqual([{ name: 'Samsung', count: 4 }, { name: 'Philips', count: 2 }]);
      expect(await store.catalog.brandCounts({ categoryLike: 'kitchen' })).toEqual([{ name: 'Philips', count: 2 }]);
      expect(await store.catalog.brandCounts({ categoryLike: 'nothing-like-this' })).toEqual([]);
      expect(await store.catalog.brandCounts({ countries: ['MY'] })).toEqual([{ name: 'Samsung', count: 1 }]);
    });

    it('filterFacets: domains, countries, availability as each filter counts it, and the cheapest and dearest match', async () => {
      const ids = new Map((await store.catalog.getMany([1, 2, 3, 4, 5, 6, 7])).map((l) => [`${l.source}/${l.sku}`, l.id]));
      const r = await store.catalog.search(q({ text: 'samsung', filterFacets: true }));
      expect(r.total).toBe(4);
      expect(r.facets).toBeUndefined();
      expect(r.filterFacets).toEqual({
        domain: [{ value: 'shopee.sg', count: 2 }, { value: 'lazada.com.my', count: 1 }, { value: 'lazada.sg', count: 1 }],
        country: [{ value: 'SG', count: 3 }, { value: 'MY', count: 1 }],
        availability: [{ value: 'in_stock', count: 4 }, { value: 'preorder', count: 1 }],
        cheapestId: ids.get('lazada_sg/A1'), dearestId: ids.get('shopee_sg/P1'),
      });
      const all = await store.catalog.search(q({ filter: { countries: ['SG'] }, facets: true, filterFacets: true }));
      expect(all.total).toBe(6);
      expect(all.facets!.brand[0]).toEqual({ value: 'Philips', count: 2 });
      expect(all.filterFacets!.availability).toEqual([
        { value: 'in_stock', count: 4 }, { value: 'discontinued', count: 1 }, { value: 'out_of_stock', count: 1 }, { value: 'preorder', count: 1 },
      ]);
      expect(all.filterFacets).toMatchObject({ cheapestId: ids.get('shopee_sg/N1'), dearestId: ids.get('shopee_sg/P1') });
      // Each availability count is what that filter keeps.
      expect((await store.catalog.search(q({ filter: { countries: ['SG'], inStock: true } }))).total).toBe(4);
      expect((await store.catalog.search(q({ filter: { countries: ['SG'], stockLevels: ['preorder'] } }))).total).toBe(1);
      const none = await store.catalog.search(q({ text: 'zzzz', filterFacets: true }));
      expect(none.filterFacets).toEqual({ domain: [], country: [], availability: [], cheapestId: null, dearestId: null });
      expect((await store.catalog.search(q({ text: '!!!', filterFacets: true }))).filterFacets).toEqual(none.filterFacets);
    });
  });
}
