import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeHarness, type Harness } from '../helpers/app.js';
import { CATALOG } from '../helpers/catalog.js';
import { rec } from '../helpers/records.js';

let h: Harness;
let auth: { authorization: string };
beforeAll(async () => {
  h = await makeHarness();
  await h.ingest(CATALOG);
  auth = (await h.key('pro')).headers;
});
afterAll(async () => { await h.close(); });

const get = (url: string, headers: Record<string, string> = {}) => h.app.inject({ method: 'GET', url, headers: { ...auth, ...headers } });

describe('GET /v1/products (listing)', () => {
  it('walks every listing once with the opaque cursor, even while listings are added', async () => {
    const seen: number[] = [];
    let url = '/v1/products?limit=2&sort_by=price_asc';
    let added = false;
    for (;;) {
      const body = (await get(url)).json();
      seen.push(...body.data.map((d: { id: number }) => d.id));
      if (!added) {
        // A new, very cheap listing lands before the position already served: it must not shift the pages.
        await h.ingest([rec({ source: 'shopee_sg', sku: 'NEW-CHEAP', title: 'Cable', price: '0.50' })]);
        added = true;
      }
      if (!body.meta.next_cursor) break;
      url = `/v1/products?limit=2&sort_by=price_asc&cursor=${body.meta.next_cursor}&_nocache=${seen.length}`;
    }
    expect(new Set(seen).size).toBe(seen.length);
    expect(seen.length).toBe(CATALOG.length);
  });

  it('filters by category_id (slug of any level) and region, always returning price_sgd', async () => {
    const body = (await get('/v1/products?category_id=kitchen-appliances')).json();
    expect(body.meta.total).toBe(2);
    expect(body.data[0].price_sgd).toMatch(/^\d+\.\d{2}$/);
    expect((await get('/v1/products?region=MY')).json().meta.total).toBe(1);
  });

  it('price bounds are in the requested currency; min above max is 400 INVALID_PRICE_RANGE', async () => {
    const r = await get('/v1/products?price_min=100&price_max=10');
    expect(r.statusCode).toBe(400);
    expect(r.json().error).toMatchObject({ code: 'INVALID_PRICE_RANGE', details: { price_min: 100, price_max: 10 } });
    const usd = (await get('/v1/products?currency=USD&price_min=45&price_max=48')).json();
    expect(usd.data.map((d: { sku: string }) => d.sku)).toEqual(['SG-KETTLE']);
  });

  it('refuses a malformed cursor and a limit over 50, naming the field', async () => {
    expect((await get('/v1/products?cursor=!!nope')).json().detail[0].loc).toEqual(['query', 'cursor']);
    expect((await get('/v1/products?limit=51')).json().detail[0].loc).toEqual(['query', 'limit']);
  });

  it('is cached server-side for 600 s, keyed on the full query', async () => {
    const a = await get('/v1/products?limit=3&_x=1');
    expect(a.headers['cache-control']).toBe('private, max-age=600');
    expect(a.headers['x-cache']).toBe('MISS');
    const hit = await get('/v1/products?limit=3&_x=1');
    expect(hit.headers['x-cache']).toBe('HIT');
    expect(hit.body).toBe(a.body);
    expect(hit.headers['content-type']).toBe(a.headers['content-type']);
    expect(hit.headers['content-length']).toBe(a.headers['content-length']);
    expect((await get('/v1/products?limit=3&_x=1')).body).toBe(a.body);
    expect((await get('/v1/products?limit=3&_x=2')).headers['x-cache']).toBe('MISS');
  });
});

