import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashSecret } from '../../src/accounts/api-key.js';
import { makeHarness, type Harness } from '../helpers/app.js';
import { FakeClock } from '../helpers/clock.js';
import { CATALOG } from '../helpers/catalog.js';
import { oauthClient } from '../helpers/oauth.js';
import { tableResolver } from '../webhooks/fixtures.js';

/**
 * OWASP API Security Top 10 (2023), the points that apply to this service, as one sweep each. The
 * README's security table maps every point to this file and to the deeper tests beside each feature.
 */
const ADMIN_SECRET = 'admin-secret-for-the-owasp-suite-0123456789';
const CLICK_SECRET = 'click-secret-for-the-owasp-suite-0123456789';
const HOOK = 'https://hooks.example.com/catalog';
let h: Harness;

beforeAll(async () => {
  h = await makeHarness({ ADMIN_SECRET, CLICK_SECRET, PUBLIC_URL: 'https://catalog.test' }, new FakeClock(), {
    webhookResolver: tableResolver({ 'hooks.example.com': ['93.184.215.14'] }),
  });
  await h.ingest(CATALOG);
});
afterAll(() => h.close());

type Method = 'GET' | 'POST' | 'PATCH' | 'DELETE';
const call = (method: Method, url: string, headers: Record<string, string> = {}, payload?: unknown, remoteAddress = '127.0.0.1') =>
  h.app.inject({ method, url, headers, remoteAddress, ...(payload === undefined ? {} : { payload: payload as object }) });

describe('API1 broken object-level authorization', () => {
  it('another key\'s webhook, its deliveries and their retry are 404, and reading them leaks nothing', async () => {
    const owner = await h.key('pro');
    const intruder = await h.key('enterprise');
    const created = (await call('POST', '/v1/webhooks', owner.headers, { url: HOOK, events: ['price_change'] })).json();
    for (const [method, url, body] of [
      ['GET', `/v1/webhooks/${created.id}`], ['PATCH', `/v1/webhooks/${created.id}`, { url: 'https://hooks.example.com/stolen' }],
      ['GET', `/v1/webhooks/${created.id}/deliveries`], ['POST', `/v1/webhooks/${created.id}/deliveries/msg_x/retry`],
      ['POST', `/v1/webhooks/${created.id}/rotate-secret`, {}], ['DELETE', `/v1/webhooks/${created.id}`],
    ] as Array<[Method, string, object?]>) {
      const res = await call(method, url, intruder.headers, body);
      expect(res.statusCode, `${method} ${url}`).toBe(404);
      expect(res.body).not.toContain(HOOK);
    }
    // Nothing the intruder tried changed the owner's subscription.
    const still = (await call('GET', `/v1/webhooks/${created.id}`, owner.headers)).json();
    expect(still).toMatchObject({ url: HOOK, status: 'active' });
  });

  it('one OAuth client cannot revoke or introspect another client\'s token', async () => {
    const a = await oauthToken();
    const b = await oauthToken();
    const form = (c: typeof a, token: string) => new URLSearchParams({ token, client_id: c.client_id, client_secret: c.client_secret }).toString();
    const formHeaders = { 'content-type': 'application/x-www-form-urlencoded' };
    expect((await call('POST', '/v1/oauth/introspect', formHeaders, form(b, a.access_token))).json()).toEqual({ active: false });
    await call('POST', '/v1/oauth/revoke', formHeaders, form(b, a.access_token));
    expect((await call('GET', '/v1/auth/me', { authorization: `Bearer ${a.access_token}` })).statusCode).toBe(200);
  });
});

describe('API2 broken authentication', () => {
  it('every malformed, unknown or misplaced credential is a 401 in the asked surface\'s envelope, never a 500', async () => {
    const { key } = await h.key('pro');
    const forged = key.slice(0, -1) + (key.endsWith('a') ? 'b' : 'a');
    const credentials: Array<Record<string, string>> = [
      {}, { authorization: 'Bearer' }, { authorization: 'Bearer ' }, { authorization: `Basic ${Buffer.from(`${key}:`).toString('base64')}` },
      { authorization: `Bearer ${forged}` }, { authorization: `Bearer ${key}x` }, { authorization: `Bearer ${'k'.repeat(4096)}` },
      { authorization: 'Bearer cat_not-a-token' }, { 'x-api-key': forged }, { authorization: `Bearer ${key.slice(0, 12)}` },
    ];
    // Each credential from its own address: failed authentications are limited per address (API2 too).
    for (const [i, headers] of credentials.entries()) {
      for (const [url, envelope] of [['/v1/search?q=phone', 'A'], ['/v1/products/search?q=phone', 'B'], ['/v2/search?q=phone', 'V2']] as const) {
        const res = await call('GET', url, headers, undefined, `10.2.0.${i + 1}`);
        const what = `${url} with ${JSON.stringify(headers).slice(0, 60)}`;
        expect(res.statusCode, what).toBe(401);
        expect(res.json().error.code, `${envelope}: ${what}`).toMatch(/^(MISSING_API_KEY|UNAUTHORIZED|INVALID_API_KEY)$/);
      }
    }
  });

  it('failed authentications are limited per address: the 21st in a minute is 429, and other addresses are unaffected', async () => {
    const { headers } = await h.key('pro');
    const statuses = [];
    for (let i = 0; i < 21; i++) statuses.push((await call('GET', '/v1/search?q=a', { authorization: 'Bearer ck_wrong' }, undefined, '10.3.0.1')).statusCode);
    expect(statuses.slice(0, 20).every((s) => s === 401)).toBe(true);
    expect(statuses[20]).toBe(429);
    expect((await call('GET', '/v1/search?q=a', headers, undefined, '10.3.0.2')).statusCode).toBe(200);
  });

  it('expired, revoked and rotated credentials stop working at once', async () => {
    const t = await oauthToken();
    const bearer = { authorization: `Bearer ${t.access_token}` };
    expect((await call('GET', '/v1/auth/me', bearer)).statusCode).toBe(200);
    h.clock.advance(3600_000);
    expect((await call('GET', '/v1/auth/me', bearer)).statusCode).toBe(401);
    const { key, headers } = await h.key('pro');
    expect((await call('POST', '/v1/keys/rotate', headers)).statusCode).toBe(200);
    expect((await call('GET', '/v1/auth/me', { authorization: `Bearer ${key}` })).statusCode).toBe(401);
  });
});

