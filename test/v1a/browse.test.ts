import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'csv-parse/sync';
import { makeHarness, type Harness } from '../helpers/app.js';
import { CATALOG } from '../helpers/catalog.js';
import { rec } from '../helpers/records.js';

let h: Harness;
let auth: { authorization: string };
beforeAll(async () => {
  h = await makeHarness();
  await h.ingest(CATALOG.map((r) => ({ ...r, observed_at: '2026-10-01T00:00:00Z' })));
  // The kettle drops from 59.00 to 45.00 after a month at its usual price: a deal against its own history.
  await h.ingest([rec({ ...CATALOG[4], price: '59.00', observed_at: '2026-10-20T00:00:00Z' })]);
  await h.ingest([rec({ ...CATALOG[4], price: '45.00', observed_at: '2026-11-19T00:00:00Z' })]);
  auth = (await h.key('pro')).headers;
});
afterAll(async () => { await h.close(); });

const get = (url: string) => h.app.inject({ method: 'GET', url, headers: auth });

describe('deals, trending, categories, export', () => {
  it('GET /v1/deals lists products priced below their own history by at least min_discount_pct', async () => {
    const body = (await get('/v1/deals')).json();
    expect(body.items.map((i: { sku: string }) => i.sku)).toEqual(['SG-KETTLE']);
    expect(body.items[0]).toMatchObject({ reference_price: '59', discount_pct: 23.73 });
    expect((await get('/v1/deals?min_discount_pct=30')).json().total).toBe(0);
    expect((await get('/v1/deals?limit=101')).statusCode).toBe(422);
  });

  it('GET /v1/products/trending lists the products whose price fell this week, biggest drop first', async () => {
    const body = (await get('/v1/products/trending')).json();
    expect(body.items.map((i: { sku: string }) => i.sku)).toEqual(['SG-KETTLE']);
    expect(body.items[0]).toMatchObject({ price_before: '59.00', price_drop_pct: 23.73, price_changes: 1 });
    expect(body).toMatchObject({ total: 1, limit: 20, window_days: 7 });
    expect((await get('/v1/products/trending?limit=0')).statusCode).toBe(422);
  });

  it('GET /v1/categories lists every level with counts', async () => {
    const body = (await get('/v1/categories')).json();
    const byName = Object.fromEntries(body.categories.map((c: { name: string; count: number }) => [c.name, c.count]));
    expect(byName).toMatchObject({ Electronics: 4, 'Home & Living': 2, Smartphones: 3, Kettles: 1 });
    expect(body.total).toBe(body.categories.length);
  });

  it('GET /v1/products/export streams JSON and CSV with the same rows', async () => {
    const json = (await get('/v1/products/export?source=shopee_sg')).json();
    expect(json.map((r: { sku: string }) => r.sku).sort()).toEqual(['SG-A55', 'SG-CASE']);
    const csv = await get('/v1/products/export?format=csv&source=shopee_sg');
    expect(csv.headers['content-type']).toMatch(/text\/csv/);
    const rows = parse(csv.body, { columns: true }) as Array<Record<string, string>>;
    expect(rows.map((r) => r.sku).sort()).toEqual(['SG-A55', 'SG-CASE']);
    expect(rows[0].price).toMatch(/^\d+\.\d{2}$/);
    expect((await get('/v1/products/export?limit=10001')).statusCode).toBe(422);
    expect((await get('/v1/products/export?format=xml')).json().detail[0].loc).toEqual(['query', 'format']);
    expect((await get('/v1/products/export?limit=2&offset=1')).json()).toHaveLength(2);
  });
});
