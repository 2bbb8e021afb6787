import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { detectRegion } from '../../src/api/v2/region.js';
import { parseSessionContext } from '../../src/api/v2/session.js';
import { makeHarness, type Harness } from '../helpers/app.js';
import { CATALOG } from '../helpers/catalog.js';

/** Surface V2 core (issue 21 items 1, 2, 4, 5): products, detail, batch details, search, region auto, session context. */
let h: Harness;
let auth: { authorization: string };
const id: Record<string, number> = {};
beforeAll(async () => {
  h = await makeHarness();
  await h.ingest(CATALOG);
  for (const r of CATALOG) id[r.sku as string] = (await h.c.catalog.findBySku(r.sku as string))[0].id;
  auth = (await h.key('pro')).headers;
});
afterAll(async () => { await h.close(); });

const get = (url: string, headers: Record<string, string> = {}) => h.app.inject({ url, headers: { ...auth, ...headers } });
const post = (url: string, payload: unknown) => h.app.inject({ method: 'POST', url, headers: { ...auth, 'content-type': 'application/json' }, payload: JSON.stringify(payload) });

describe('GET /v2/products', () => {
  it('answers total, limit, offset, has_more and V2 list records in SGD by default', async () => {
    const r = (await get('/v2/products?region=sea&limit=2')).json();
    expect(Object.keys(r)).toEqual(['total', 'limit', 'offset', 'has_more', 'items']);
    expect(r).toMatchObject({ limit: 2, offset: 0, has_more: true });
    const rec = r.items[0];
    expect(rec).toHaveProperty('title');
    expect(rec).not.toHaveProperty('name');
    expect(rec).toHaveProperty('buy_url');
    expect(rec.currency).toBe('SGD');
    expect(typeof rec.rating).toBe('number');
  });

  it('converts to a V2 currency; any other currency is a 422 in the V2 envelope naming the field', async () => {
    const r = (await get('/v2/products?q=kettle&currency=MYR&region=sg')).json();
    expect(r.items[0]).toMatchObject({ currency: 'MYR', price_sgd: '59.00' });
    const bad = await get('/v2/products?currency=EUR');
    expect(bad.statusCode).toBe(422);
    expect(bad.json().error).toMatchObject({ code: 'VALIDATION_ERROR', details: { errors: [{ field: 'currency' }] } });
  });

  it('regions: us, sg, sea, and auto from the headers (country header, then Accept-Language; else every market)', async () => {
    const us = (await get('/v2/products?region=us')).json();
    expect(us.items.map((x: { country_code: string }) => x.country_code)).toEqual(['US']);
    const viaHeader = (await get('/v2/products', { 'cf-ipcountry': 'US' })).json();
    expect(viaHeader.total).toBe(1);
    const viaLang = (await get('/v2/products', { 'accept-language': 'vi-VN,vi;q=0.9' })).json();
    expect(new Set(viaLang.items.map((x: { country_code: string }) => x.country_code))).toEqual(new Set(['SG', 'MY', 'VN']));
    expect((await get('/v2/products')).json().total).toBe(CATALOG.length);
    expect(detectRegion({ 'x-country-code': 'DE' })).toBeNull();
    expect(detectRegion({ 'accept-language': 'en-SG' })).toBe('sg');
  });

  it('after pages deeply in id order', async () => {
    const first = (await get('/v2/products?limit=2&after=0')).json().items.map((x: { id: number }) => x.id);
    const next = (await get(`/v2/products?limit=2&after=${first[1]}`)).json().items.map((x: { id: number }) => x.id);
    expect(next[0]).toBeGreaterThan(first[1]);
  });
});

