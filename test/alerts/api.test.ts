import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ALERT_LIMITS } from '../../src/accounts/tiers.js';
import { makeHarness, type Harness } from '../helpers/app.js';
import { rec } from '../helpers/records.js';

/** Issue 26 part 1: the alert endpoints, their checks and the tier limit. */
let h: Harness;
let headers: { authorization: string };
let uuid: string;
beforeAll(async () => {
  h = await makeHarness();
  await h.ingest([rec(), rec({ sku: 'SKU-2', gtin: '4006381333931', price: '10000', currency: 'VND', source: 'tiki_vn' })]);
  headers = (await h.key('pro')).headers;
  uuid = (await h.c.store.catalog.getById(1))!.uuid;
});
afterAll(async () => { await h?.close(); });

const post = (payload: unknown, auth = headers) => h.app.inject({ method: 'POST', url: '/v1/alerts', headers: auth, payload: payload as object });

describe('POST /v1/alerts', () => {
  it('takes the product in any id form and answers the alert (201)', async () => {
    const refs = ['1', uuid, 'SKU-1', 'https://shop.example.com/shopee_sg/SKU-1', '4006381333931'];
    for (const product of refs) {
      const res = await post({ product, condition: { type: 'price_at_or_below', target: '450', currency: 'sgd' } });
      expect(res.statusCode, `${product}: ${res.body}`).toBe(201);
      const body = res.json();
      expect(body.product_id).toBe(product === '4006381333931' ? 2 : 1);
      if (product !== '4006381333931') {
        expect(body).toMatchObject({
          condition: { type: 'price_at_or_below', target: '450.00', currency: 'SGD' }, rearm: null, expires_at: null, status: 'armed', fire_count: 0,
          product: { id: 1, uuid, price: '499.00', currency: 'SGD' },
        });
      }
    }
  });

  it('takes an Idempotency-Key: a retry gets the first alert back, not a second one', async () => {
    const keyed = { ...headers, 'idempotency-key': 'alert-retry-1' };
    const body = { product: '1', condition: { type: 'price_at_or_below', target: '420', currency: 'SGD' } };
    const first = await post(body, keyed);
    const again = await post(body, keyed);
    expect(first.statusCode).toBe(201);
    expect(again.statusCode).toBe(201);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.json().id).toBe(first.json().id);
    const other = await post({ ...body, condition: { ...body.condition, target: '410' } }, keyed);
    expect(other.statusCode).toBe(422);
    const listed = (await h.app.inject({ method: 'GET', url: '/v1/alerts?limit=100', headers })).json() as { data: Array<{ id: string }> };
    expect(listed.data.filter((a) => a.id === first.json().id)).toHaveLength(1);
  });

  it('measures a drop from the price when set, exactly, and keeps the re-arm rule and expiry', async () => {
    const res = await post({ product: '1', condition: { type: 'drop_percent', percent: 12.5 }, rearm: { quiet_period_seconds: 3600 }, expires_at: '2027-01-01T00:00:00Z' });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({
      condition: { type: 'drop_percent', percent: '12.5', base_price: '499.00', base_currency: 'SGD', threshold: '436.625' },
      rearm: { quiet_period_seconds: 3600 }, expires_at: '2027-01-01T00:00:00.000Z',
    });
    const stock = await post({ product: 'SKU-1', condition: { type: 'back_in_stock' }, rearm: { quiet_period_seconds: 60 } });
    expect(stock.json()).toMatchObject({ condition: { type: 'back_in_stock' }, rearm: { quiet_period_seconds: 60 } });
  });

  it('names the field of every refused body (422), never a 500', async () => {
    const cases: Array<[unknown, Array<string | number>]> = [
      [{ product: '1' }, ['body', 'condition']],
      [{ product: '1', condition: { type: 'cheaper' } }, ['body', 'condition', 'type']],
      [{ product: '1', condition: { type: 'price_at_or_below', currency: 'SGD' } }, ['body', 'condition', 'target']],
      [{ product: '1', condition: { type: 'price_at_or_below', target: '10' } }, ['body', 'condition', 'currency']],
      [{ product: '1', condition: { type: 'price_at_or_below', target: '10', currency: 'XXX' } }, ['body', 'condition', 'currency']],
      [{ product: '1', condition: { type: 'price_at_or_below', target: '10.001', currency: 'SGD' } }, ['body', 'condition', 'target']],
      [{ product: '1', condition: { type: 'price_at_or_below', target: '0', currency: 'SGD' } }, ['body', 'condition', 'target']],
      [{ product: '1', condition: { type: 'price_at_or_below', target: '10.5', currency: 'VND' } }, ['body', 'condition', 'target']],
      [{ product: '1', condition: { type: 'price_at_or_below', target: 'ten', currency: 'SGD' } }, ['body', 'condition', 'target']],
      [{ product: '1', condition: { type: 'drop_percent' } }, ['body', 'condition', 'percent']],
      [{ product: '1', condition: { type: 'drop_percent', percent: 0 } }, ['body', 'condition', 'percent']],
      [{ product: '1', condition: { type: 'drop_percent', percent: '100' } }, ['body', 'condition', 'percent']],
      [{ product: '1', condition: { type: 'drop_percent', percent: '10', target: '5' } }, ['body', 'condition', 'target']],
      [{ product: '1', condition: { type: 'back_in_stock', currency: 'SGD' } }, ['body', 'condition', 'currency']],
      [{ product: '1', condition: { type: 'back_in_stock' }, rearm: { after: 'price_above_target' } }, ['body', 'rearm', 'after']],
      [{ product: '1', condition: { type: 'back_in_stock' }, rearm: {} }, ['body', 'rearm']],
      [{ product: '1', condition: { type: 'back_in_stock' }, rearm: { after: 'price_above_target', quiet_period_seconds: 600 } }, ['body', 'rearm']],
      [{ product: '1', condition: { type: 'back_in_stock' }, rearm: { quiet_period_seconds: 5 } }, ['body', 'rearm', 'quiet_period_seconds']],
      [{ product: '1', condition: { type: 'back_in_stock' }, expires_at: 'soon' }, ['body', 'expires_at']],
      [{ product: '1', condition: { type: 'back_in_stock' }, expires_at: '2020-01-01T00:00:00Z' }, ['body', 'expires_at']],
      [{ product: 'NO-SUCH-SKU', condition: { type: 'back_in_stock' } }, ['body', 'product']],
      [{ product: '1', condition: { type: 'back_in_stock' }, colour: 'red' }, ['body', 'colour']],
    ];
    for (const [payload, loc] of cases) {
      const res = await post(payload);
      expect(res.statusCode, JSON.stringify(payload)).toBe(422);
      const fields = (res.json() as { error: { details: { errors: Array<{ field: string }> } } }).error.details.errors.map((e) => e.field);
      expect(fields, JSON.stringify(payload)).toContain(loc.slice(1).join('.'));
    }
  });

  it('needs a key, and a verified one (403 below free)', async () => {
    expect((await post({ product: '1', condition: { type: 'back_in_stock' } }, {} as never)).statusCode).toBe(401);
    const res = await post({ product: '1', condition: { type: 'back_in_stock' } }, (await h.key('unverified')).headers);
    expect(res.statusCode).toBe(403);
  });

  it('refuses an alert over the tier\'s active limit (409 with the limit); fired and expired alerts do not count', async () => {
    const free = (await h.key('free')).headers;
    const max = ALERT_LIMITS.free;
    for (let i = 0; i < max; i++) expect((await post({ product: '1', condition: { type: 'back_in_stock' } }, free)).statusCode).toBe(201);
    const over = await post({ product: '1', condition: { type: 'back_in_stock' } }, free);
    expect(over.statusCode).toBe(409);
    expect(over.json()).toMatchObject({ error: { code: 'CONFLICT', details: { max_active: max, tier: 'free' } } });
    const list = (await h.app.inject({ url: '/v1/alerts?limit=100', headers: free })).json();
    expect(list).toMatchObject({ total: max, active: max, max_active: max });
    // One deleted frees a place.
    expect((await h.app.inject({ method: 'DELETE', url: `/v1/alerts/${list.data[0].id}`, headers: free })).statusCode).toBe(204);
    expect((await post({ product: '1', condition: { type: 'back_in_stock' }, expires_at: '2026-11-25T12:00:00Z' }, free)).statusCode).toBe(201);
    // Once that one has expired, it no longer counts.
    h.clock.set('2026-11-25T12:00:01Z');
    expect((await post({ product: '1', condition: { type: 'back_in_stock' } }, free)).statusCode).toBe(201);
  });
});