describe('API3 broken object property-level authorization', () => {
  it('registration cannot assign its own tier or verification (mass assignment)', async () => {
    const res = await call('POST', '/v1/auth/register', {}, { agent_name: 'greedy', tier: 'enterprise', verified: true });
    expect(res.statusCode).toBe(422);
    expect(JSON.stringify(res.json())).toMatch(/tier/);
    const viaQuery = await call('POST', '/v1/auth/register?verify=false&tier=enterprise', {}, { agent_name: 'greedy' });
    expect(viaQuery.statusCode).toBe(422);
    expect(JSON.stringify(viaQuery.json())).toMatch(/tier/);
    const ok = (await call('POST', '/v1/auth/register', {}, { agent_name: 'modest' })).json();
    expect((await call('GET', '/v1/auth/me', { authorization: `Bearer ${ok.api_key}` })).json().tier).toBe('unverified');
  });

  it('a webhook cannot be created or changed with server-owned members', async () => {
    const { headers } = await h.key('pro');
    const id = (await call('POST', '/v1/webhooks', headers, { url: HOOK, events: ['price_change'] })).json().id;
    for (const extra of [{ secret: 'whsec_mine' }, { id: '00000000-0000-4000-8000-000000000000' }, { key_id: 1 }, { created_at: '2020-01-01T00:00:00Z' }]) {
      const created = await call('POST', '/v1/webhooks', headers, { url: HOOK, events: ['price_change'], ...extra });
      expect(created.statusCode, JSON.stringify(extra)).toBe(422);
      expect(JSON.stringify(created.json())).toContain(Object.keys(extra)[0]);
      expect((await call('PATCH', `/v1/webhooks/${id}`, headers, extra)).statusCode, JSON.stringify(extra)).toBe(422);
    }
  });

  it('no response carries a key hash, a stored secret or a configured secret', async () => {
    const { key, headers } = await h.key('enterprise');
    const hook = (await call('POST', '/v1/webhooks', headers, { url: HOOK, events: ['price_change'] })).json();
    const bodies = await Promise.all([
      call('GET', '/v1/auth/me', headers), call('GET', '/v1/webhooks', headers), call('GET', `/v1/webhooks/${hook.id}`, headers),
      call('GET', '/v1/search?q=galaxy', headers), call('GET', '/v1/products/search?q=galaxy', headers), call('GET', '/v2/search?q=galaxy', headers),
      call('GET', '/v1/products/1', headers), call('GET', '/.well-known/oauth-authorization-server'), call('GET', '/health'),
    ]).then((all) => all.map((r) => r.body).join('\n'));
    for (const secret of [hashSecret(key), key, hook.secret, ADMIN_SECRET, CLICK_SECRET, hashSecret(ADMIN_SECRET)]) {
      expect(bodies).not.toContain(secret);
    }
  });
});

