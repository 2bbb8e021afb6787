import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { makeHarness, type Harness } from '../helpers/app.js';
import { rec } from '../helpers/records.js';
import { tiersFile } from '../accounts/setup.js';
import { FakeClock } from '../helpers/clock.js';
import { KeyCache } from '../../src/accounts/key-cache.js';
import { oauthClient } from '../helpers/oauth.js';

// The front door answers on the server's request event, which app.inject never reaches: these
// tests go over a socket.
let h: Harness;
let base: string;
let headers: { authorization: string };
let id: number;
let uuid: string;

beforeAll(async () => {
  // Keys stay in the key cache for the file (its clock stands still): on the real clock an entry
  // lives 250 ms, and a request after that is the hooks' to answer, which a slow run would see.
  const still = () => 0;
  h = await makeHarness({ TIERS_FILE: tiersFile({ free: { per_minute: 4, per_day: null } }) }, new FakeClock(),
    { keyCache: new KeyCache(250, 10_000, still), tokenCache: new KeyCache(250, 10_000, still) });
  await h.ingest([rec({ sku: 'FD-1' }), rec({ sku: 'FD-2', price: '10.00', title: 'Apple iPhone 15 128GB Black' }),
    rec({ sku: '88776655', source: 'lazada_sg', title: 'Sony WH-1000XM5 Wireless Headphones Black', specs: { colour: 'Black', note: 'line\nbreak "quoted" é' } })]);
  headers = (await h.key('pro')).headers;
  const l = (await h.c.store.catalog.getBySku('FD-1'))[0];
  id = l.id;
  uuid = l.uuid;
  // As `catalog serve` does: the tail is what tells the response cache of a change.
  await h.c.tail.start();
  await h.app.listen({ port: 0, host: '127.0.0.1' });
  const address = h.app.server.address();
  base = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
});
afterAll(() => h.close());

const get = (url: string, extra: Record<string, string> = {}, method = 'GET') => fetch(`${base}${url}`, { method, headers: { ...headers, ...extra } });
const answered = () => h.app.frontDoor.answered;

/** What varies from one answer to the next whoever sends it: the request id, the counters, the date and surface B's own timing. */
const VARYING = new Set(['x-request-id', 'x-ratelimit-remaining', 'x-dailyquota-remaining', 'ratelimit', 'date']);
function comparable(res: Response, body: string) {
  const h: Record<string, string> = {};
  res.headers.forEach((value, name) => {
    if (!VARYING.has(name)) h[name] = value;
  });
  return { status: res.status, headers: h, body: body.replace(/"response_time_ms":\d+/, '"response_time_ms":0') };
}

