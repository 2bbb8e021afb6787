import { connect } from 'node:net';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ExportService } from '../../src/catalog/export-service.js';
import type { Listing } from '../../src/domain/listing.js';
import { makeHarness, type Harness } from '../helpers/app.js';
import { CATALOG } from '../helpers/catalog.js';

/** Issue 18 items 1, 2, 3, 5, 18 and 19: what a fuzzer and an attacker sent, and what they get now. */
let h: Harness;
let auth: { authorization: string };
beforeAll(async () => {
  h = await makeHarness();
  await h.ingest(CATALOG);
  auth = (await h.key('pro')).headers;
});
afterAll(async () => { await h.close(); });

const get = (url: string) => h.app.inject({ url, headers: auth });
const post = (url: string, payload: string, type = 'application/json') => h.app.inject({ method: 'POST', url, headers: { ...auth, 'content-type': type }, payload });

describe('numbers that are not finite or out of bounds (items 1 and 2)', () => {
  it.each([
    '/v1/products/export?offset=1e400', '/v1/products/export?offset=Infinity&format=csv', '/v1/products/export?limit=-Infinity',
    '/v1/search?limit=1e400', '/v1/search?min_price=Infinity', '/v1/search?max_price=1e400', '/v1/search?offset=NaN',
    '/v1/products/search?price_min=-Infinity&sort_by=newest', '/v1/products?price_max=1e309', '/v1/products/1/price-history?days=Infinity',
    '/v1/products/1/price-history?offset=1e400', '/v1/deals?min_discount_pct=Infinity', '/v1/products/compare?product_id=1e400',
    '/v1/products/compare?product_id=1&min_price=1e400', '/v1/products/trending?limit=Infinity',
  ])('%s is a 422 naming the field, and the server lives on', async (url) => {
    const r = await get(url);
    expect(r.statusCode).toBe(422);
    const field = /[?&]([a-z_]+)=(?:1e\d+|-?Infinity|NaN)/.exec(url)![1];
    expect(r.json().detail[0].loc).toEqual(['query', field]);
    expect((await get('/v1/categories')).statusCode).toBe(200);
  });

  it('body numbers are bounded too', async () => {
    for (const body of ['{"product_ids": [1e400, 2]}', '{"product_ids": [1, 2], "min_price": 1e400}', '{"product_ids": [-1, 2]}']) {
      const r = await post('/v1/products/compare', body);
      expect(r.statusCode).toBe(422);
      expect(r.json().detail[0].loc[0]).toBe('body');
    }
  });

  it('every number any route takes has finite bounds', () => {
    const doc = h.app.swagger() as unknown as { paths: Record<string, Record<string, { parameters?: Array<{ name: string; schema: Record<string, unknown> }> }>> };
    const unbounded: string[] = [];
    for (const [path, ops] of Object.entries(doc.paths)) {
      for (const [method, op] of Object.entries(ops)) {
        for (const p of op.parameters ?? []) {
          // A parameter of a shared path has one schema per surface.
          for (const s of (p.schema.anyOf as Array<Record<string, unknown>> | undefined) ?? [p.schema]) {
            if ((s.type === 'integer' || s.type === 'number') && (typeof s.minimum !== 'number' || typeof s.maximum !== 'number')) unbounded.push(`${method} ${path} ${p.name}`);
          }
        }
      }
    }
    expect(unbounded).toEqual([]);
  });

  it('an export whose rows fail midway ends its stream with an error, never an unhandled one', async () => {
    const rows: Listing[] = [{ id: 1, title: 'x' } as Listing];
    async function* failing(): AsyncIterable<Listing> {
      yield* rows;
      throw new Error('disk gone');
    }
    for (const format of ['csv', 'json'] as const) {
      const file = await new ExportService(() => failing()).open(format, {}, 10, 0);
      const done = new Promise<Error | null>((resolve) => {
        file.body.on('error', resolve);
        file.body.on('end', () => resolve(null));
        file.body.resume();
      });
      expect(((await done) as Error).message).toBe('disk gone');
    }
    expect(Readable).toBeDefined();
  });
});

describe('every error in the surface envelope, with a documented status (item 3)', () => {
  it('refs of 101 to 200 characters are looked up; longer ones are 422 naming ref; a huge segment is 414', async () => {
    const r150 = await get(`/v1/products/${'a'.repeat(150)}`);
    expect(r150.statusCode).toBe(404);
    expect(r150.json().error.code).toBe('PRODUCT_NOT_FOUND');
    const r201 = await get(`/v1/products/${'a'.repeat(201)}`);
    expect(r201.statusCode).toBe(422);
    expect(r201.json().detail[0].loc).toEqual(['path', 'ref']);
    const huge = await get(`/v1/products/${'a'.repeat(5000)}`);
    expect(huge.statusCode).toBe(414);
    expect(huge.json().error.code).toBe('URI_TOO_LONG');
  });

  it('malformed JSON is 400, an unsupported media type 415, a bad escape 400: all in the standard envelope', async () => {
    const bad = await post('/v1/products/compare', '{"product_ids": [1,');
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error).toMatchObject({ code: 'BAD_REQUEST', message: expect.stringMatching(/JSON/) });
    const xml = await post('/v1/products/compare', '<ids/>', 'application/xml');
    expect(xml.statusCode).toBe(415);
    expect(xml.json().error.code).toBe('UNSUPPORTED_MEDIA_TYPE');
    const escape = await get('/v1/products/%E0%A4%A');
    expect(escape.statusCode).toBe(400);
    expect(escape.json().error.code).toBe('BAD_REQUEST');
  });

  it('a wrong method on a known path is 405 with Allow; an unknown path 404', async () => {
    const r = await h.app.inject({ method: 'DELETE', url: '/v1/products/search', headers: auth });
    expect(r.statusCode).toBe(405);
    expect(r.headers.allow).toMatch(/GET/);
    expect(r.json().error.code).toBe('METHOD_NOT_ALLOWED');
    const put = await h.app.inject({ method: 'PUT', url: '/v1/products/compare', headers: auth });
    expect(put.statusCode).toBe(405);
    expect(put.headers.allow).toBe('GET, HEAD, POST');
    expect((await get('/v1/nothing-here')).statusCode).toBe(404);
  });

  it('oversized headers are 431 in the standard envelope, from the real server', async () => {
    await h.app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = h.app.server.address() as { port: number };
    const raw = await new Promise<string>((resolve, reject) => {
      const s = connect(port, '127.0.0.1', () => s.write(`GET /v1/categories HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20000)}\r\n\r\n`));
      let text = '';
      s.on('data', (d) => { text += d.toString(); });
      s.on('end', () => resolve(text));
      s.on('error', reject);
    });
    expect(raw).toMatch(/^HTTP\/1.1 431/);
    expect(JSON.parse(raw.slice(raw.indexOf('\r\n\r\n') + 4)).error.code).toBe('HEADERS_TOO_LARGE');
  });
});

