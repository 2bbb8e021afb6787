import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeHarness, type Harness } from '../helpers/app.js';
import { rec } from '../helpers/records.js';

let h: Harness;
let key: string;
let auth: { authorization: string };
let sg: { id: number; uuid: string };
const A55 = { gtin: '8806095426280', rating: 4.6 };
/** One phone on three platforms, first seen on Sep 1; then the Singapore offer drops twice and the US one rises once. */
const HISTORY: Array<[string, Record<string, unknown>]> = [
  ['2026-09-01T10:00:00Z', { source: 'shopee_sg', sku: 'SG-A55', price: '499.00', ...A55 }],
  ['2026-09-01T10:00:00Z', { source: 'lazada_my', sku: 'MY-A55', price: '1599.00', currency: 'MYR', country_code: 'MY', ...A55 }],
  ['2026-09-01T10:00:00Z', { source: 'amazon_us', sku: 'US-A55', price: '379.99', currency: 'USD', country_code: 'US', ...A55 }],
  ['2026-10-15T10:00:00Z', { source: 'shopee_sg', sku: 'SG-A55', price: '479.00', ...A55 }],
  ['2026-11-10T10:00:00Z', { source: 'shopee_sg', sku: 'SG-A55', price: '469.00', ...A55 }],
  ['2026-11-12T10:00:00Z', { source: 'amazon_us', sku: 'US-A55', price: '389.99', currency: 'USD', country_code: 'US', ...A55 }],
];

beforeAll(async () => {
  h = await makeHarness();
  for (const [at, over] of HISTORY) {
    h.clock.set(at);
    await h.ingest([rec({ ...over, observed_at: at })]);
  }
  h.clock.set('2026-11-20T12:00:00Z');
  ({ key, headers: auth } = await h.key('pro'));
  const [l] = await h.c.catalog.findBySku('SG-A55');
  sg = { id: l.id, uuid: l.uuid };
});
afterAll(async () => { await h.close(); });