describe('GET /v1/products/{id} and /{sku}', () => {
  it('an integer is a product id: a record of 2.1', async () => {
    const [l] = await h.c.catalog.findBySku('SG-A55');
    const body = (await get(`/v1/products/${l.id}`)).json();
    expect(body).toMatchObject({ id: l.id, sku: 'SG-A55', name: l.title, price: '499.00', currency: 'SGD', barcode: '8806095426280', is_available: true });
    expect(body.competitor_count).toBeGreaterThanOrEqual(1);
  });

  it('a SKU gives product, variants, merchant links and meta', async () => {
    const body = (await get('/v1/products/SG-A55')).json();
    expect(body.product).toMatchObject({ sku: 'SG-A55', has_variants: false });
    expect(body.merchant_links.map((m: { source: string }) => m.source)).toEqual(expect.arrayContaining(['shopee_sg', 'lazada_my', 'amazon_us']));
    expect(body.meta).toMatchObject({ total_merchants: 3, total_variants: 0, cheapest_source: 'lazada_my', data_freshness: 'fresh', lowest_rating: '4.2' });
    expect((await get('/v1/products/SG-A55?include_merchant_links=false')).json().merchant_links).toEqual([]);
  });

  it('a SKU detail product is the record of its id, group size included', async () => {
    const sku = (await get('/v1/products/SG-A55?_v=1')).json();
    const byId = (await get(`/v1/products/${sku.product.id}?_v=1`)).json();
    const { has_variants: _, ...product } = sku.product;
    expect(product).toEqual(byId);
    expect(product.competitor_count).toBe(sku.meta.total_merchants - 1);
  });

  it('a SKU made of digits is found when no product has that id', async () => {
    expect((await get('/v1/products/12345')).json().product.sku).toBe('12345');
  });

  it('404s: PRODUCT_NOT_FOUND with the sku and a hint; NOT_FOUND for an unknown id', async () => {
    const r = await get('/v1/products/NO-SUCH-SKU');
    expect(r.statusCode).toBe(404);
    expect(r.json().error).toMatchObject({ code: 'PRODUCT_NOT_FOUND', details: { sku: 'NO-SUCH-SKU', hint: expect.any(String) } });
    expect((await get('/v1/products/999999')).json().error.code).toBe('NOT_FOUND');
  });

  it('very stale data marks the listing unavailable', async () => {
    h.clock.advance(31 * 86400_000);
    const [l] = await h.c.catalog.findBySku('SG-CASE');
    const body = (await get(`/v1/products/${l.id}?_stale=1`)).json();
    expect(body).toMatchObject({ is_available: false, data_freshness: 'very_stale', availability_prediction: 'unknown' });
    h.clock.advance(-31 * 86400_000);
  });
});

describe('GET /v1/products/{id}/price-history', () => {
  it('returns raw observations in the window, newest first, with platform filter and paging', async () => {
    await h.ingest([rec({ sku: 'SG-A55', price: '479.00', gtin: '8806095426280', rating: 4.6, shipping_days: 3, observed_at: '2026-11-20T11:00:00Z' })]);
    const [l] = await h.c.catalog.findBySku('SG-A55');
    const body = (await get(`/v1/products/${l.id}/price-history`)).json();
    expect(body).toMatchObject({ product_id: l.id, total: 2, aggregated_entries: [], aggregate: null, period: null });
    expect(body.entries.map((e: { price: string }) => e.price)).toEqual(['479.00', '499.00']);
    expect(body.entries[0]).toEqual({ price: '479.00', currency: 'SGD', platform: 'shopee_sg', scraped_at: '2026-11-20T11:00:00.000Z' });
    expect((await get(`/v1/products/${l.id}/price-history?limit=1&offset=1`)).json().entries[0].price).toBe('499.00');
    expect((await get(`/v1/products/${l.id}/price-history?platform=lazada_my`)).json().total).toBe(0);
  });

  it('bounds days and limit, accepts no aggregation, 404s an unknown id', async () => {
    expect((await get('/v1/products/1/price-history?days=366')).json().detail[0].loc).toEqual(['query', 'days']);
    expect((await get('/v1/products/1/price-history?limit=1001')).json().detail[0].loc).toEqual(['query', 'limit']);
    expect((await get('/v1/products/1/price-history?aggregation=daily')).json().detail[0].loc).toEqual(['query', 'aggregation']);
    expect((await get('/v1/products/999999/price-history')).statusCode).toBe(404);
  });
});
