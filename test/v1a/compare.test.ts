import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeHarness, type Harness } from '../helpers/app.js';
import { CATALOG } from '../helpers/catalog.js';

let h: Harness;
let auth: { authorization: string };
let ids: Record<string, number>;
beforeAll(async () => {
  h = await makeHarness();
  await h.ingest(CATALOG);
  auth = (await h.key('pro')).headers;
  ids = {};
  for (const r of CATALOG) ids[r.sku as string] = (await h.c.catalog.findBySku(r.sku as string))[0].id;
});
afterAll(async () => { await h.close(); });

const get = (url: string) => h.app.inject({ method: 'GET', url, headers: auth });
const post = (url: string, payload: object) => h.app.inject({ method: 'POST', url, headers: auth, payload });

describe('compare', () => {
  it('GET /v1/products/compare?product_id: matches of the same product only, scored with evidence, by price', async () => {
    const body = (await get(`/v1/products/compare?product_id=${ids['SG-A55']}`)).json();
    expect(body).toMatchObject({ source_product_id: ids['SG-A55'], total_matches: 2 });
    expect(body.matches.map((m: { sku: string }) => m.sku)).toEqual(['MY-A55', 'US-A55']);
    for (const m of body.matches) {
      expect(m.match_score).toBeGreaterThan(0.5);
      expect(m.match_score).toBeLessThanOrEqual(1);
      expect(m.match_class).toBe('exact');
      expect(m.match_evidence.gtin).toBe('equal');
    }
    expect(body.matches.some((m: { sku: string }) => m.sku === 'SG-CASE')).toBe(false);
  });

  it('price bounds narrow the matches (SGD)', async () => {
    const body = (await get(`/v1/products/compare?product_id=${ids['SG-A55']}&max_price=484`)).json();
    expect(body.matches.map((m: { sku: string }) => m.sku)).toEqual(['MY-A55']);
  });

  it('GET /{id}/compare adds highlights; no matches gives three null highlights', async () => {
    const body = (await get(`/v1/products/${ids['SG-A55']}/compare`)).json();
    expect(body.highlights.cheapest.source).toBe('lazada_my');
    expect(body.highlights.best_rated.source).toBe('lazada_my');
    expect(body.highlights.fastest_shipping).toMatchObject({ source: 'amazon_us', shipping_days: 1 });
    const image = body.matches.find((m: { sku: string }) => m.sku === 'US-A55');
    expect(image.image_url).toBeNull();
    const lonely = (await get(`/v1/products/${ids['SG-KETTLE']}/compare`)).json();
    expect(lonely).toMatchObject({ matches: [], total_matches: 0, highlights: { cheapest: null, best_rated: null, fastest_shipping: null } });
  });

  it('GET /{id}/compare?currency= shows each match converted, in the same order', async () => {
    const body = (await get(`/v1/products/${ids['SG-A55']}/compare?currency=USD`)).json();
    expect(body.matches.map((m: { sku: string }) => m.sku)).toEqual(['MY-A55', 'US-A55']);
    expect(body.matches[0]).toMatchObject({ converted_currency: 'USD', converted_price: h.c.fx.convertText('1599.00', 'MYR', 'USD') });
    expect(body.matches[1]).toMatchObject({ converted_currency: 'USD', converted_price: '379.99' });
    expect((await get(`/v1/products/${ids['SG-A55']}/compare?currency=XYZ`)).json().detail[0].loc).toEqual(['query', 'currency']);
  });

  it('an unknown id gives 404 {detail: "..."} on both GET forms', async () => {
    for (const url of ['/v1/products/compare?product_id=999999', '/v1/products/999999/compare']) {
      const r = await get(url);
      expect(r.statusCode).toBe(404);
      expect(r.json()).toEqual({ detail: 'Product not found' });
    }
  });

  it('POST /v1/products/compare compares 2 to 20 ids', async () => {
    const body = (await post('/v1/products/compare', { product_ids: [ids['SG-A55'], ids['SG-KETTLE']] })).json();
    expect(body.total_products).toBe(2);
    expect(body.comparisons[0]).toMatchObject({ source_product_id: ids['SG-A55'], total_matches: 2 });
    expect(body.comparisons[0]).not.toHaveProperty('highlights');
    const one = await post('/v1/products/compare', { product_ids: [1] });
    expect(one.statusCode).toBe(422);
    expect(one.json().detail[0].loc).toEqual(['body', 'product_ids']);
    expect((await post('/v1/products/compare', { product_ids: Array.from({ length: 21 }, (_, i) => i + 1) })).statusCode).toBe(422);
  });

  it('POST /v1/products/compare/diff ranks prices and lists differing and identical fields', async () => {
    const body = (await post('/v1/products/compare/diff', { product_ids: [ids['SG-A55'], ids['MY-A55'], ids['US-A55']] })).json();
    expect(body.cheapest_product_id).toBe(ids['MY-A55']);
    expect(body.most_expensive_product_id).toBe(ids['SG-A55']);
    expect(body.products.find((p: { id: number }) => p.id === ids['MY-A55']).price_rank).toBe(1);
    expect(body.identical_fields).toContain('brand');
    expect(body.field_diffs.map((f: { field: string }) => f.field)).toContain('source');
    expect(body.price_spread).toMatch(/^\d+\.\d{2}$/);
    expect(typeof body.price_spread_pct).toBe('number');
    expect((await post('/v1/products/compare/diff', { product_ids: [1, 2, 3, 4, 5, 6] })).statusCode).toBe(422);
  });
});
