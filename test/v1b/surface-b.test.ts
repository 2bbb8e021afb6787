import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FIELD_NAMES } from '../../src/api/v1b/present.js';
import { makeHarness, type Harness } from '../helpers/app.js';
import { CATALOG } from '../helpers/catalog.js';
import { rec } from '../helpers/records.js';

/** Surface B (issue 20): every route of spec 4.3 in the shapes of 2.3, 2.6 and 2.7, over the same services as A. */
let h: Harness;
let pro: { authorization: string };
let free: { authorization: string };
const uuid: Record<string, string> = {};
/** A title that holds the timing tail's own text, in Thai (multi-byte) around it. */
const BLANKET = rec({ source: 'shopee_th', sku: 'TH-A55', title: 'ผ้าห่มนุ่ม "cached":false} พร้อมส่ง', brand: 'Nitra', price: '590.00', currency: 'THB', country_code: 'TH' });
beforeAll(async () => {
  h = await makeHarness();
  await h.ingest([
    ...CATALOG,
    rec({ source: 'lazada_sg', sku: 'SG-A35', title: 'Samsung Galaxy A35 5G 8GB 128GB Awesome Lilac', price: '399.00', original_price: '459.00', gtin: '8806095467108', image_url: 'https://img.example.com/a35.jpg' }),
    rec({ source: 'shopee_sg', sku: 'SG-PRE', title: 'Samsung Galaxy S25 Edge preorder', price: '1699.00', stock_level: 'preorder', in_stock: false }),
    BLANKET,
  ]);
  h.clock.advance(86_400_000);
  await h.ingest([rec({ sku: 'SG-A55', price: '479.00', gtin: '8806095426280', observed_at: new Date(h.clock.now()).toISOString() })]);
  for (const r of CATALOG.concat([rec({ source: 'lazada_sg', sku: 'SG-A35' }), rec({ sku: 'SG-PRE' }), rec({ source: 'shopee_th', sku: 'TH-A55' })])) {
    const [l] = (await h.c.catalog.findBySku(r.sku as string)).filter((x) => x.source === r.source);
    uuid[r.sku as string] = l.uuid;
  }
  pro = (await h.key('pro')).headers;
  free = (await h.key('free')).headers;
});
afterAll(async () => { await h.close(); });

const get = (url: string, headers: Record<string, string> = pro) => h.app.inject({ url, headers });