describe('the front door', () => {
  // A shared /v1 path is routed the same way with the Catalog-Surface header that names its own
  // surface, and the cache key is the same: the front door steps aside for the header, so the
  // third request is Fastify's cache hit, the second the front door's.
  const urls = () => [
    { url: `/v1/products/${id}`, surface: 'A' }, { url: '/v1/products/FD-1', surface: 'A' }, { url: '/v1/products?limit=5', surface: 'A' },
    { url: `/v1/products/${uuid}`, surface: 'B' }, { url: '/v1/search/filters?q=galaxy', surface: 'B' }, { url: `/v1/products/${id}/price-history/chart`, surface: 'A' },
  ];

  it('answers a kept answer with the bytes and headers the hooks send', async () => {
    for (const { url, surface } of urls()) {
      const first = await get(url);
      expect(first.status, url).toBe(200);
      expect(first.headers.get('x-cache'), url).toBe('MISS');
      await first.text();
      // The hooks answer the first hit, and the front door learns the URL from it.
      await (await get(url)).text();
      const before = answered();
      const front = await get(url, { origin: 'https://app.example' });
      const frontBody = await front.text();
      expect(answered(), url).toBe(before + 1);
      const hooks = await get(url, { origin: 'https://app.example', 'catalog-surface': surface });
      const hooksBody = await hooks.text();
      expect(answered(), url).toBe(before + 1);
      expect(hooks.headers.get('x-cache'), url).toBe('HIT');
      expect(comparable(front, frontBody), url).toEqual(comparable(hooks, hooksBody));
      expect(Number(front.headers.get('x-ratelimit-remaining')), url).toBe(Number(hooks.headers.get('x-ratelimit-remaining')) + 1);
      expect(front.headers.get('x-request-id'), url).toMatch(/^[0-9a-f-]{36}$/);
    }
  });

  it('marks surface B answers as cached, with their own timing', async () => {
    for (let i = 0; i < 2; i++) await (await get(`/v1/products/${uuid}`)).text();
    const body = await (await get(`/v1/products/${uuid}`)).json() as { meta?: { cached?: boolean }; cached?: boolean };
    expect(body.meta?.cached ?? body.cached).toBe(true);
  });

  it('learns a URL from its first hit: a URL asked once is never kept in its map', async () => {
    const url = '/v1/products?limit=3&offset=1';
    const before = answered();
    expect((await get(url)).headers.get('x-cache')).toBe('MISS');
    expect((await get(url)).headers.get('x-cache')).toBe('HIT');
    expect(answered()).toBe(before);
    expect((await get(url)).headers.get('x-cache')).toBe('HIT');
    expect(answered()).toBe(before + 1);
  });

  it('answers an OAuth access token as it answers the key the client acts for', async () => {
    const { client_id, client_secret, access_token: token } = await oauthClient(h.app, headers);
    const url = '/v1/products?limit=4';
    for (let i = 0; i < 2; i++) await (await get(url)).text();
    const before = answered();
    const byToken = await get(url, { authorization: `Bearer ${token}` });
    expect([byToken.status, answered()]).toEqual([200, before]);
    await byToken.text();
    // The first request read the token from the store; the next is answered on the request event.
    const again = await get(url, { authorization: `Bearer ${token}` });
    expect([again.status, again.headers.get('x-cache'), answered()]).toEqual([200, 'HIT', before + 1]);
    // The client acts for the same key: one count for both.
    expect(Number(again.headers.get('x-ratelimit-remaining'))).toBe(Number((await get(url)).headers.get('x-ratelimit-remaining')) + 1);
    // Revoked, it is refused at once, by the hooks.
    const form = new URLSearchParams({ token, client_id, client_secret }).toString();
    await h.app.inject({ method: 'POST', url: '/v1/oauth/revoke', headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: form });
    expect((await get(url, { authorization: `Bearer ${token}` })).status).toBe(401);
    expect(answered()).toBe(before + 2);
  });

  it('keeps the client request id', async () => {
    for (let i = 0; i < 2; i++) await (await get(`/v1/products/${id}`)).text();
    const before = answered();
    const res = await get(`/v1/products/${id}`, { 'x-request-id': 'trace-42' });
    expect(answered()).toBe(before + 1);
    expect(res.headers.get('x-request-id')).toBe('trace-42');
  });

  it('counts each answer once against the tier, and leaves a refused one to the hooks: 429 in the surface envelope', async () => {
    const free = (await h.key('free')).headers;
    const url = `/v1/products/${id}`;
    for (let i = 0; i < 2; i++) await (await get(url)).text();
    // A key is checked against the store once, by the hooks, before the key cache holds it (counted: 1 of 4).
    expect((await get('/v1/products/FD-2', free)).headers.get('x-ratelimit-remaining')).toBe('3');
    const before = answered();
    const counted = vi.spyOn(h.c.quota, 'consumeNow');
    const remaining: string[] = [];
    for (let i = 0; i < 3; i++) {
      const res = await get(url, free);
      expect(res.status).toBe(200);
      remaining.push(res.headers.get('x-ratelimit-remaining')!);
    }
    expect(remaining).toEqual(['2', '1', '0']);
    expect(answered()).toBe(before + 3);
    const refused = await get(url, free);
    expect(refused.status).toBe(429);
    expect(refused.headers.get('x-ratelimit-remaining')).toBe('0');
    expect(refused.headers.get('retry-after')).toMatch(/^\d+$/);
    expect((await refused.json() as { error: { code: string } }).error.code).toBe('RATE_LIMIT_EXCEEDED');
    expect(answered()).toBe(before + 3);
    // Four requests, four counts: the refused one is not counted again by the hooks.
    expect(counted).toHaveBeenCalledTimes(4);
    counted.mockRestore();
    h.clock.advance(61_000);
    expect((await get(url, free)).headers.get('x-ratelimit-remaining')).toBe('3');
  });

  it('steps aside for what the hooks answer differently', async () => {
    const url = `/v1/products/${id}`;
    const first = await get(url);
    const etag = first.headers.get('etag')!;
    await first.text();
    const before = answered();
    expect((await get(url, { 'if-none-match': etag })).status).toBe(304);
    expect((await get(url, {}, 'HEAD')).status).toBe(200);
    expect((await fetch(`${base}${url}`)).status).toBe(401);
    expect((await get(url, { authorization: 'Bearer ck_live_notakey0000000000000000' })).status).toBe(401);
    const { key } = await h.key('pro');
    expect((await fetch(`${base}${url}?api_key=${key}`)).status).toBe(200);
    // Answers that vary with a header (V2's region) or belong to the key (B search's signed links).
    for (let i = 0; i < 2; i++) await (await get('/v2/search?q=galaxy')).text();
    for (let i = 0; i < 2; i++) await (await get('/v1/products/search?q=galaxy&limit=5')).text();
    expect(answered()).toBe(before);
    h.c.readiness.starting('a test');
    try {
      expect((await get(url)).status).toBe(503);
    } finally {
      h.c.readiness.isReady();
    }
    expect(answered()).toBe(before);
  });

  it('never answers what a catalog change made stale', async () => {
    const url = '/v1/products/FD-2';
    expect(await (await get(url)).text()).toContain('10');
    for (let i = 0; i < 2; i++) expect((await get(url)).headers.get('x-cache')).toBe('HIT');
    await h.ingest([rec({ sku: 'FD-2', price: '12.00', title: 'Apple iPhone 15 128GB Black', observed_at: '2026-11-20T11:00:00.000Z' })]);
    await h.c.tail.poke();
    const before = answered();
    const after = await get(url);
    expect(after.headers.get('x-cache')).toBe('MISS');
    expect(await after.text()).toContain('12');
    // Read again and answered first by the front door.
    expect(answered()).toBe(before + 1);
  });

  it('leaves a request to the hooks when it fails, and the process serves on', async () => {
    const url = `/v1/products/${id}`;
    for (let i = 0; i < 2; i++) await (await get(url)).text();
    const spy = vi.spyOn(h.c.cache, 'get').mockImplementationOnce(() => {
      throw new Error('a fault in the front door');
    });
    try {
      const before = answered();
      const res = await get(url);
      expect(res.status).toBe(200);
      expect(spy).toHaveBeenCalled();
      expect(answered()).toBe(before);
    } finally {
      spy.mockRestore();
    }
  });

  it('hands its count to the hooks when it fails after counting: one request, one count', async () => {
    const url = `/v1/products/${id}`;
    for (let i = 0; i < 2; i++) await (await get(url)).text();
    const real = h.c.cache.get.bind(h.c.cache);
    // A Content-Type Node refuses to write: the front door fails at writeHead, after the count.
    const spy = vi.spyOn(h.c.cache, 'get').mockImplementationOnce((key) => {
      const hit = real(key);
      return hit && { ...hit, type: 'application/json\nx: y' };
    });
    const counted = vi.spyOn(h.c.quota, 'consumeNow');
    try {
      const res = await get(url);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8');
      // HIT, or MISS where the tail cleared the cache in between: either way counted once.
      expect(counted).toHaveBeenCalledTimes(1);
    } finally {
      spy.mockRestore();
      counted.mockRestore();
    }
  });
});

