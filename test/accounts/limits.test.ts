import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { InjectOptions } from 'fastify';
import { requireTier } from '../../src/http/rate-limit.js';
import { accountsHarness, tiersFile, type AccountsHarness } from './setup.js';

/** Every authenticated route the accounts issue owns or gates, plus catalog routes: the same rules hold on each (STYLE 10). */
const ROUTES: Array<{ name: string; req: InjectOptions }> = [
  { name: 'GET /v1/auth/me', req: { method: 'GET', url: '/v1/auth/me' } },
  { name: 'GET /v1', req: { method: 'GET', url: '/v1' } },
  { name: 'GET /v1/products', req: { method: 'GET', url: '/v1/products' } },
  { name: 'GET /v1/products/search', req: { method: 'GET', url: '/v1/products/search?q=phone&sort_by=relevance' } },
  { name: 'GET /v1/categories', req: { method: 'GET', url: '/v1/categories' } },
  { name: 'GET /test/pro-only (pro key)', req: { method: 'GET', url: '/test/pro-only' } },
];

/** Tier gates: webhooks, ingestion, bulk lookup (their routes come from other issues; the gate is the same config). */
const GATED = [
  { url: '/test/pro-only', min: 'pro' },
  { url: '/test/enterprise-only', min: 'enterprise' },
  { url: '/test/pro-prehandler', min: 'pro' },
];

/**
 * One app for the file: every test counts against keys of its own (h.key makes a new key, with an
 * account of its own), so no test sees another's counters, and each starts at the same instant.
 */
let h: AccountsHarness;
const START = '2026-11-20T12:00:00.000Z';
const tiers = tiersFile({ unverified: { per_minute: 3, per_day: 5 }, pro: { per_minute: 4, per_day: 10 }, enterprise: { per_minute: 4, per_day: null } });
beforeAll(async () => {
  h = await accountsHarness({ TIERS_FILE: tiers, UPGRADE_URL: 'https://catalog.test/pricing' }, {
    routes: (app) => {
      app.get('/test/pro-only', { config: { surface: 'v2', minTier: 'pro' } }, async () => ({ ok: true }));
      app.get('/test/enterprise-only', { config: { surface: 'v2', minTier: 'enterprise' } }, async () => ({ ok: true }));
      app.get('/test/pro-cached', { config: { surface: 'v2', minTier: 'pro', cacheSeconds: 60 } }, async () => ({ ok: true }));
      app.get('/test/pro-prehandler', { config: { surface: 'v2' }, preHandler: requireTier('pro') }, async () => ({ ok: true }));
    },
  });
});
afterAll(() => h.close());
beforeEach(() => h.clock.set(START));

let wrongKeyFrom = 0;
const call = (r: InjectOptions, headers: Record<string, string> = {}) => h.app.inject({ ...r, headers: { ...(r.headers as object), ...headers } });