describe('search', () => {
  it('answers results, total, page, response_time_ms and cached, in the SG market by default', async () => {
    const r = await get('/v1/products/search?q=galaxy');
    expect(r.statusCode).toBe(200);
    const b = r.json();
    expect(Object.keys(b)).toEqual(['results', 'total', 'page', 'response_time_ms', 'cached']);
    expect(b.page).toEqual({ limit: 20, offset: 0 });
    expect(b.cached).toBe(false);
    expect(Number.isInteger(b.response_time_ms)).toBe(true);
    expect(b.results.length).toBeGreaterThan(0);
    expect(b.results.every((x: { country_code: string }) => x.country_code === 'SG')).toBe(true);
    const a55 = b.results.find((x: { id: string }) => x.id === uuid['SG-A55']);
    expect(a55).toMatchObject({
      title: 'Samsung Galaxy A55 5G 8GB 128GB Awesome Navy', price: { amount: 479, currency: 'SGD' }, merchant: 'shop.example.com', region: 'SG',
      metadata: { brand: 'Samsung', sku: 'SG-A55', gtin: '8806095426280', availability: 'in_stock', rating: 4.6, review_count: 120 },
    });
    expect(a55.original_price).toBeUndefined();
    const a35 = b.results.find((x: { id: string }) => x.id === uuid['SG-A35']);
    expect(a35).toMatchObject({ original_price: 459, discount_pct: expect.any(Number) });
  });

  it('the same request again comes from the response cache and says so', async () => {
    const r = await get('/v1/products/search?q=galaxy');
    expect(r.headers['x-cache']).toBe('HIT');
    expect(r.json().cached).toBe(true);
  });

  it('a detail answered from the cache differs from the first only in its timing and `cached`', async () => {
    const first = await get(`/v1/products/${uuid['TH-A55']}`);
    const again = await get(`/v1/products/${uuid['TH-A55']}`);
    expect([first.headers['x-cache'], again.headers['x-cache']]).toEqual(['MISS', 'HIT']);
    const [a, b] = [first.json(), again.json()];
    expect([a.cached, b.cached]).toEqual([false, true]);
    expect(b.results[0].title).toBe('ผ้าห่มนุ่ม "cached":false} พร้อมส่ง');
    expect({ ...b, response_time_ms: 0, cached: false }).toEqual({ ...a, response_time_ms: 0 });
    expect(Number(again.headers['content-length'])).toBe(Buffer.byteLength(again.body));
  });

  it('region SEA is every Southeast Asian market; prices are shown in the asked currency', async () => {
    const r = (await get('/v1/products/search?q=galaxy+a55&region=SEA&currency=SGD')).json();
    const countries = new Set(r.results.map((x: { country_code: string }) => x.country_code));
    expect(countries).toEqual(new Set(['SG', 'MY']));
    expect(r.results.every((x: { price: { currency: string } }) => x.price.currency === 'SGD')).toBe(true);
    const us = (await get('/v1/products/search?q=galaxy&country_code=US')).json();
    expect(us.results.map((x: { id: string }) => x.id)).toEqual([uuid['US-A55']]);
    expect(us.results[0].price).toEqual({ amount: 379.99, currency: 'USD' });
  });

  it('filters: brand and category partial, domain, price in the inferred currency, availability; sorts; page', async () => {
    expect((await get('/v1/products/search?q=galaxy&brand=spig')).json().results.map((x: { id: string }) => x.id)).toEqual([uuid['SG-CASE']]);
    expect((await get('/v1/products/search?q=samsung&category=case')).json().total).toBe(1);
    expect((await get('/v1/products/search?q=galaxy&domain=example.com')).json().total).toBeGreaterThan(0);
    expect((await get('/v1/products/search?q=galaxy&domain=nowhere.test')).json().total).toBe(0);
    const cheap = (await get('/v1/products/search?q=galaxy&max_price=100')).json();
    expect(cheap.results.map((x: { id: string }) => x.id)).toEqual([uuid['SG-CASE']]);
    const pre = (await get('/v1/products/search?q=galaxy&availability=preorder')).json();
    expect(pre.results.map((x: { id: string }) => x.id)).toEqual([uuid['SG-PRE']]);
    expect(pre.results[0].metadata.availability).toBe('preorder');
    const asc = (await get('/v1/products/search?q=galaxy&sort=price_asc')).json().results.map((x: { price: { amount: number } }) => x.price.amount);
    expect(asc).toEqual([...asc].sort((a, b) => a - b));
    const disc = (await get('/v1/products/search?q=galaxy&sort=discount_desc')).json().results;
    expect(disc[0].id).toBe(uuid['SG-A35']);
    const p2 = (await get('/v1/products/search?q=galaxy&limit=1&page=2')).json();
    expect(p2.page).toEqual({ limit: 1, offset: 1 });
  });

  it('fields selects names of 2.3 (id always kept); an unknown name is a 422 naming it; compact is smaller', async () => {
    const r = (await get(`/v1/products/search?q=galaxy+a35&fields=${FIELD_NAMES.join(',')}`)).json();
    const rec = r.results[0];
    for (const f of FIELD_NAMES) expect(rec).toHaveProperty(f);
    expect(rec).toMatchObject({ name: rec.title, images: [expect.any(String)], compare_at_price: 459, country: 'SG', region: 'SG' });
    expect(rec.comparison_attributes).toMatchObject({ brand: 'Samsung' });
    const few = (await get('/v1/products/search?q=galaxy&fields=title,price')).json().results[0];
    expect(Object.keys(few).sort()).toEqual(['click_url', 'id', 'price', 'title']);
    const bad = await get('/v1/products/search?q=galaxy&fields=title,colour');
    expect(bad.statusCode).toBe(422);
    expect(bad.json().detail[0]).toMatchObject({ loc: ['query', 'fields'], msg: expect.stringContaining('"colour"') });
    const full = await get('/v1/products/search?q=galaxy&_v=1');
    const compact = await get('/v1/products/search?q=galaxy&compact=true');
    // Both carry the same click_url (about 70 characters a result), which compact cannot shed.
    expect(compact.body.length).toBeLessThan(full.body.length * 0.6);
    expect(Object.keys(compact.json().results[0]).sort()).toEqual(['click_url', 'id', 'merchant', 'price', 'title', 'url']);
  });

  it('bad input: q missing or too long, limit out of range, unknown sort, unknown parameter', async () => {
    for (const url of ['/v1/products/search?q=', `/v1/products/search?q=${'x'.repeat(501)}`, '/v1/products/search?q=a&limit=101',
      '/v1/products/search?q=a&sort=cheapest', '/v1/products/search?q=a&country_code=XX', '/v1/products/search?q=a&colour=red']) {
      const r = await get(url);
      expect(r.statusCode, url).toBe(422);
      expect(r.json().detail[0].loc[0]).toBe('query');
    }
    expect((await get('/v1/products/search?q=galaxy', {})).json().error.code).toBe('MISSING_API_KEY');
  });

  it('an invalid shopping_job_id is ignored, not refused', async () => {
    expect((await get('/v1/products/search?q=galaxy&shopping_job_id=not%20url%20safe!')).statusCode).toBe(200);
    expect((await get(`/v1/products/search?q=galaxy&shopping_job_id=${'j'.repeat(300)}`)).statusCode).toBe(200);
  });
});

