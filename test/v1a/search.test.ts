import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeHarness, type Harness } from '../helpers/app.js';
import { CATALOG } from '../helpers/catalog.js';

let h: Harness;
let auth: { authorization: string };
beforeAll(async () => {
  h = await makeHarness();
  await h.ingest(CATALOG);
  auth = (await h.key('pro')).headers;
});
afterAll(async () => { await h.close(); });

const get = (url: string) => h.app.inject({ method: 'GET', url, headers: auth });

describe('GET /v1/search', () => {
  it('finds by words, all required, with the envelope and flat records', async () => {
    const r = await get('/v1/search?q=galaxy%20a55');
    expect(r.statusCode).toBe(200);
    const body = r.json();
    expect(body).toMatchObject({ total: 4, limit: 20, offset: 0, has_more: false });
    expect(body.items[0]).toHaveProperty('name');
    expect(typeof body.items[0].price).toBe('string');
    expect((await get('/v1/search?q=galaxy%20kettle')).json().total).toBe(0);
  });

  it('filters by platform, SGD price bounds, stock and category (partial, any case)', async () => {
    expect((await get('/v1/search?q=galaxy&platform=amazon_us')).json().items.map((i: { sku: string }) => i.sku)).toEqual(['US-A55']);
    expect((await get('/v1/search?min_price=50&max_price=60')).json().items.map((i: { sku: string }) => i.sku)).toEqual(['SG-KETTLE']);
    expect((await get('/v1/search?in_stock=false')).json().total).toBe(1);
    expect((await get('/v1/search?category=KITCHEN')).json().total).toBe(2);
  });

  it('pages with offset and has_more', async () => {
    const body = (await get('/v1/search?q=samsung&limit=2&offset=1')).json();
    expect(body).toMatchObject({ limit: 2, offset: 1, has_more: true });
    expect(body.items).toHaveLength(2);
  });

  it('refuses bad bounds naming the field, never a 500', async () => {
    for (const [url, field] of [
      ['/v1/search?limit=0', 'limit'], ['/v1/search?limit=101', 'limit'], ['/v1/search?offset=10001', 'offset'],
      [`/v1/search?q=${'a'.repeat(501)}`, 'q'], ['/v1/search?min_price=-1', 'min_price'], ['/v1/search?min_price=9&max_price=1', 'min_price'],
    ]) {
      const r = await get(url);
      expect(r.statusCode, url).toBe(422);
      expect(r.json().detail[0].loc, url).toEqual(['query', field]);
    }
  });

  it('treats FTS syntax in q as plain words', async () => {
    for (const q of ['"unbalanced', 'NEAR(a b)', 'a* OR -b', '()', 'title:galaxy']) {
      expect((await get(`/v1/search?q=${encodeURIComponent(q)}`)).statusCode, q).toBe(200);
    }
  });
});

describe('GET /v1/products/search (surface A variant)', () => {
  it('returns facets and highlights only when asked', async () => {
    const body = (await get('/v1/products/search?q=galaxy&sort_by=relevance&include_facets=true')).json();
    expect(body).toMatchObject({ total: 4, total_count: 4, next_cursor: null });
    expect(body.facets.platform).toEqual(expect.arrayContaining([{ value: 'shopee_sg', count: 2 }]));
    expect(body.facets.price.map((p: { count: number }) => p.count).reduce((a: number, b: number) => a + b)).toBe(4);
    expect(Object.values(body.highlights)[0]).toMatch(/<em>Galaxy<\/em>/);
    const plain = (await get('/v1/products/search?q=galaxy&sort_by=relevance')).json();
    expect(plain.facets).toBeNull();
  });

  it('sorts by price (SGD-normalized, across currencies) and newest without q', async () => {
    const asc = (await get('/v1/products/search?q=galaxy&sort_by=price_asc')).json().items.map((i: { price_sgd: string }) => Number(i.price_sgd));
    expect(asc).toEqual([...asc].sort((a, b) => a - b));
    const newest = (await get('/v1/products/search?sort_by=newest')).json();
    expect(newest.total).toBe(CATALOG.length);
  });

  it('filters by country (with the sea region) and brand; converts prices when currency is given', async () => {
    expect((await get('/v1/products/search?q=galaxy&country=US&sort_by=relevance')).json().total).toBe(1);
    expect((await get('/v1/products/search?region=sea&platform=tiki_vn')).json().total).toBe(1);
    expect((await get('/v1/products/search?brand=spig&sort_by=newest')).json().total).toBe(1);
    const item = (await get('/v1/products/search?q=kettle&sort_by=relevance&currency=USD')).json().items[0];
    expect(item).toMatchObject({ converted_currency: 'USD', converted_price: expect.stringMatching(/^\d+\.\d{2}$/) });
  });

  it('price_min above price_max is a validation error naming price_min', async () => {
    const r = await get('/v1/products/search?price_min=10&price_max=1');
    expect(r.statusCode).toBe(422);
    expect(r.json().detail[0].loc).toEqual(['query', 'price_min']);
  });

  it('refuses unknown currencies and bad sort keys with the field named', async () => {
    expect((await get('/v1/products/search?sort_by=newest&currency=XXX')).json().detail[0].loc).toEqual(['query', 'currency']);
    expect((await get('/v1/products/search?sort_by=cheapest')).json().detail[0].loc).toEqual(['query', 'sort_by']);
    expect((await get('/v1/products/search?sort_by=newest&country=USA')).json().detail[0].loc).toEqual(['query', 'country']);
  });
});

describe('GET /v1/products/best-price', () => {
  it('returns the cheapest match in SGD terms, 404 when none', async () => {
    // Not the case (issue 18 item 14): a product query is answered by the product, a case query by a case.
    expect((await get('/v1/products/best-price?q=galaxy%20a55')).json().sku).toBe('MY-A55');
    expect((await get('/v1/products/best-price?q=galaxy%20a55%20case')).json().sku).toBe('SG-CASE');
    expect((await get('/v1/products/best-price?q=galaxy%20a55&category=smartphones')).json().sku).toBe('MY-A55');
    const r = await get('/v1/products/best-price?q=nothingmatches');
    expect(r.statusCode).toBe(404);
    expect(r.json().error.code).toBe('NOT_FOUND');
    expect((await get('/v1/products/best-price')).statusCode).toBe(422);
  });
});