describe('detail, batch details, search', () => {
  it('detail carries category_path, specs, metadata, last_checked; absent is 404 NOT_FOUND in the V2 envelope', async () => {
    const r = (await get(`/v2/products/${id['SG-A55']}`)).json();
    expect(r).toMatchObject({ id: id['SG-A55'], category_path: ['Electronics', 'Mobile Phones', 'Smartphones'], last_checked: expect.any(String) });
    const none = await get('/v2/products/999999');
    expect(none.statusCode).toBe(404);
    expect(none.json().error.code).toBe('NOT_FOUND');
  });

  it('batch-details: results, one error per id not found, specs and metadata_ only with include_metadata, price in the target currency', async () => {
    const r = (await post('/v2/products/batch-details', { product_ids: [id['SG-A55'], 999999, id['MY-A55']], target_currency: 'USD' })).json();
    expect(r.results.map((x: { id: number }) => x.id)).toEqual([id['SG-A55'], id['MY-A55']]);
    expect(r.results[0]).toMatchObject({ currency: 'USD', price_sgd: '499.00', url: expect.any(String) });
    expect(r.results[0]).not.toHaveProperty('metadata_');
    expect(r.errors).toEqual([{ product_id: 999999, code: 'NOT_FOUND', message: 'Product 999999 not found.' }]);
    const meta = (await post('/v2/products/batch-details', { product_ids: [id['SG-A55']], include_metadata: true })).json();
    expect(meta.results[0]).toHaveProperty('metadata_');
    const many = await post('/v2/products/batch-details', { product_ids: Array.from({ length: 101 }, (_, i) => i + 1) });
    expect(many.statusCode).toBe(422);
    expect(many.json().error.details.errors[0].field).toBe('product_ids');
  });

  it('search: query echoed, q required, cached 60 s', async () => {
    const r = await get('/v2/search?q=galaxy&region=sea');
    expect(r.json()).toMatchObject({ query: 'galaxy', offset: 0, limit: 20 });
    expect(r.json().total).toBeGreaterThan(0);
    expect((await get('/v2/search?q=galaxy&region=sea')).headers['x-cache']).toBe('HIT');
    const missing = await get('/v2/search');
    expect(missing.statusCode).toBe(422);
    expect(missing.json().error.details.errors[0].field).toBe('q');
  });
});

describe('X-Session-Context', () => {
  const b64 = (o: unknown) => Buffer.from(JSON.stringify(o)).toString('base64');
  it('decodes budget, target currency and source preferences', () => {
    expect(parseSessionContext(b64({ budget: { min: 10, max: 500 }, target_currency: 'myr', preferences: { preferred_sources: ['Shopee_SG'], excluded_sources: [] } })))
      .toEqual({ budget: { min: 10, max: 500 }, targetCurrency: 'MYR', preferredSources: ['shopee_sg'], excludedSources: [] });
    expect(parseSessionContext(undefined)).toBeNull();
  });
  it.each([
    ['not base64 json', 'bm90IGpzb24'], ['an array', b64([1])], ['a bad budget', b64({ budget: { min: 'x' } })],
    ['min over max', b64({ budget: { min: 9, max: 1 } })], ['a currency outside V2', b64({ target_currency: 'EUR' })],
    ['bad sources', b64({ preferences: { preferred_sources: 'shopee' } })],
  ])('refuses %s with a 422 naming the header', (_what, raw) => {
    try {
      parseSessionContext(raw);
      expect.unreachable();
    } catch (e) {
      expect((e as { problems: Array<{ loc: string[] }> }).problems[0].loc).toEqual(['header', 'X-Session-Context']);
    }
  });
});

describe('caching and accessories across V2', () => {
  it('a cached /v2/search answer is not served to a request whose headers give another region', async () => {
    const us = await get('/v2/search?q=samsung+galaxy&_v=vary', { 'cf-ipcountry': 'US' });
    const sg = await get('/v2/search?q=samsung+galaxy&_v=vary', { 'cf-ipcountry': 'SG' });
    expect(sg.headers['x-cache']).toBe('MISS');
    expect(us.json().items.map((x: { country_code: string }) => x.country_code)).toEqual(['US']);
    expect(sg.json().items.every((x: { country_code: string }) => x.country_code === 'SG')).toBe(true);
    expect((await get('/v2/search?q=samsung+galaxy&_v=vary', { 'cf-ipcountry': 'US' })).headers['x-cache']).toBe('HIT');
  });

  it('agent price comparison and best price answer the product, not its cheaper case', async () => {
    for (const url of ['/v2/agents/price-comparison?product_name=samsung+galaxy+a55', '/v2/agents/best-price?product_name=samsung+galaxy+a55']) {
      const r = (await get(url)).json();
      expect(r.results.length, url).toBeGreaterThan(0);
      expect(r.results.map((x: { sku: string }) => x.sku), url).not.toContain('SG-CASE');
    }
    const cases = (await get('/v2/agents/best-price?product_name=case+galaxy+a55')).json();
    expect(cases.results.map((x: { sku: string }) => x.sku)).toContain('SG-CASE');
  });
});