describe('detail, history, prices, similar', () => {
  it('detail by UUID is a results envelope of one with full metadata; absent is 404 NOT_FOUND', async () => {
    const r = (await get(`/v1/products/${uuid['SG-A55']}`)).json();
    expect(r).toMatchObject({ total: 1, page: { limit: 1, offset: 0 }, cached: false });
    expect(r.results[0]).toMatchObject({ id: uuid['SG-A55'], metadata: { brand: 'Samsung', category_path: ['Electronics', 'Mobile Phones', 'Smartphones'] } });
    const missing = await get('/v1/products/00000000-0000-4000-8000-000000000000');
    expect(missing.statusCode).toBe(404);
    expect(missing.json().error.code).toBe('NOT_FOUND');
    expect((await get(`/v1/products/${uuid['SG-A55']}`, {})).json().error.code).toBe('MISSING_API_KEY');
  });

  it('price-history is daily with stats; days max 180', async () => {
    const r = (await get(`/v1/products/${uuid['SG-A55']}/price-history?days=30`)).json();
    expect(r.meta.days).toBe(30);
    expect(r.data).toMatchObject({ product_id: uuid['SG-A55'], current_price: 479, currency: 'SGD' });
    expect(r.data.daily.map((d: { day: string; min: number; data_points: number }) => [d.day, d.min, d.data_points])).toEqual([['2026-11-20', 499, 1], ['2026-11-21', 479, 1]]);
    expect(r.data.stats).toEqual({ min: 479, max: 499, avg: 489 });
    expect((await get(`/v1/products/${uuid['SG-A55']}/price-history?days=181`)).statusCode).toBe(422);
    expect((await get(`/v1/products/${uuid['SG-A55']}/price-history`)).json().meta.days).toBe(30);
  });

  it('prices is every observation with stats and data_points; days max 90', async () => {
    const r = (await get(`/v1/products/${uuid['SG-A55']}/prices`)).json();
    expect(r.data.history).toEqual([
      { price: 499, currency: 'SGD', at: '2026-11-20T10:00:00.000Z' }, { price: 479, currency: 'SGD', at: expect.stringMatching(/^2026-11-21/) },
    ]);
    expect(r.data.stats).toEqual({ min: 479, max: 499, avg: 489, data_points: 2 });
    expect((await get(`/v1/products/${uuid['SG-A55']}/prices?days=91`)).statusCode).toBe(422);
    expect((await get('/v1/products/123/prices')).statusCode).toBe(422);
  });

  it('similar: same brand first, never the same product elsewhere; limit default 8, max 20', async () => {
    const r = (await get(`/v1/products/${uuid['SG-A55']}/similar`)).json();
    expect(r.meta).toMatchObject({ source_id: uuid['SG-A55'], count: r.data.length });
    const ids = r.data.map((x: { id: string }) => x.id);
    expect(ids[0]).toBe(uuid['SG-A35']);
    expect(ids).not.toContain(uuid['MY-A55']);
    expect(ids).not.toContain(uuid['SG-A55']);
    expect(r.data[0]).toMatchObject({ source: 'lazada_sg', domain: 'shop.example.com', price: 399, currency: 'SGD', brand: 'Samsung', region: 'SG' });
    expect((await get(`/v1/products/${uuid['SG-A55']}/similar?limit=21`)).statusCode).toBe(422);
  });
});

