import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeHarness, type Harness } from '../helpers/app.js';
import { FakeClock } from '../helpers/clock.js';
import { REFUSED_URLS, tableResolver } from './fixtures.js';

/**
 * The management endpoints (spec 2.8, 4.5; ours per 4.6). Urls resolve through a table to a public
 * address; these tests send nothing to it (no event is ingested, no test event is sent).
 */
let h: Harness;
const HOOK = 'https://hooks.example.com/catalog';
const PRODUCT = '3f1c2b7e-1d2a-4c5b-8e9f-0a1b2c3d4e5f';

beforeAll(async () => {
  h = await makeHarness({}, new FakeClock(), {
    webhookResolver: tableResolver({ 'hooks.example.com': ['93.184.215.14'], 'other.example.com': ['2606:4700::1111'], 'private.example.com': ['10.1.2.3'] }),
  });
});
afterAll(() => h.close());

type Json = Record<string, unknown>;
async function create(headers: Json, payload: Json = { url: HOOK, events: ['price_change'] }) {
  return h.app.inject({ method: 'POST', url: '/v1/webhooks', headers: headers as never, payload });
}

describe('POST /v1/webhooks', () => {
  it('creates a subscription (spec 2.8) and shows its whsec_ secret once', async () => {
    const { headers } = await h.key('pro');
    const res = await create(headers, { url: HOOK, events: ['price_change', 'stock_change'], filters: { product_ids: [PRODUCT], min_price_change_pct: 5 } });
    expect(res.statusCode).toBe(201);
    expect(res.headers['cache-control']).toBe('no-store');
    const body = res.json();
    expect(body).toMatchObject({
      url: HOOK, events: ['price_change', 'stock_change'], filters: { product_ids: [PRODUCT], min_price_change_pct: 5 },
      status: 'active', paused_reason: null, created_at: '2026-11-20T12:00:00.000Z',
    });
    expect(body.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(body.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(Buffer.from(body.secret.slice(6), 'base64')).toHaveLength(32);
    const again = await h.app.inject({ method: 'GET', url: `/v1/webhooks/${body.id}`, headers });
    expect(again.statusCode).toBe(200);
    expect(again.json().secret).toBeUndefined();
    expect(again.body).not.toContain(body.secret.slice(6, 20));
  });

  it('defaults min_price_change_pct to 1 and product_ids to every product', async () => {
    const { headers } = await h.key('enterprise');
    const res = await create(headers);
    expect(res.statusCode).toBe(201);
    expect(res.json().filters).toEqual({ min_price_change_pct: 1 });
  });

  it('is 403 INSUFFICIENT_SCOPE below pro, on every webhook endpoint', async () => {
    const id = '00000000-0000-4000-8000-000000000000';
    // Valid requests: the tier gate runs after validation, as on every route.
    const routes: Array<[string, string, Json?]> = [
      ['POST', '/v1/webhooks', { url: HOOK, events: ['price_change'] }], ['GET', '/v1/webhooks'], ['GET', `/v1/webhooks/${id}`],
      ['PATCH', `/v1/webhooks/${id}`, { status: 'paused' }], ['DELETE', `/v1/webhooks/${id}`], ['POST', `/v1/webhooks/${id}/rotate-secret`, {}],
      ['POST', `/v1/webhooks/${id}/test`], ['GET', `/v1/webhooks/${id}/deliveries`], ['POST', `/v1/webhooks/${id}/deliveries/msg_1/retry`],
    ];
    // The unverified tier may make 5 requests a minute: one route is enough there.
    for (const tier of ['unverified', 'free', 'basic'] as const) {
      const { headers } = await h.key(tier);
      for (const [method, url, payload] of tier === 'unverified' ? routes.slice(0, 1) : routes) {
        const res = await h.app.inject({ method: method as 'GET', url, headers, ...(payload ? { payload } : {}) });
        expect(res.statusCode, `${tier} ${method} ${url}`).toBe(403);
        expect(res.json().error.code).toBe('INSUFFICIENT_SCOPE');
      }
    }
  });

  it('is 401 without a key', async () => {
    const res = await h.app.inject({ method: 'GET', url: '/v1/webhooks' });
    expect(res.statusCode).toBe(401);
    expect(res.json().error.code).toBe('MISSING_API_KEY');
  });

  it('refuses a url that is not HTTPS: 422 naming url', async () => {
    const { headers } = await h.key('pro');
    const res = await create(headers, { url: 'http://hooks.example.com/catalog', events: ['price_change'] });
    expect(res.statusCode).toBe(422);
    expect(res.json().error).toMatchObject({ code: 'VALIDATION_ERROR', details: { errors: [{ field: 'url', message: 'url must use https' }] } });
  });

  it('refuses every spelling of a loopback, private, link-local, metadata or other special address: 422 naming url', async () => {
    const { headers } = await h.key('pro');
    for (const url of [...REFUSED_URLS, 'https://private.example.com/x', 'https://unresolvable.example.com/x']) {
      const res = await create(headers, { url, events: ['price_change'] });
      expect(res.statusCode, url).toBe(422);
      expect(res.json().error.details.errors[0].field, url).toBe('url');
    }
    expect((await h.app.inject({ method: 'GET', url: '/v1/webhooks', headers })).json().total).toBe(0);
  });

  it('validates the body: events, filters, unknown members; each problem names its field', async () => {
    const { headers } = await h.key('pro');
    const cases: Array<[Json, string]> = [
      [{ url: HOOK }, 'events'],
      [{ url: HOOK, events: [] }, 'events'],
      [{ url: HOOK, events: ['product_update'] }, 'events.0'],
      [{ url: HOOK, events: ['price_change', 'price_change'] }, 'events'],
      [{ events: ['price_change'] }, 'url'],
      [{ url: HOOK, events: ['price_change'], filters: { product_ids: ['not-a-uuid'] } }, 'filters.product_ids.0'],
      [{ url: HOOK, events: ['price_change'], filters: { product_ids: [] } }, 'filters.product_ids'],
      [{ url: HOOK, events: ['price_change'], filters: { min_price_change_pct: -1 } }, 'filters.min_price_change_pct'],
      [{ url: HOOK, events: ['price_change'], filters: { min_price_change_pct: 1e9 } }, 'filters.min_price_change_pct'],
      [{ url: HOOK, events: ['price_change'], filters: { category: 'x' } }, 'filters'],
      [{ url: HOOK, events: ['price_change'], secret: 'mine' }, ''],
    ];
    for (const [payload, field] of cases) {
      const res = await create(headers, payload);
      expect(res.statusCode, JSON.stringify(payload)).toBe(422);
      const err = res.json().error;
      expect(err.code).toBe('VALIDATION_ERROR');
      if (field) expect(err.details.errors[0].field, JSON.stringify(payload)).toContain(field);
    }
  });

  it(`allows at most 25 subscriptions per key: the 26th is 409`, async () => {
    const { headers } = await h.key('pro');
    for (let i = 0; i < 25; i++) expect((await create(headers, { url: `${HOOK}/${i}`, events: ['price_change'] })).statusCode).toBe(201);
    const over = await create(headers);
    expect(over.statusCode).toBe(409);
    expect(over.json().error).toMatchObject({ code: 'CONFLICT', details: { max_per_key: 25 } });
    const list = (await h.app.inject({ method: 'GET', url: '/v1/webhooks', headers })).json();
    expect(list).toMatchObject({ total: 25, max_per_key: 25 });
    await h.app.inject({ method: 'DELETE', url: `/v1/webhooks/${list.data[0].id}`, headers });
    expect((await create(headers)).statusCode).toBe(201);
  });
});

describe('managing subscriptions', () => {
  it('a key sees only its own: another key\'s subscription is 404 on every endpoint', async () => {
    const owner = await h.key('pro');
    const other = await h.key('pro');
    const id = (await create(owner.headers)).json().id;
    const routes: Array<[string, string, Json?]> = [
      ['GET', `/v1/webhooks/${id}`], ['PATCH', `/v1/webhooks/${id}`, { status: 'paused' }], ['DELETE', `/v1/webhooks/${id}`],
      ['POST', `/v1/webhooks/${id}/rotate-secret`, {}], ['POST', `/v1/webhooks/${id}/test`], ['GET', `/v1/webhooks/${id}/deliveries`],
      ['POST', `/v1/webhooks/${id}/deliveries/msg_0123/retry`],
    ];
    for (const [method, url, payload] of routes) {
      const res = await h.app.inject({ method: method as 'GET', url, headers: other.headers, ...(payload ? { payload } : {}) });
      expect(res.statusCode, `${method} ${url}`).toBe(404);
      expect(res.json().error.code).toBe('NOT_FOUND');
    }
    expect((await h.app.inject({ method: 'GET', url: '/v1/webhooks', headers: other.headers })).json().total).toBe(0);
    expect((await h.app.inject({ method: 'GET', url: `/v1/webhooks/${id}`, headers: owner.headers })).statusCode).toBe(200);
    expect((await h.app.inject({ method: 'GET', url: '/v1/webhooks/nope', headers: owner.headers })).statusCode).toBe(404);
  });

  it('subscriptions belong to the account: they survive a key rotation', async () => {
    const { key, headers } = await h.key('pro');
    const id = (await create(headers)).json().id;
    const rotated = await h.app.inject({ method: 'POST', url: '/v1/keys/rotate', headers: { authorization: `Bearer ${key}` } });
    const next = { authorization: `Bearer ${rotated.json().api_key}` };
    expect((await h.app.inject({ method: 'GET', url: `/v1/webhooks/${id}`, headers: next })).statusCode).toBe(200);
  });

  it('PATCH changes url, events, filters and status; the url is checked again', async () => {
    const { headers } = await h.key('pro');
    const id = (await create(headers, { url: HOOK, events: ['price_change'], filters: { product_ids: [PRODUCT], min_price_change_pct: 3 } })).json().id;
    const patch = (payload: Json) => h.app.inject({ method: 'PATCH', url: `/v1/webhooks/${id}`, headers, payload });
    h.clock.advance(1000);
    let res = await patch({ url: 'https://other.example.com/new', events: ['stock_change'] });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ url: 'https://other.example.com/new', events: ['stock_change'], filters: { product_ids: [PRODUCT], min_price_change_pct: 3 } });
    expect(res.json().updated_at).toBe('2026-11-20T12:00:01.000Z');
    res = await patch({ filters: { min_price_change_pct: 10 } });
    expect(res.json().filters).toEqual({ min_price_change_pct: 10 });
    res = await patch({ status: 'paused' });
    expect(res.json()).toMatchObject({ status: 'paused', paused_reason: 'paused_by_owner' });
    res = await patch({ status: 'active' });
    expect(res.json()).toMatchObject({ status: 'active', paused_reason: null });
    res = await patch({ url: 'https://169.254.169.254/' });
    expect(res.statusCode).toBe(422);
    expect(res.json().error.details.errors[0].field).toBe('url');
    expect((await patch({})).statusCode).toBe(422);
    expect((await patch({ status: 'deleted' })).statusCode).toBe(422);
    expect((await h.app.inject({ method: 'GET', url: `/v1/webhooks/${id}`, headers })).json().url).toBe('https://other.example.com/new');
  });

  it('DELETE removes it: 204, then 404', async () => {
    const { headers } = await h.key('pro');
    const id = (await create(headers)).json().id;
    const del = await h.app.inject({ method: 'DELETE', url: `/v1/webhooks/${id}`, headers });
    expect(del.statusCode).toBe(204);
    expect(del.body).toBe('');
    expect((await h.app.inject({ method: 'DELETE', url: `/v1/webhooks/${id}`, headers })).statusCode).toBe(404);
    expect((await h.app.inject({ method: 'GET', url: `/v1/webhooks/${id}`, headers })).statusCode).toBe(404);
  });

  it('rotate-secret answers a new secret once, and says until when the old one still signs', async () => {
    const { headers } = await h.key('pro');
    const created = (await create(headers)).json();
    const res = await h.app.inject({ method: 'POST', url: `/v1/webhooks/${created.id}/rotate-secret`, headers, payload: {} });
    expect(res.statusCode).toBe(200);
    expect(res.json().secret).toMatch(/^whsec_/);
    expect(res.json().secret).not.toBe(created.secret);
    expect(res.json().previous_secret_expires_at).toBe(new Date(h.clock.now().getTime() + 86_400_000).toISOString());
    const now = await h.app.inject({ method: 'POST', url: `/v1/webhooks/${created.id}/rotate-secret`, headers, payload: { previous_secret_valid_seconds: 0 } });
    expect(now.json().previous_secret_expires_at).toBeNull();
    const bare = await h.app.inject({ method: 'POST', url: `/v1/webhooks/${created.id}/rotate-secret`, headers });
    expect(bare.statusCode).toBe(200);
  });

  it('the delivery log validates its query and is empty for a new subscription', async () => {
    const { headers } = await h.key('pro');
    const id = (await create(headers)).json().id;
    const res = await h.app.inject({ method: 'GET', url: `/v1/webhooks/${id}/deliveries?status=dead&limit=5`, headers });
    expect(res.json()).toEqual({ data: [], total: 0, limit: 5, offset: 0 });
    const bad = await h.app.inject({ method: 'GET', url: `/v1/webhooks/${id}/deliveries?status=lost&limit=500`, headers });
    expect(bad.statusCode).toBe(422);
    expect((await h.app.inject({ method: 'POST', url: `/v1/webhooks/${id}/deliveries/msg_nope/retry`, headers })).statusCode).toBe(404);
  });

  it('an unknown path under /v1/webhooks answers in the v1 envelope', async () => {
    const { headers } = await h.key('pro');
    const res = await h.app.inject({ method: 'PUT', url: '/v1/webhooks', headers });
    expect(res.statusCode).toBe(405);
    expect(res.json().error.code).toBe('METHOD_NOT_ALLOWED');
  });
});