const get = (url: string, headers: Record<string, string> = { ...auth }) => h.app.inject({ method: 'GET', url, headers });
const chart = (ref: string | number, query = '') => get(`/v1/products/${ref}/price-history/chart${query ? `?${query}` : ''}`);
const paths = (svg: string) => [...svg.matchAll(/<path class="offer[^"]*" data-listing-id="(\d+)" d="([^"]*)"/g)].map((m) => ({ id: Number(m[1]), d: m[2] }));

describe('GET /v1/products/{id}/price-history/chart', () => {
  it('draws one listing as an SVG with both axes labelled, one line and the lowest marked', async () => {
    const res = await chart(sg.id);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('image/svg+xml; charset=utf-8');
    expect(res.headers['content-security-policy']).toContain("default-src 'none'");
    const svg = res.body;
    expect(svg).toMatch(/^<svg xmlns="http:\/\/www.w3.org\/2000\/svg" width="800" height="400"/);
    expect(svg).toContain('Price in SGD, last 90 days to Nov 20, 2026 (UTC)');
    // The y axis names the currency and carries price ticks; the x axis carries dates.
    expect(svg).toMatch(/class="axis-label"[^>]*>SGD</);
    expect(svg).toMatch(/<g class="axis x-axis">[\s\S]*>(Aug|Sep|Oct|Nov) \d{1,2}</);
    expect(svg).toMatch(/<g class="axis y-axis">[\s\S]*class="tick">4[5-9]\d</);
    const lines = paths(svg);
    expect(lines).toHaveLength(1);
    // A step line from the window's start: 499, then 479 from Oct 15, 469 from Nov 10, held to now (d3-shape's step curve).
    expect(lines[0].d).toMatch(/^M[\d.]+,[\d.]+(L[\d.]+,[\d.]+){6}$/);
    expect(svg).toContain(`<g class="lowest" data-listing-id="${sg.id}">`);
    expect(svg).toContain('Lowest now: 469.00 SGD (shopee_sg)');
  });

  it('with offers=true draws one path per offer of the match group, in one currency, the cheapest marked', async () => {
    const svg = (await chart(sg.id, 'offers=true&currency=USD')).body;
    const lines = paths(svg);
    expect(lines).toHaveLength(3);
    expect(new Set(lines.map((l) => l.id)).size).toBe(3);
    expect(svg).toContain('Price in USD');
    // Exact conversion of the native prices by the rate table in force, in the currency's decimals.
    const sgdInUsd = h.c.fx.convertText('469.00', 'SGD', 'USD');
    const myrInUsd = h.c.fx.convertText('1599.00', 'MYR', 'USD');
    expect(svg).toContain(`<g class="lowest" data-listing-id="${sg.id}">`);
    expect(svg).toContain(`Lowest now: ${sgdInUsd} USD (shopee_sg)`);
    // The legend, cheapest first.
    expect([...svg.matchAll(/fill="#333"[^>]*>([^<]+)</g)].map((m) => m[1])).toEqual([`shopee_sg ${sgdInUsd}`, `lazada_my ${myrInUsd}`, 'amazon_us 389.99']);
  });

  it('keeps a plot at the smallest size: every line drawn inside the image', async () => {
    const svg = (await chart(sg.id, 'offers=true&width=240&height=160')).body;
    const lines = paths(svg);
    expect(lines).toHaveLength(3);
    for (const l of lines) {
      for (const [, x, y] of l.d.matchAll(/[ML]([\d.]+),([\d.]+)/g)) {
        expect(Number(x)).toBeLessThanOrEqual(240);
        expect(Number(y)).toBeGreaterThanOrEqual(52);
        expect(Number(y)).toBeLessThanOrEqual(160 - 44);
      }
    }
  });

  it('answers for every id form: integer id, SKU and UUID (surface B)', async () => {
    const byId = paths((await chart(sg.id)).body);
    const bySku = await chart('SG-A55');
    const byUuid = await chart(sg.uuid);
    expect(bySku.statusCode).toBe(200);
    expect(byUuid.statusCode).toBe(200);
    expect(paths(bySku.body)).toEqual(byId);
    expect(paths(byUuid.body)).toEqual(byId);
  });

  it('renders a PNG with format=png', async () => {
    const res = await chart(sg.id, 'format=png&width=400&height=240');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('image/png');
    expect(res.rawPayload.subarray(1, 4).toString()).toBe('PNG');
    // The IHDR chunk: width and height as asked.
    expect(res.rawPayload.readUInt32BE(16)).toBe(400);
    expect(res.rawPayload.readUInt32BE(20)).toBe(240);
  });

  it('escapes catalog text: a title is never markup', async () => {
    await h.ingest([rec({ source: 'lazada_sg', sku: 'XSS-1', title: 'Evil <script>alert(1)</script> & "quotes"', price: '10.00' })]);
    const svg = (await chart('XSS-1')).body;
    expect(svg).not.toContain('<script>');
    expect(svg).toContain('Evil &#60;script&#62;alert(1)&#60;/script&#62; &#38; &#34;quotes&#34;');
  });

  it('is cached like detail, the same for every way of sending the key', async () => {
    const first = await chart(sg.id, 'days=30&_t=cache');
    expect(first.headers['cache-control']).toBe('private, max-age=300');
    const second = await get(`/v1/products/${sg.id}/price-history/chart?days=30&_t=cache&api_key=${key}`, {});
    expect(second.statusCode).toBe(200);
    expect(second.headers['x-cache']).toBe('HIT');
    expect(second.body).toBe(first.body);
    const png1 = await chart(sg.id, 'format=png&_t=cache');
    const png2 = await chart(sg.id, 'format=png&_t=cache');
    expect(png2.headers['x-cache']).toBe('HIT');
    expect(png2.headers['content-type']).toBe('image/png');
    expect(png2.rawPayload.equals(png1.rawPayload)).toBe(true);
  });

  it('takes the key in the query (an <img> sends no header) and still refuses a request without one', async () => {
    expect((await get(`/v1/products/${sg.id}/price-history/chart?api_key=${key}`, {})).statusCode).toBe(200);
    const missing = await get(`/v1/products/${sg.id}/price-history/chart`, {});
    expect(missing.statusCode).toBe(401);
    expect(missing.json().error.code).toBe('MISSING_API_KEY');
  });

  it('refuses bad parameters in the v1 validation envelope, the field named', async () => {
    const cases: Array<[string, string]> = [
      ['width=0', 'width'], ['width=5000', 'width'], ['height=10', 'height'], ['days=10000', 'days'], ['days=0', 'days'],
      ['currency=XYZ', 'currency'], ['format=gif', 'format'], ['offers=maybe', 'offers'], ['colour=red', 'colour'],
    ];
    for (const [query, field] of cases) {
      const res = await chart(sg.id, query);
      expect(res.statusCode, query).toBe(422);
      expect(res.json().detail[0].loc, query).toEqual(['query', field]);
    }
    // Surface B answers a UUID's bad parameters in the same v1 envelope.
    expect((await chart(sg.uuid, 'width=0')).json().detail[0].loc).toEqual(['query', 'width']);
  });

  it('answers an unknown id, SKU or UUID with the standard 404', async () => {
    const byId = await chart(999999);
    expect(byId.statusCode).toBe(404);
    expect(byId.json().error).toMatchObject({ code: 'NOT_FOUND', details: { product_id: 999999 } });
    const bySku = await chart('NO-SUCH-SKU');
    expect(bySku.json().error).toMatchObject({ code: 'PRODUCT_NOT_FOUND', details: { sku: 'NO-SUCH-SKU' } });
    const byUuid = await chart('00000000-0000-4000-8000-000000000000');
    expect(byUuid.statusCode).toBe(404);
    expect(byUuid.json().error.code).toBe('NOT_FOUND');
  });
});