describe('API4 unrestricted resource consumption', () => {
  it('bodies, arrays and pages are capped with the documented status and the field named', async () => {
    const { headers } = await h.key('enterprise');
    const big = { 'content-type': 'application/json', ...headers };
    const tooBig = await call('POST', '/v2/agents/compare-matrix', big, JSON.stringify({ product_ids: [1], pad: 'x'.repeat(300_000) }));
    expect(tooBig.statusCode).toBe(413);
    const ids = Array.from({ length: 101 }, (_, i) => String(i + 1));
    for (const [url, body, field] of [
      ['/v1/products/bulk-lookup', { ids }, 'ids'], ['/v2/products/batch-details', { product_ids: ids.map(Number) }, 'product_ids'],
      ['/v2/agents/batch-lookup', { product_ids: ids.map(Number) }, 'product_ids'],
    ] as const) {
      const res = await call('POST', url, headers, body);
      expect(res.statusCode, url).toBe(422);
      expect(JSON.stringify(res.json()), url).toContain(field);
    }
    for (const url of ['/v1/search?q=a&limit=1000', '/v1/products/search?q=a&limit=1000', '/v2/search?q=a&limit=1000', '/v1/products?limit=100000']) {
      const res = await call('GET', url, headers);
      expect(res.statusCode, url).toBe(422);
      expect(JSON.stringify(res.json()), url).toContain('limit');
    }
  });

  it('an NDJSON line over the cap is reported with its number while the lines before it are stored', async () => {
    const { headers } = await h.key('enterprise');
    const good = JSON.stringify({ source: 'shopee', sku: 'OWASP-1', title: 'Cap test', price: '1.00', currency: 'SGD', url: 'https://shopee.sg/p/owasp-1' });
    const res = await call('POST', '/v1/ingest/products', { ...headers, 'content-type': 'application/x-ndjson' }, `${good}\n{"title":"${'x'.repeat(1_100_000)}"}\n`);
    expect(res.statusCode).toBeLessThan(500);
    expect(JSON.stringify(res.json())).toMatch(/line longer than/);
    expect(JSON.stringify(res.json())).toMatch(/"line":2/);
    expect((await call('GET', '/v1/products/OWASP-1', headers)).statusCode).toBe(200);
  });
});

describe('API5 broken function-level authorization', () => {
  it('admin routes refuse every key, even enterprise, without the admin secret', async () => {
    const target = await h.key('free');
    const me = (await call('GET', '/v1/auth/me', target.headers)).json();
    for (const tier of ['free', 'pro', 'enterprise'] as const) {
      const { headers } = await h.key(tier);
      const res = await call('POST', `/v1/admin/keys/${me.key_id}/tier`, headers, { tier: 'enterprise' });
      expect(res.statusCode, tier).toBe(403);
    }
    expect((await call('GET', '/v1/auth/me', target.headers)).json().tier).toBe('free');
  });

  it('pro-only functions refuse lower tiers with 403 INSUFFICIENT_SCOPE', async () => {
    const { headers } = await h.key('free');
    for (const [method, url, body] of [
      ['POST', '/v1/webhooks', { url: HOOK, events: ['price_change'] }], ['POST', '/v1/products/bulk-lookup', { ids: ['1'] }],
      ['POST', '/v1/products/ingest', { source: 'shopee', products: [] }], ['GET', '/v1/products/compare?ids=00000000-0000-4000-8000-000000000001,00000000-0000-4000-8000-000000000002'],
    ] as Array<[Method, string, object?]>) {
      const res = await call(method, url, headers, body);
      expect(res.statusCode, url).toBe(403);
      expect(res.json().error.code, url).toBe('INSUFFICIENT_SCOPE');
    }
  });
});

describe('API7 server-side request forgery', () => {
  it('webhook urls to internal addresses are refused in every spelling, naming url', async () => {
    const { headers } = await h.key('pro');
    for (const url of ['https://127.0.0.1/x', 'https://2130706433/x', 'https://0x7f.1/x', 'https://[::ffff:127.0.0.1]/x', 'https://169.254.169.254/latest', 'https://10.0.0.1/', 'http://hooks.example.com/plain']) {
      const res = await call('POST', '/v1/webhooks', headers, { url, events: ['price_change'] });
      expect(res.statusCode, url).toBe(422);
      expect(JSON.stringify(res.json()), url).toContain('url');
    }
  });
});

describe('API8 security misconfiguration', () => {
  it('headers: nosniff on every answer, no framework banner, no stack or path in an error', async () => {
    const { headers } = await h.key('pro');
    for (const [method, url] of [['GET', '/v1/search?q=a'], ['GET', '/nope'], ['DELETE', '/v1/search'], ['GET', '/v1/products/1e400'], ['POST', '/v1/webhooks']] as Array<[Method, string]>) {
      const res = await call(method, url, headers);
      expect(res.headers['x-content-type-options'], url).toBe('nosniff');
      expect(res.headers['x-powered-by'], url).toBeUndefined();
      expect(res.body, url).not.toMatch(/at \w+ \(|node_modules|\/src\/|\.ts:\d+/);
    }
  });

  it('a wrong method on a known path is 405 with Allow; an unknown path is 404', async () => {
    const res = await call('DELETE', '/v1/search');
    expect(res.statusCode).toBe(405);
    expect(res.headers.allow).toContain('GET');
    expect((await call('GET', '/v1/no-such-thing')).statusCode).toBe(404);
  });

  it('CORS: a preflight from any origin is answered for reads without credentials (docs/api.md)', async () => {
    const res = await h.app.inject({ method: 'OPTIONS', url: '/v1/search', headers: { origin: 'https://shop.example', 'access-control-request-method': 'GET', 'access-control-request-headers': 'authorization' } });
    expect(res.statusCode).toBe(204);
    expect(res.headers['access-control-allow-origin']).toBe('*');
    expect(res.headers['access-control-allow-credentials']).toBeUndefined();
  });
});

const oauthToken = () => oauthClient(h.app);