describe("the front door's first answers (a product by id never asked before)", () => {
  /** Each request starts from an empty response cache, so it is a first answer. */
  const fresh = async (url: string, extra: Record<string, string> = {}) => {
    h.c.cache.invalidate();
    const res = await get(url, extra);
    return { res, body: await res.text() };
  };

  it('reads and answers it with the bytes and headers the hooks make, and keeps it for the next request', async () => {
    const digits = (await h.c.store.catalog.getBySku('88776655'))[0];
    const urls = [
      { url: `/v1/products/${id}`, surface: 'A' }, { url: `/v1/products/${digits.id}`, surface: 'A' }, { url: `/v1/products/${id}?_n=7`, surface: 'A' },
      // SKU detail (spec 2.4), also for a SKU made of digits that no id has.
      { url: '/v1/products/FD-1', surface: 'A' }, { url: '/v1/products/88776655?_n=2', surface: 'A' },
      { url: `/v1/products/${uuid}`, surface: 'B' }, { url: `/v1/products/${uuid.toUpperCase()}?_n=1&_=2`, surface: 'B' }, { url: `/v1/products/${id}?_n=%ZZ&_x`, surface: 'A' },
    ];
    for (const { url, surface } of urls) {
      let before = answered();
      const front = await fresh(url);
      expect([front.res.status, front.res.headers.get('x-cache'), answered()], url).toEqual([200, 'MISS', before + 1]);
      before = answered();
      const hooks = await fresh(url, { 'catalog-surface': surface });
      expect([hooks.res.headers.get('x-cache'), answered()], url).toEqual(['MISS', before]);
      expect(comparable(front.res, front.body), url).toEqual(comparable(hooks.res, hooks.body));
      // Kept as the hooks keep it: the next request is a hit, here and through the hooks.
      const again = await get(url);
      const hit = await again.text();
      expect([again.headers.get('x-cache'), again.headers.get('etag')], url).toEqual(['HIT', front.res.headers.get('etag')]);
      expect(hit.replace('"cached":true', '"cached":false').replace(/"response_time_ms":\d+/, ''), url).toBe(front.body.replace(/"response_time_ms":\d+/, ''));
      expect((await get(url, { 'catalog-surface': surface })).headers.get('x-cache'), url).toBe('HIT');
    }
  });

  it('learns a URL it answered first once it is asked again, and answers it first again after a catalog change', async () => {
    const url = `/v1/products/${id}`;
    const before = answered();
    expect((await fresh(url)).res.headers.get('x-cache')).toBe('MISS');
    for (let i = 0; i < 2; i++) expect((await get(url)).headers.get('x-cache')).toBe('HIT');
    h.c.cache.invalidate();
    const after = await get(url);
    expect([after.headers.get('x-cache'), await after.text() !== '', answered()]).toEqual(['MISS', true, before + 4]);
  });

  it("reports surface B's own timing and that the first answer was not cached", async () => {
    const resolve = h.c.products.resolve.bind(h.c.products);
    const slow = vi.spyOn(h.c.products, 'resolve').mockImplementationOnce(async (...args) => {
      await new Promise((r) => setTimeout(r, 30));
      return resolve(...args);
    });
    const before = answered();
    const first = JSON.parse((await fresh(`/v1/products/${uuid}`)).body) as { response_time_ms: number; cached: boolean };
    slow.mockRestore();
    expect(answered()).toBe(before + 1);
    expect(first.cached).toBe(false);
    expect(first.response_time_ms).toBeGreaterThanOrEqual(25);
    expect(((await (await get(`/v1/products/${uuid}`)).json()) as { cached: boolean }).cached).toBe(true);
  });

  it('leaves to the hooks what the route answers otherwise, counted once', async () => {
    const counted = vi.spyOn(h.c.quota, 'consumeNow');
    try {
      const before = answered();
      // No product with that id or SKU: the 404s in surface A's envelope.
      const missing = await fresh('/v1/products/987654321');
      expect([missing.res.status, JSON.parse(missing.body).error.code]).toEqual([404, 'NOT_FOUND']);
      expect(JSON.parse((await fresh('/v1/products/NO-SUCH-SKU')).body).error.code).toBe('PRODUCT_NOT_FOUND');
      // A SKU sent escaped is decoded by the router; a named sub-path is a route of its own.
      const escaped = await fresh('/v1/products/FD%2D1');
      expect([escaped.res.status, JSON.parse(escaped.body).product.sku]).toEqual([200, 'FD-1']);
      expect((await fresh('/v1/products/trending')).res.status).toBe(200);
      expect((await fresh('/v1/products/bulk-lookup')).res.status).toBe(405);
      // A UUID no product has: surface B's 404.
      const none = '00000000-0000-5000-8000-000000000000';
      const noUuid = await fresh(`/v1/products/${none}`);
      expect([noUuid.res.status, JSON.parse(noUuid.body).error]).toMatchObject([404, { code: 'NOT_FOUND', details: { id: none } }]);
      expect(missing.res.headers.get('x-ratelimit-remaining')).toMatch(/^\d+$/);
      // A declared parameter is validated by the route: a bad one is its 422.
      expect((await fresh(`/v1/products/${id}?currency=XXX`)).res.status).toBe(422);
      expect((await fresh(`/v1/products/${id}?currency=USD`)).res.status).toBe(200);
      expect(answered()).toBe(before);
      expect(counted).toHaveBeenCalledTimes(8);
    } finally {
      counted.mockRestore();
    }
  });

  it('leaves a request whose read failed to the hooks, counted once, and the process serves on', async () => {
    const read = vi.spyOn(h.c.products, 'resolve').mockRejectedValueOnce(new Error('SQLITE_IOERR: a disk fault'));
    const counted = vi.spyOn(h.c.quota, 'consumeNow');
    try {
      const before = answered();
      const res = await fresh(`/v1/products/${id}`);
      expect([res.res.status, res.res.headers.get('x-cache'), answered()]).toEqual([200, 'MISS', before]);
      expect(read).toHaveBeenCalledTimes(2);
      expect(counted).toHaveBeenCalledTimes(1);
      expect(res.body).not.toContain('SQLITE');
    } finally {
      read.mockRestore();
      counted.mockRestore();
    }
    expect((await fresh(`/v1/products/${id}`)).res.status).toBe(200);
  });
});