describe('compare by ids (bulk lookup), deals, categories', () => {
  it('compares 2 to 10 UUIDs for pro; mixed currencies are flagged; fewer than 2 is a plain 400', async () => {
    const r = (await get(`/v1/products/compare?ids=${uuid['SG-A55']},${uuid['MY-A55']}`)).json();
    expect(r.results.map((x: { id: string }) => x.id)).toEqual([uuid['SG-A55'], uuid['MY-A55']]);
    expect(r.results[1]).toMatchObject({ price: { amount: 1599, currency: 'MYR' }, brand: 'Samsung', domain: 'shop.example.com' });
    expect(r).toMatchObject({ currencies_mixed: true, currency_warning: expect.stringContaining('MYR, SGD'), not_found: [] });
    const one = (await get(`/v1/products/compare?ids=${uuid['SG-A55']},${uuid['MY-A55']}&currency=SGD`)).json();
    expect(one).toMatchObject({ currencies_mixed: false, currency_warning: null });
    const few = await get(`/v1/products/compare?ids=${uuid['SG-A55']}`);
    expect(few.statusCode).toBe(400);
    expect(typeof few.json().error).toBe('string');
    const many = await get(`/v1/products/compare?ids=${Array.from({ length: 11 }, (_, i) => `00000000-0000-4000-8000-0000000000${10 + i}`).join(',')}`);
    expect(many.statusCode).toBe(422);
    const bad = await get(`/v1/products/compare?ids=${uuid['SG-A55']},nope`);
    expect(bad.statusCode).toBe(422);
    const absent = (await get(`/v1/products/compare?ids=${uuid['SG-A55']},00000000-0000-4000-8000-000000000000`)).json();
    expect(absent.not_found).toEqual(['00000000-0000-4000-8000-000000000000']);
    const lower = await get(`/v1/products/compare?ids=${uuid['SG-A55']},${uuid['MY-A55']}`, free);
    expect(lower.statusCode).toBe(403);
    expect(lower.json().error.code).toBe('INSUFFICIENT_SCOPE');
  });

  it('deals: discounted in the market, biggest discount first, with original_price and discount_pct', async () => {
    const r = (await get('/v1/products/deals')).json();
    expect(r.results.map((x: { id: string }) => x.id)).toEqual([uuid['SG-A35']]);
    expect(r.results[0]).toMatchObject({ original_price: 459, discount_pct: 13.07 });
    expect((await get('/v1/products/deals?min_discount=50')).json().total).toBe(0);
    expect((await get('/v1/products/deals?limit=0')).statusCode).toBe(422);
  });

  it('categories: slug, name, product_count with data and meta; detail with subcategories and products', async () => {
    const list = (await get('/v1/categories?currency=SGD')).json();
    expect(list.meta.total).toBe(list.data.length);
    expect(list.data).toContainEqual({ slug: 'kitchen-appliances', name: 'Kitchen Appliances', product_count: 2 });
    const d = (await get('/v1/categories/kitchen-appliances')).json();
    expect(d.data).toMatchObject({ slug: 'kitchen-appliances', product_count: 2 });
    expect(d.data.subcategories.map((s: { slug: string }) => s.slug).sort()).toEqual(['kettles', 'rice-cookers']);
    expect(d.data.products).toHaveLength(2);
    const vnd = d.data.products.find((p: { source: string }) => p.source === 'tiki_vn');
    expect(vnd.currency).toBe('SGD');
    expect(d.meta).toMatchObject({ limit: 20, offset: 0, total: 2 });
    expect((await get('/v1/categories/no-such-thing')).statusCode).toBe(404);
    expect((await get('/v1/categories/Bad%20Slug')).statusCode).toBe(422);
  });
});

describe('dispatch', () => {
  it('UUIDs, B-only parameters and the header pick B; integer ids and A parameters keep A; never the other body', async () => {
    expect((await get(`/v1/products/${uuid['SG-A55']}`)).json()).toHaveProperty('results');
    expect((await get(`/v1/products/${uuid['SG-A55']}/price-history`)).json()).toHaveProperty('data.daily');
    const a = (await get('/v1/products/search?q=galaxy&sort_by=relevance')).json();
    expect(a).toHaveProperty('items');
    expect(a).not.toHaveProperty('results');
    const forced = (await h.app.inject({ url: '/v1/products/search?q=galaxy&sort_by=relevance', headers: { ...pro, 'catalog-surface': 'B' } }));
    expect(forced.statusCode).toBe(422);
    expect(forced.json().detail[0].loc).toEqual(['query', 'sort_by']);
    expect((await get('/v1/categories')).json()).toHaveProperty('categories');
    expect((await get('/v1/categories?currency=SGD')).json()).toHaveProperty('data');
  });
});

describe('reference', () => {
  it('/openapi.json lists every surface B route; a shared path once, under both surfaces', async () => {
    const doc = (await h.app.inject({ url: '/openapi.json' })).json() as { paths: Record<string, Record<string, { tags: string[] }>> };
    for (const path of ['/v1/products/{ref}/prices', '/v1/products/{ref}/similar', '/v1/products/deals', '/v1/categories/{slug}']) {
      expect(doc.paths[path]?.get.tags, path).toEqual(['surface B']);
    }
    for (const path of ['/v1/products/search', '/v1/products/{ref}', '/v1/products/{ref}/price-history', '/v1/products/compare', '/v1/categories']) {
      expect(doc.paths[path]?.get.tags, path).toEqual(['surface A', 'surface B']);
    }
  });
});