describe.each(ROUTES)('$name', ({ req }) => {
  it('no credential: 401 MISSING_API_KEY with a Bearer challenge naming the protected-resource metadata', async () => {
    const res = await call(req);
    expect(res.statusCode).toBe(401);
    expect(res.json().error.code).toBe('MISSING_API_KEY');
    expect(res.headers['www-authenticate']).toBe(`Bearer realm="catalog", resource_metadata="${h.c.origin()}/.well-known/oauth-protected-resource"`);
  });

  it('wrong key: 401 UNAUTHORIZED, error="invalid_token"', async () => {
    // An address of its own: failed keys are counted per address (AuthGuard), and the app is shared.
    const res = await h.app.inject({ ...req, remoteAddress: `192.0.2.${++wrongKeyFrom}`, headers: { authorization: 'Bearer ck_wrong' } });
    expect(res.statusCode).toBe(401);
    expect(res.json().error.code).toBe('UNAUTHORIZED');
    expect(res.headers['www-authenticate']).toMatch(/^Bearer realm="catalog", error="invalid_token", .*, resource_metadata="http:\/\/[^"]+\/\.well-known\/oauth-protected-resource"$/);
  });

  it.each([
    ['Authorization: Bearer', (k: string) => ({ headers: { authorization: `Bearer ${k}` } })],
    ['Authorization: ApiKey', (k: string) => ({ headers: { authorization: `ApiKey ${k}` } })],
    ['X-API-Key', (k: string) => ({ headers: { 'x-api-key': k } })],
    ['?api_key=', (k: string) => ({ query: { api_key: k } })],
  ])('accepts the key as %s, with the limit headers', async (_, form) => {
    const { key } = await h.key('pro');
    const f = form(key) as { headers?: Record<string, string>; query?: Record<string, string> };
    const res = await h.app.inject({ ...req, ...(f.query ? { query: { ...(req.query as object), ...f.query } } : {}), headers: f.headers ?? {} });
    expect(res.statusCode).toBeLessThan(400);
    expect(res.headers['x-ratelimit-limit']).toBe('4');
    expect(res.headers['x-ratelimit-remaining']).toBe('3');
    expect(res.headers['x-ratelimit-reset']).toBe(String(Date.parse('2026-11-20T12:01:00Z') / 1000));
    expect(res.headers['x-dailyquota-limit']).toBe('10');
    expect(res.headers['x-dailyquota-remaining']).toBe('9');
    expect(res.headers['x-dailyquota-reset']).toBe(String(Date.parse('2026-11-21T00:00:00Z') / 1000));
    expect(res.headers['ratelimit-policy']).toBe('"minute";q=4;w=60, "day";q=10;w=86400');
    expect(res.headers['ratelimit']).toBe('"minute";r=3;t=60, "day";r=9;t=43200');
  });

  it('per-minute limit: 429 RATE_LIMIT_EXCEEDED with the rate_limit block, then a new window', async () => {
    const { headers } = await h.key('pro');
    h.clock.advance(15_000);
    for (let i = 0; i < 4; i++) expect((await call(req, headers)).statusCode).toBeLessThan(400);
    const res = await call(req, headers);
    expect(res.statusCode).toBe(429);
    expect(res.headers['retry-after']).toBe('45');
    expect(res.headers['x-ratelimit-remaining']).toBe('0');
    expect(res.json()).toEqual({
      error: { code: 'RATE_LIMIT_EXCEEDED', message: 'Rate limit of 4 requests per minute exceeded; retry after 45 s.', doc_url: '/docs' },
      rate_limit: { retry_after: 45, limit: 4, remaining: 0, reset_at: '2026-11-20T12:01:00.000Z' },
    });
    h.clock.advance(45_000);
    expect((await call(req, headers)).statusCode).toBeLessThan(400);
  });

  it('daily quota: 429 daily_limit_exceeded with upgrade_url and reset_at', async () => {
    const { headers } = await h.key('pro');
    for (let i = 0; i < 10; i++) {
      expect((await call(req, headers)).statusCode).toBeLessThan(400);
      h.clock.advance(20_000);
    }
    const res = await call(req, headers);
    expect(res.statusCode).toBe(429);
    const resetAt = '2026-11-21T00:00:00.000Z';
    expect(res.headers['retry-after']).toBe(String((Date.parse(resetAt) - h.clock.now().getTime()) / 1000));
    expect(res.json()).toEqual({ error: 'daily_limit_exceeded', message: expect.any(String), upgrade_url: 'https://catalog.test/pricing', reset_at: resetAt });
    h.clock.set(resetAt);
    expect((await call(req, headers)).statusCode).toBeLessThan(400);
  });
});

describe('tier gates', () => {
  it.each(GATED.flatMap((g) => (['unverified', 'free', 'basic', 'pro', 'enterprise'] as const).map((tier) => ({ ...g, tier }))))(
    '$url as $tier', async ({ url, min, tier }) => {
      const { headers } = await h.key(tier);
      const res = await h.app.inject({ url, headers });
      const order = ['unverified', 'free', 'basic', 'pro', 'enterprise'];
      if (order.indexOf(tier) >= order.indexOf(min)) {
        expect(res.statusCode).toBe(200);
      } else {
        expect(res.statusCode).toBe(403);
        expect(res.json().error.code).toBe('INSUFFICIENT_SCOPE');
        expect(res.headers['www-authenticate']).toMatch(/error="insufficient_scope"/);
        expect(res.headers['x-ratelimit-limit']).toBeDefined();
      }
    });
});

