import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeHarness, type Harness } from '../helpers/app.js';
import { CATALOG } from '../helpers/catalog.js';
import { rec } from '../helpers/records.js';

/** GET /v1/brands and GET /v1/search/filters (issue 20 item 6), with the search index and without. */
const EXTRA = [
  rec({ source: 'lazada_sg', sku: 'SG-A35', title: 'Samsung Galaxy A35 5G 8GB 128GB Awesome Lilac', brand: 'SAMSUNG', price: '399.00', original_price: '459.00' }),
  rec({ source: 'shopee_sg', sku: 'SG-PRE', title: 'Samsung Galaxy S25 Edge preorder', brand: 'samsung', price: '1699.00', stock_level: 'preorder', in_stock: true,
    url: 'https://shopee.sg/s25-edge-i.1.2' }),
  rec({ source: 'shopee_sg', sku: 'SG-OLD', title: 'Samsung Galaxy Note discontinued', price: '899.00', stock_level: 'discontinued', in_stock: false }),
  rec({ source: 'lazada_sg', sku: 'SG-SONY', title: 'Sony WH-1000XM5 Wireless Headphones', brand: 'Sony', price: '399.00', category: 'Headphones',
    category_path: ['Electronics', 'Audio', 'Headphones'] }),
];

for (const mode of ['memory', 'off'] as const) {
  describe(`SEARCH_INDEX=${mode}`, () => {
    let h: Harness;
    let pro: { authorization: string };
    beforeAll(async () => {
      h = await makeHarness({ SEARCH_INDEX: mode });
      await h.ingest([...CATALOG, ...EXTRA]);
      await h.c.searchIndex?.catchUp();
      pro = (await h.key('free')).headers;
    });
    afterAll(async () => { await h.close(); });

    const get = (url: string) => h.app.inject({ url, headers: pro });

    describe('GET /v1/brands', () => {
      it('every brand with slug and listing count, most first then by name; letter case is one brand named by its commonest spelling', async () => {
        const r = await get('/v1/brands');
        expect(r.statusCode).toBe(200);
        const b = r.json();
        expect(b.data).toEqual([
          { name: 'Samsung', slug: 'samsung', product_count: 6 },
          { name: 'Philips', slug: 'philips', product_count: 1 },
          { name: 'Sharp', slug: 'sharp', product_count: 1 },
          { name: 'Sony', slug: 'sony', product_count: 1 },
          { name: 'Spigen', slug: 'spigen', product_count: 1 },
        ]);
        expect(b.meta).toEqual({ total: 5, limit: 50, offset: 0, response_time_ms: expect.any(Number) });
      });

      it('q is a case-insensitive name prefix; category counts only that category\'s listings (partial, like search)', async () => {
        expect((await get('/v1/brands?q=S')).json().data.map((x: { name: string }) => x.name)).toEqual(['Samsung', 'Sharp', 'Sony', 'Spigen']);
        expect((await get('/v1/brands?q=so')).json()).toMatchObject({ data: [{ name: 'Sony' }], meta: { total: 1 } });
        expect((await get('/v1/brands?q=zz')).json()).toMatchObject({ data: [], meta: { total: 0 } });
        expect((await get('/v1/brands?category=kitchen')).json().data.map((x: { name: string }) => x.name)).toEqual(['Philips', 'Sharp']);
        expect((await get('/v1/brands?category=Mobile')).json().data.map((x: { name: string }) => x.name)).toEqual(['Samsung', 'Spigen']);
        expect((await get('/v1/brands?category=AUDIO&q=s')).json().data).toEqual([{ name: 'Sony', slug: 'sony', product_count: 1 }]);
      });

      it('pages with limit and offset; total counts every brand that matches', async () => {
        const p = (await get('/v1/brands?limit=2&offset=1')).json();
        expect(p.data.map((x: { name: string }) => x.name)).toEqual(['Philips', 'Sharp']);
        expect(p.meta).toMatchObject({ total: 5, limit: 2, offset: 1 });
        expect((await get('/v1/brands?offset=50')).json()).toMatchObject({ data: [], meta: { total: 5 } });
      });

      it('bad input is a 422 naming the parameter', async () => {
        for (const [url, name] of [['/v1/brands?limit=0', 'limit'], ['/v1/brands?limit=201', 'limit'], ['/v1/brands?offset=-1', 'offset'],
          ['/v1/brands?offset=10001', 'offset'], ['/v1/brands?q=', 'q'], [`/v1/brands?q=${'x'.repeat(101)}`, 'q'], ['/v1/brands?sort=name', 'sort']]) {
          const r = await get(url);
          expect(r.statusCode, url).toBe(422);
          expect(r.json().detail[0].loc, url).toEqual(['query', name]);
        }
      });
    });

    describe('GET /v1/search/filters', () => {
      it('counts the matches of a query in the SG market by category, brand, domain, country and availability; the price range in SGD', async () => {
        const r = await get('/v1/search/filters?q=galaxy');
        expect(r.statusCode).toBe(200);
        const b = r.json();
        const search = (await get('/v1/products/search?q=galaxy&limit=100')).json();
        expect(b.meta).toMatchObject({ total: search.total, currency: 'SGD', cached: false });
        expect(b.data).toEqual({
          query: 'galaxy',
          categories: [{ value: 'Smartphones', count: 4 }, { value: 'Phone Cases', count: 1 }],
          // As search facets count them: by the spelling of each listing (the brand filter is case-insensitive).
          brands: [{ value: 'Samsung', count: 2 }, { value: 'SAMSUNG', count: 1 }, { value: 'Spigen', count: 1 }, { value: 'samsung', count: 1 }],
          domains: [{ value: 'shop.example.com', count: 4 }, { value: 'shopee.sg', count: 1 }],
          countries: [{ value: 'SG', count: 5 }],
          availability: [{ value: 'in_stock', count: 4 }, { value: 'discontinued', count: 1 }, { value: 'out_of_stock', count: 1 }, { value: 'preorder', count: 1 }],
          price_range: { min: 19.9, max: 1699, currency: 'SGD' },
        });
        const prices = search.results.map((x: { price: { amount: number } }) => x.price.amount);
        expect([Math.min(...prices), Math.max(...prices)]).toEqual([19.9, 1699]);
      });

      it('each availability count is the total of a search with that availability', async () => {
        const b = (await get('/v1/search/filters?q=galaxy')).json();
        for (const { value, count } of b.data.availability) {
          expect((await get(`/v1/products/search?q=galaxy&availability=${value}`)).json().total, value).toBe(count);
        }
      });

      it('the market and currency of search: region=SEA counts every SEA country in SGD; country_code=MY in MYR; currency converts', async () => {
        const sea = (await get('/v1/search/filters?q=galaxy+a55&region=SEA')).json();
        expect(sea.data.countries).toEqual([{ value: 'SG', count: 2 }, { value: 'MY', count: 1 }]);
        expect(sea.meta.currency).toBe('SGD');
        expect(sea.data.price_range.currency).toBe('SGD');
        const my = (await get('/v1/search/filters?q=galaxy&country_code=MY')).json();
        expect(my.data.price_range).toEqual({ min: 1599, max: 1599, currency: 'MYR' });
        expect(my.data.countries).toEqual([{ value: 'MY', count: 1 }]);
        const usd = (await get('/v1/search/filters?q=galaxy&country_code=MY&currency=USD')).json();
        expect(usd.data.price_range.currency).toBe('USD');
        expect(usd.data.price_range.min).toBeLessThan(1599);
      });

      it('narrows with the filters of search; nothing matching is an empty answer with a null price range', async () => {
        const spigen = (await get('/v1/search/filters?q=galaxy&brand=spig')).json();
        expect(spigen.meta.total).toBe(1);
        expect(spigen.data.categories).toEqual([{ value: 'Phone Cases', count: 1 }]);
        const pre = (await get('/v1/search/filters?q=galaxy&availability=preorder')).json();
        expect(pre.data.availability).toEqual([{ value: 'in_stock', count: 1 }, { value: 'preorder', count: 1 }]);
        const priced = (await get('/v1/search/filters?q=galaxy&min_price=400&max_price=1000')).json();
        expect(priced.data.price_range).toEqual({ min: 499, max: 899, currency: 'SGD' });
        const none = (await get('/v1/search/filters?q=zzzzz')).json();
        expect(none).toMatchObject({
          data: { query: 'zzzzz', categories: [], brands: [], domains: [], countries: [], availability: [], price_range: null }, meta: { total: 0 },
        });
      });

      it('the same request again comes from the response cache and says so', async () => {
        const url = '/v1/search/filters?q=kettle';
        expect((await get(url)).json().meta.cached).toBe(false);
        const again = await get(url);
        expect(again.headers['x-cache']).toBe('HIT');
        expect(again.json().meta.cached).toBe(true);
      });

      it('bad input is a 422 naming the parameter; search-only parameters are refused', async () => {
        for (const [url, name] of [['/v1/search/filters', 'q'], ['/v1/search/filters?q=', 'q'], [`/v1/search/filters?q=${'x'.repeat(501)}`, 'q'],
          ['/v1/search/filters?q=a&country_code=FR', 'country_code'], ['/v1/search/filters?q=a&currency=XXX', 'currency'],
          ['/v1/search/filters?q=a&min_price=-1', 'min_price'], ['/v1/search/filters?q=a&min_price=9&max_price=1', 'min_price'],
          ['/v1/search/filters?q=a&sort=price_asc', 'sort'], ['/v1/search/filters?q=a&limit=5', 'limit']]) {
          const r = await get(url);
          expect(r.statusCode, url).toBe(422);
          expect(r.json().detail[0].loc, url).toEqual(['query', name]);
        }
      });
    });
  });
}

describe('reference and changes', () => {
  it('both routes are in the reference under surface B; a new brand shows at once after an ingest', async () => {
    const h = await makeHarness();
    try {
      const headers = (await h.key('free')).headers;
      const doc = (await h.app.inject({ url: '/openapi.json' })).json() as { paths: Record<string, Record<string, { tags: string[] }>> };
      expect(doc.paths['/v1/brands'].get.tags).toEqual(['surface B']);
      expect(doc.paths['/v1/search/filters'].get.tags).toEqual(['surface B']);
      await h.ingest(CATALOG);
      expect((await h.app.inject({ url: '/v1/brands', headers })).json().meta.total).toBe(4);
      await h.ingest([rec({ sku: 'NEW', brand: 'Zojirushi', title: 'Zojirushi Rice Cooker' })]);
      expect((await h.app.inject({ url: '/v1/brands?q=zo', headers })).json().data).toEqual([{ name: 'Zojirushi', slug: 'zojirushi', product_count: 1 }]);
    } finally {
      await h.close();
    }
  });
});