describe('bodies are capped per route (item 5)', () => {
  it('a read endpoint refuses a large body with 413 in the standard envelope', async () => {
    const r = await post('/v1/products/compare', JSON.stringify({ product_ids: [1, 2], pad: 'x'.repeat(1024 * 1024) }));
    expect(r.statusCode).toBe(413);
    expect(r.json().error.code).toBe('PAYLOAD_TOO_LARGE');
  });
});

describe('what a user gets wrong is named (items 18 and 19)', () => {
  it('an unknown parameter is 422 naming it and the closest known one', async () => {
    const r = await get('/v1/products?min_price=10');
    expect(r.statusCode).toBe(422);
    expect(r.json().detail[0]).toMatchObject({ loc: ['query', 'min_price'], type: 'extra_forbidden' });
    expect(r.json().detail[0].msg).toMatch(/closest known one is price_min/);
    expect((await get('/v1/search?qq=phone')).json().detail[0].msg).toMatch(/closest known one is q\b/);
    const body = await post('/v1/products/compare', '{"product_ids": [1, 2], "min_prize": 5}');
    expect(body.json().detail[0]).toMatchObject({ loc: ['body', 'min_prize'], msg: expect.stringMatching(/closest known one is min_price/) });
  });

  it('routes that take no query refuse one; numbers are decimal (both found by the fuzz suite)', async () => {
    for (const url of ['/v1/auth/me?verbose=1', '/v1/webhooks?status=active']) {
      const r = await get(url);
      expect(r.statusCode, url).toBe(422);
      expect(r.json().error?.details?.errors?.[0]?.field ?? r.json().detail?.[0]?.loc?.[1], url).toMatch(/verbose|status/);
    }
    const hex = await get('/v1/products?limit=0x10');
    expect(hex.statusCode).toBe(422);
    expect(hex.json().detail[0]).toMatchObject({ loc: ['query', 'limit'], msg: 'limit must be a decimal number' });
    expect((await get('/v1/products?limit=1e1&price_min=.5')).statusCode).toBe(200);
    // Pages for people take what links carry (utm_*); OAuth ignores unknown parameters by its RFC.
    expect((await h.app.inject({ url: '/?utm_source=newsletter' })).statusCode).toBe(200);
  });

  it('a parameter starting with _ is free (the cache bypass of spec 8.3)', async () => {
    expect((await get('/v1/products?_=12345')).statusCode).toBe(200);
  });

  it('an enum error lists the allowed values once', async () => {
    const r = await get('/v1/products?sort_by=cheapest');
    expect(r.statusCode).toBe(422);
    expect(r.json().detail).toHaveLength(1);
    expect(r.json().detail[0].msg).toBe('sort_by must be one of: relevance, price_asc, price_desc');
  });

  it('the reference shows real enums, defaults, bounds and what is optional (item 20)', () => {
    const doc = h.app.swagger() as unknown as { paths: Record<string, Record<string, { parameters: Array<{ name: string; required: boolean; schema: Record<string, unknown> }> }>> };
    const history = doc.paths['/v1/products/{ref}/price-history'].get.parameters;
    const days = history.find((p) => p.name === 'days')!;
    expect(days.required).toBe(false);
    // A shared path: surface A's window is 1 to 365 days, surface B's 1 to 180; both default to 30.
    expect(days.schema).toMatchObject({ default: 30, anyOf: [{ title: 'surface A', minimum: 1, maximum: 365 }, { title: 'surface B', minimum: 1, maximum: 180 }] });
    const sort = doc.paths['/v1/products'].get.parameters.find((p) => p.name === 'sort_by')!;
    expect(sort.schema.enum).toEqual(['relevance', 'price_asc', 'price_desc']);
    expect(sort.required).toBe(false);
    const best = doc.paths['/v1/products/best-price'].get.parameters.find((p) => p.name === 'q')!;
    expect(best.required).toBe(true);
  });
});

describe('named sub-paths that take POST only', () => {
  it.each(['/v1/products/bulk-lookup', '/v1/products/ingest'])('GET %s is a 405 with Allow: POST, not a SKU lookup', async (url) => {
    const r = await get(url);
    expect(r.statusCode).toBe(405);
    expect(r.headers.allow).toBe('POST');
    expect(r.json().error.code).toBe('METHOD_NOT_ALLOWED');
  });
});
