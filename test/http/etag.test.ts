import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { entityTag, noneMatchHits } from '../../src/http/etag.js';
import { makeHarness, type Harness } from '../helpers/app.js';
import { rec } from '../helpers/records.js';

describe('If-None-Match (RFC 9110 13.1.2)', () => {
  it('matches *, any tag of a list, and compares weakly', () => {
    expect(noneMatchHits(undefined, '"a"')).toBe(false);
    expect(noneMatchHits('*', '"a"')).toBe(true);
    expect(noneMatchHits('"x", "a"', '"a"')).toBe(true);
    expect(noneMatchHits('W/"a"', '"a"')).toBe(true);
    expect(noneMatchHits('"a"', 'W/"a"')).toBe(true);
    expect(noneMatchHits('"x","y"', '"a"')).toBe(false);
    expect(noneMatchHits('a', '"a"')).toBe(false);
  });

  it('tags bytes strongly, and an answer reporting its own timing weakly, without the timing', () => {
    expect(entityTag(Buffer.from('{"a":1}'))).toMatch(/^"[\w-]+"$/);
    expect(entityTag(Buffer.from('{"a":1}'))).not.toBe(entityTag(Buffer.from('{"a":2}')));
    const timed = (ms: number, cached: boolean) => Buffer.from(`{"a":1,"response_time_ms":${ms},"cached":${cached}}`);
    expect(entityTag(timed(3, false))).toMatch(/^W\/"/);
    expect(entityTag(timed(3, false))).toBe(entityTag(timed(40, true)));
  });
});

let h: Harness;
let headers: { authorization: string };
let id: number;
let uuid: string;

beforeAll(async () => {
  h = await makeHarness();
  await h.ingest([rec({ sku: 'TAG-1' }), rec({ sku: 'TAG-2', price: '10.00' })]);
  headers = (await h.key('pro')).headers;
  const l = (await h.c.store.catalog.getBySku('TAG-1'))[0];
  id = l.id;
  uuid = l.uuid;
});
afterAll(() => h.close());

const get = (url: string, extra: Record<string, string> = {}) => h.app.inject({ method: 'GET', url, headers: { ...headers, ...extra } });

describe('ETag and 304 on cacheable GETs', () => {
  const tagged = () => [
    `/v1/products/${id}`, '/v1/products?limit=5', '/v1/search?q=samsung', `/v1/products/${id}/price-history`,
    `/v2/products/${id}`, '/v2/products?limit=5', '/v2/search?q=samsung', '/v1/categories', '/v1/deals',
  ];

  it('tags each answer and answers 304 (no body, same tag, Cache-Control kept) to its tag', async () => {
    for (const url of tagged()) {
      const first = await get(url);
      expect(first.statusCode, url).toBe(200);
      const etag = first.headers.etag as string;
      expect(etag, url).toMatch(/^"[\w-]+"$/);
      for (const inm of [etag, `"other", ${etag}`, '*', `W/${etag}`]) {
        const again = await get(url, { 'if-none-match': inm });
        expect(again.statusCode, `${url} ${inm}`).toBe(304);
        expect(again.body).toBe('');
        expect(again.headers.etag).toBe(etag);
        expect(again.headers['cache-control']).toBe(first.headers['cache-control']);
      }
      expect((await get(url, { 'if-none-match': '"stale"' })).statusCode).toBe(200);
    }
  });

  // The A detail route serializes with its own schema (a SKU or a product record): Fastify then
  // sets no Content-Type itself, and the first answer once went out without one.
  it('sends a kept answer with the Content-Type of the first, JSON with its charset', async () => {
    for (const url of [...tagged(), '/v1/products/TAG-1', `/v1/products/${uuid}`]) {
      const first = await get(url);
      const hit = await get(url);
      expect(first.headers['content-type'], url).toBe('application/json; charset=utf-8');
      expect(hit.headers['content-type'], url).toBe(first.headers['content-type']);
    }
  });

  it('answers 304 from the response cache as from a computed answer, with the tag stored once', async () => {
    const url = `/v1/products/${id}`;
    const a = await get(url);
    const hit = await get(url);
    expect(hit.headers['x-cache']).toBe('HIT');
    expect(hit.headers.etag).toBe(a.headers.etag);
    const notModified = await get(url, { 'if-none-match': a.headers.etag as string });
    expect(notModified.headers['x-cache']).toBe('HIT');
    expect(notModified.statusCode).toBe(304);
  });

  it('changes the tag when the listing changes', async () => {
    const url = `/v2/products/${id}`;
    const before = (await get(url)).headers.etag as string;
    await h.ingest([rec({ sku: 'TAG-1', price: '450.00', observed_at: '2026-11-20T11:00:00.000Z' })]);
    const after = await get(url, { 'if-none-match': before });
    expect(after.statusCode).toBe(200);
    expect(after.headers.etag).not.toBe(before);
  });

  it('gives surface B a weak tag that survives its per-answer timing', async () => {
    const url = `/v1/products/${uuid}`;
    const first = await get(url);
    expect(first.headers.etag).toMatch(/^W\/"/);
    const hit = await get(url, { 'if-none-match': first.headers.etag as string });
    expect(hit.statusCode).toBe(304);
  });

  it('carries no tag on errors, streamed exports and the recorded search', async () => {
    const none = [
      await get('/v1/products/999999'),
      await get('/v1/products/export?limit=5'),
      await get('/v1/products/search?q=samsung'),
    ];
    expect(none.map((r) => r.statusCode)).toEqual([404, 200, 200]);
    for (const r of none) expect(r.headers.etag).toBeUndefined();
    const search = await get('/v1/products/search?q=samsung', { 'if-none-match': '*' });
    expect(search.statusCode).toBe(200);
  });
});