describe('limits', () => {
  it('an unlimited daily quota (null) sends no X-DailyQuota headers and reports null', async () => {
    const { headers } = await h.key('enterprise');
    const res = await h.app.inject({ url: '/v1/auth/me', headers });
    expect(res.headers['x-dailyquota-limit']).toBeUndefined();
    expect(res.headers['ratelimit-policy']).toBe('"minute";q=4;w=60');
    expect(res.json().limits).toEqual({ per_minute: 4, per_day: null });
    expect(res.json().usage.day).toMatchObject({ used: 1, limit: null, remaining: null });
  });

  it('GET /v1/auth/me reports tier, limits and usage (its own request counted)', async () => {
    const { headers } = await h.key('unverified');
    await h.app.inject({ url: '/v1', headers });
    const res = await h.app.inject({ url: '/v1/auth/me', headers });
    expect(res.json()).toMatchObject({
      tier: 'unverified', limits: { per_minute: 3, per_day: 5 },
      usage: { minute: { used: 2, remaining: 1, limit: 3, reset_at: '2026-11-20T12:01:00.000Z' }, day: { used: 2, remaining: 3, limit: 5 } },
    });
  });

  it('a request refused by the minute limit does not spend the daily quota', async () => {
    const { headers } = await h.key('unverified');
    for (let i = 0; i < 6; i++) await h.app.inject({ url: '/v1', headers });
    h.clock.advance(60_000);
    expect((await h.app.inject({ url: '/v1/auth/me', headers })).json().usage.day.used).toBe(4);
  });

  it('keys of different accounts have separate counters', async () => {
    const a = await h.key('unverified');
    const b = await h.key('unverified');
    for (let i = 0; i < 3; i++) await h.app.inject({ url: '/v1', headers: a.headers });
    expect((await h.app.inject({ url: '/v1', headers: a.headers })).statusCode).toBe(429);
    expect((await h.app.inject({ url: '/v1', headers: b.headers })).statusCode).toBe(200);
  });

  it('unauthenticated routes carry no limit headers and do not count', async () => {
    const res = await h.app.inject({ url: '/health' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['x-ratelimit-limit']).toBeUndefined();
  });
});

describe('documents and errors', () => {
  it('the account and OAuth routes appear in /openapi.json', async () => {
    const doc = (await h.app.inject({ url: '/openapi.json' })).json();
    for (const p of ['/v1/auth/register', '/v1/auth/verify', '/v1/auth/me', '/v1/keys/rotate', '/.well-known/oauth-authorization-server', '/.well-known/oauth-protected-resource', '/mcp',
      '/v1/oauth/register', '/v1/oauth/token', '/v1/oauth/revoke', '/v1/oauth/introspect', '/v1/admin/keys/{key}/tier']) {
      expect(doc.paths[p], p).toBeDefined();
    }
  });

  it('a request whose input is refused (422) counts, and carries the limit headers', async () => {
    const { headers } = await h.key('pro');
    const bad = await h.app.inject({ url: '/v1/products?limit=banana', headers });
    expect(bad.statusCode).toBe(422);
    expect(bad.headers['x-ratelimit-remaining']).toBe('3');
    // The route caches its answers for minutes; an error is not one of them.
    expect([bad.headers['cache-control'], bad.headers['x-cache']]).toEqual(['no-store', undefined]);
    expect((await h.app.inject({ url: '/v1/products?limit=2', headers })).headers['x-ratelimit-remaining']).toBe('2');
  });

  it('a cached answer is counted, and refused below the route\'s tier like any other', async () => {
    const pro = await h.key('pro');
    expect((await h.app.inject({ url: '/v1/products?limit=3', headers: pro.headers })).headers['x-cache']).toBe('MISS');
    const hit = await h.app.inject({ url: '/v1/products?limit=3', headers: pro.headers });
    expect(hit.headers['x-cache']).toBe('HIT');
    expect(hit.headers['x-ratelimit-remaining']).toBe('2');
    await h.app.inject({ url: '/test/pro-cached', headers: pro.headers });
    expect((await h.app.inject({ url: '/test/pro-cached', headers: pro.headers })).headers['x-cache']).toBe('HIT');
    const free = await h.key('free');
    const refused = await h.app.inject({ url: '/test/pro-cached', headers: free.headers });
    expect(refused.statusCode).toBe(403);
    expect(refused.headers['x-cache']).toBeUndefined();
  });

  it('limit headers stay on an error answered after the limiter (404)', async () => {
    const { headers } = await h.key('pro');
    const res = await h.app.inject({ url: '/v1/products/999999', headers });
    expect(res.statusCode).toBe(404);
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.headers['x-ratelimit-remaining']).toBe('3');
  });
});