describe('category detail and similar read term lists, not the whole catalog, on both engines', () => {
  it('answer the same with the store engine (SEARCH_INDEX=off) as with the index', async () => {
    const off = await makeHarness({ SEARCH_INDEX: 'off' });
    await off.ingest([
      ...CATALOG, rec({ source: 'lazada_sg', sku: 'SG-A35', title: 'Samsung Galaxy A35 5G 8GB 128GB Awesome Lilac', price: '399.00', original_price: '459.00' }),
      rec({ source: 'shopee_sg', sku: 'SG-PRE', title: 'Samsung Galaxy S25 Edge preorder', price: '1699.00', stock_level: 'preorder', in_stock: false }), BLANKET,
    ]);
    const key = (await off.key('pro')).headers;
    const ids = async (hh: Harness, url: string, headers: Record<string, string>) => {
      const r = (await hh.app.inject({ url, headers })).json();
      return (r.data.products ?? r.data).map((x: { title: string }) => x.title).sort();
    };
    for (const slug of ['kitchen-appliances', 'home-living', 'smartphones', 'electronics']) {
      expect(await ids(off, `/v1/categories/${slug}`, key), slug).toEqual(await ids(h, `/v1/categories/${slug}`, pro));
    }
    const [a55] = (await off.c.catalog.findBySku('SG-A55'));
    expect((await ids(off, `/v1/products/${a55.uuid}/similar`, key))).toContain('Samsung Galaxy A35 5G 8GB 128GB Awesome Lilac');
    await off.close();
  });
});

describe('similar after the catalog changes', () => {
  it('ranks a listing added since it was last asked (its candidates are read again)', async () => {
    const fresh = await makeHarness();
    await fresh.ingest(CATALOG);
    const key = (await fresh.key('pro')).headers;
    const [a55] = (await fresh.c.catalog.findBySku('SG-A55')).filter((l) => l.source === 'shopee_sg');
    const titles = async () => ((await fresh.app.inject({ url: `/v1/products/${a55.uuid}/similar`, headers: key })).json().data as Array<{ title: string }>).map((x) => x.title);
    expect(await titles()).not.toContain('Samsung Galaxy A56 5G 8GB 256GB Awesome Graphite');
    await fresh.ingest([rec({ source: 'lazada_sg', sku: 'SG-A56', title: 'Samsung Galaxy A56 5G 8GB 256GB Awesome Graphite', price: '529.00' })]);
    expect((await titles())[0]).toBe('Samsung Galaxy A56 5G 8GB 256GB Awesome Graphite');
    await fresh.close();
  });

  it('keeps its candidates while nothing changes, however long: a re-check alone reads none again', async () => {
    const fresh = await makeHarness();
    const a35 = rec({ source: 'lazada_sg', sku: 'SG-A35', title: 'Samsung Galaxy A35 5G 8GB 128GB Awesome Lilac', price: '399.00' });
    await fresh.ingest([...CATALOG, a35]);
    const key = (await fresh.key('pro')).headers;
    const [a55] = (await fresh.c.catalog.findBySku('SG-A55')).filter((l) => l.source === 'shopee_sg');
    // Candidates are read through the index (titles) or, without it, by the store's search: both counted.
    const store = fresh.c.store.catalog;
    let reads = 0;
    const titlesOf = store.titles.bind(store);
    const searchOf = store.search.bind(store);
    store.titles = async (ids) => { reads++; return titlesOf(ids); };
    store.search = async (q) => { reads++; return searchOf(q); };
    const similar = async () => (await fresh.app.inject({ url: `/v1/products/${a55.uuid}/similar`, headers: key })).json().data as Array<{ id: string }>;
    const first = await similar();
    expect(first.length).toBeGreaterThan(0);
    const read = reads;
    expect(read).toBeGreaterThan(0);
    // An hour on, and the same lines imported again (only last_checked_at moves): the same answer, no list read again.
    fresh.clock.advance(3_600_000);
    await fresh.ingest([...CATALOG, a35]);
    expect(await similar()).toEqual(first);
    expect(reads).toBe(read);
    // A change does clear them.
    await fresh.ingest([rec({ source: 'lazada_sg', sku: 'SG-A56', title: 'Samsung Galaxy A56 5G 8GB 256GB Awesome Graphite', price: '529.00' })]);
    await similar();
    expect(reads).toBeGreaterThan(read);
    await fresh.close();
  });
});
