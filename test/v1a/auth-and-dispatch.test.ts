import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeHarness, type Harness } from '../helpers/app.js';
import { CATALOG } from '../helpers/catalog.js';
import { surfaceForRequest } from '../../src/api/dispatch.js';

let h: Harness;
let key: string;
beforeAll(async () => {
  h = await makeHarness();
  await h.ingest(CATALOG);
  key = (await h.key('pro')).key;
});
afterAll(async () => { await h.close(); });

const ROUTES = ['/v1', '/v1/search?q=a', '/v1/products/search?sort_by=newest', '/v1/products', '/v1/products/1', '/v1/products/SG-A55',
  '/v1/products/1/price-history', '/v1/products/best-price?q=a', '/v1/products/compare?product_id=1', '/v1/products/1/compare',
  '/v1/products/trending', '/v1/products/export', '/v1/deals', '/v1/categories'];

describe('authentication, over every route', () => {
  it.each(ROUTES)('%s: no key is 401 MISSING_API_KEY with registration help; a wrong key is 401 UNAUTHORIZED', async (url) => {
    const none = await h.app.inject({ url });
    expect(none.statusCode).toBe(401);
    expect(none.json().error.code).toBe('MISSING_API_KEY');
    expect(none.json().error.details.register).toMatch(/\/v1\/auth\/register/);
    const wrong = await h.app.inject({ url, headers: { authorization: 'Bearer ck_0000000000000000000000000000000000000' } });
    expect(wrong.statusCode).toBe(401);
    expect(wrong.json().error.code).toBe('UNAUTHORIZED');
  });

  it('the key is checked before the input: a bad query or body without a valid key is 401, not 422', async () => {
    const wrongKey = { authorization: 'Bearer ck_0000000000000000000000000000000000000' };
    for (const headers of [{}, wrongKey]) {
      expect((await h.app.inject({ url: '/v1/search?limit=100000&q=' + 'x'.repeat(600), headers })).statusCode).toBe(401);
      const post = await h.app.inject({ method: 'POST', url: '/v1/products/compare', headers: { ...headers, 'content-type': 'application/json' }, payload: '{"product_ids": "not json' });
      expect(post.statusCode).toBe(401);
    }
    // With a valid key the same inputs are refused for what they are.
    expect((await h.app.inject({ url: '/v1/search?limit=100000', headers: { authorization: `Bearer ${key}` } })).statusCode).toBe(422);
  });

  it('accepts the four forms of spec 5.2', async () => {
    for (const headers of [{ authorization: `Bearer ${key}` }, { authorization: `ApiKey ${key}` }, { 'x-api-key': key }]) {
      expect((await h.app.inject({ url: '/v1/categories', headers })).statusCode).toBe(200);
    }
    expect((await h.app.inject({ url: `/v1/categories?api_key=${key}` })).statusCode).toBe(200);
  });

  it('/health needs no key and reports a version', async () => {
    const r = await h.app.inject({ url: '/health' });
    expect(r.statusCode).toBe(200);
    expect(r.json()).toMatchObject({ status: 'ok', version: expect.any(String), environment: expect.any(String), search_index: 'ready' });
  });

  it('unknown routes get the standard 404 envelope; errors never leak a stack', async () => {
    const r = await h.app.inject({ url: '/v1/nope', headers: { authorization: `Bearer ${key}` } });
    expect(r.statusCode).toBe(404);
    expect(r.json().error.code).toBe('NOT_FOUND');
    const bad = await h.app.inject({ method: 'POST', url: '/v1/products/compare', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, payload: '{oops' });
    expect(bad.statusCode).toBe(400);
    expect(bad.body).not.toMatch(/at .*\.ts:\d+/);
  });

  it('the reference pages at /docs are public', async () => {
    const page = await h.app.inject({ url: '/docs/' });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toMatch(/text\/html/);
    expect((await h.app.inject({ url: '/docs/js/scalar.js' })).statusCode).toBe(200);
  });

  it('GET /v1 lists endpoints; /openapi.json is an OpenAPI 3.1 document of the routes', async () => {
    const root = (await h.app.inject({ url: '/v1', headers: { authorization: `Bearer ${key}` } })).json();
    expect(root).toMatchObject({ version: 'v1', docs: '/docs' });
    const doc = (await h.app.inject({ url: '/openapi.json' })).json();
    expect(doc.openapi).toBe('3.1.0');
    expect(Object.keys(doc.paths)).toEqual(expect.arrayContaining(['/v1/search', '/v1/products/search', '/v1/products/{ref}', '/v1/deals']));
  });
});

describe('shared /v1 path dispatch', () => {
  const q = (s: string) => new URLSearchParams(s);
  it.each([
    ['/v1/products/search', 'q=a', undefined, 'B'],
    ['/v1/products/search', 'q=a&sort_by=newest', undefined, 'A'],
    ['/v1/products/search', 'include_facets=true', undefined, 'A'],
    ['/v1/products/compare', 'product_id=1', undefined, 'A'],
    ['/v1/products/compare', 'ids=a,b', undefined, 'B'],
    ['/v1/categories', '', undefined, 'A'],
    ['/v1/categories', 'currency=SGD', undefined, 'B'],
    ['/v1/products/123', '', undefined, 'A'],
    ['/v1/products/SKU-1', '', undefined, 'A'],
    ['/v1/products/5f0c2c8e-8d3b-4f57-9a53-0c7d2a1e9b10', '', undefined, 'B'],
    ['/v1/products/5f0c2c8e-8d3b-4f57-9a53-0c7d2a1e9b10/price-history', '', undefined, 'B'],
    ['/v1/products/search', 'q=a', 'A', 'A'],
    ['/v1/products/123', '', 'b', 'B'],
  ])('%s?%s (override %s) -> %s', (path, query, override, want) => {
    expect(surfaceForRequest(path, q(query), override)).toBe(want);
  });
});