describe("the front door's searches (GET /v1/search of text and a page)", () => {
  const urls = ['/v1/search?q=iphone', '/v1/search?q=apple+iphone&limit=1', '/v1/search?limit=2&offset=1&q=sony%20wh', '/v1/search?_n=3&q=galaxy',
    '/v1/search', '/v1/search?q=%E0%B8%9E%E0%B8%A3%E0%B9%89%E0%B8%AD%E0%B8%A1'];

  it('answers with the bytes and headers the hooks send, every time, kept in no cache', async () => {
    for (const url of urls) {
      const before = answered();
      const front = await get(url);
      const frontBody = await front.text();
      expect([front.status, answered()], url).toEqual([200, before + 1]);
      const hooks = await get(url, { 'catalog-surface': 'A' });
      const hooksBody = await hooks.text();
      expect(answered(), url).toBe(before + 1);
      expect(comparable(front, frontBody), url).toEqual(comparable(hooks, hooksBody));
      expect([front.headers.get('x-cache'), front.headers.get('cache-control'), front.headers.get('etag')], url).toEqual([null, null, hooks.headers.get('etag')]);
      expect(Number(front.headers.get('x-ratelimit-remaining')), url).toBe(Number(hooks.headers.get('x-ratelimit-remaining')) + 1);
      // A conditional request is the hooks' to answer: 304 for the tag the front door sent.
      expect((await get(url, { 'if-none-match': front.headers.get('etag')! })).status, url).toBe(304);
      expect((await (await get(url)).text()), url).toBe(frontBody);
      expect(answered(), url).toBe(before + 2);
    }
    expect(JSON.parse(await (await get('/v1/search?q=apple+iphone&limit=1')).text())).toMatchObject({ limit: 1, offset: 0, items: [{ sku: 'FD-2' }] });
  });

  it('sees a catalog change at once', async () => {
    const url = '/v1/search?q=iphone';
    expect(await (await get(url)).text()).not.toContain('"FD-3"');
    await h.ingest([rec({ sku: 'FD-3', title: 'Apple iPhone 15 Pro 256GB Blue' })]);
    await h.c.tail.poke();
    const before = answered();
    expect(await (await get(url)).text()).toContain('"FD-3"');
    expect(answered()).toBe(before + 1);
  });

  it('leaves every other query to the route, validated there and counted once', async () => {
    const counted = vi.spyOn(h.c.quota, 'consumeNow');
    try {
      const before = answered();
      const cases: Array<[string, number]> = [
        ['/v1/search?q=iphone&limit=0', 422], ['/v1/search?q=iphone&limit=101', 422], ['/v1/search?q=iphone&offset=10001', 422],
        ['/v1/search?q=iphone&limit=0x10', 422], ['/v1/search?q=iphone&colour=red', 422], ['/v1/search?q=a&q=b', 422],
        ['/v1/search?q=iphone&category=phones', 200], ['/v1/search?q=%ZZ', 200], ['/v1/search?q=iphone&limit=05', 200],
        ['/v1/search?q&limit=2', 200], [`/v1/search?q=${'x'.repeat(501)}`, 422],
      ];
      for (const [url, status] of cases) expect((await get(url)).status, url).toBe(status);
      expect(answered()).toBe(before);
      expect(counted).toHaveBeenCalledTimes(cases.length);
    } finally {
      counted.mockRestore();
    }
  });

  it('leaves a search whose read failed to the hooks, counted once, and the process serves on', async () => {
    const search = vi.spyOn(h.c.catalog, 'search').mockRejectedValueOnce(new Error('SQLITE_IOERR: a disk fault'));
    const counted = vi.spyOn(h.c.quota, 'consumeNow');
    try {
      const before = answered();
      const res = await get('/v1/search?q=iphone');
      const body = await res.text();
      expect([res.status, answered()]).toEqual([200, before]);
      expect(search).toHaveBeenCalledTimes(2);
      expect(counted).toHaveBeenCalledTimes(1);
      expect(body).not.toContain('SQLITE');
    } finally {
      search.mockRestore();
      counted.mockRestore();
    }
    expect((await get('/v1/search?q=iphone')).status).toBe(200);
  });
});