describe('GET and DELETE /v1/alerts', () => {
  it('lists, reads and deletes a key\'s own alerts; another key\'s are not found', async () => {
    const mine = (await h.key('basic')).headers;
    const other = (await h.key('pro')).headers;
    const a = (await post({ product: '1', condition: { type: 'price_at_or_below', target: '1', currency: 'USD' } }, mine)).json();
    const list = (await h.app.inject({ url: '/v1/alerts', headers: mine })).json();
    expect(list).toMatchObject({ total: 1, limit: 20, offset: 0, active: 1, max_active: ALERT_LIMITS.basic });
    expect(list.data[0].id).toBe(a.id);
    expect((await h.app.inject({ url: `/v1/alerts/${a.id}`, headers: mine })).json()).toEqual(a);
    expect((await h.app.inject({ url: `/v1/alerts/${a.id}`, headers: other })).statusCode).toBe(404);
    expect((await h.app.inject({ url: `/v1/alerts/${a.id}/firings`, headers: other })).statusCode).toBe(404);
    expect((await h.app.inject({ method: 'DELETE', url: `/v1/alerts/${a.id}`, headers: other })).statusCode).toBe(404);
    expect((await h.app.inject({ url: `/v1/alerts/${a.id}/firings`, headers: mine })).json()).toEqual({ data: [], total: 0, limit: 20, offset: 0 });
    expect((await h.app.inject({ method: 'DELETE', url: `/v1/alerts/${a.id}`, headers: mine })).statusCode).toBe(204);
    expect((await h.app.inject({ url: `/v1/alerts/${a.id}`, headers: mine })).statusCode).toBe(404);
    expect((await h.app.inject({ url: '/v1/alerts?limit=0', headers: mine })).statusCode).toBe(422);
  });
});
