import { afterEach, describe, expect, it } from 'vitest';
import { makeHarness, type Harness } from '../helpers/app.js';
import { FakeClock } from '../helpers/clock.js';
import { rec } from '../helpers/records.js';
import { tableResolver } from './fixtures.js';
import { Receiver, verify } from './receiver.js';

/**
 * Delivery to real receivers on 127.0.0.1 (exempt through WEBHOOK_ALLOW_HOSTS, as in local
 * development). Time that decides (backoff) is the fake clock's; `drain()` dispatches and sends
 * everything due now and waits for it.
 */
let h: Harness;
let rx: Receiver;
const BASE = 1000;
afterEach(async () => {
  await h?.close();
  await rx?.close();
});

let step = 0;
/** A price move of SKU-1 (or another sku), observed a minute after the last one. */
function priceMove(price: string, over: Record<string, unknown> = {}) {
  step++;
  return h.ingest([rec({ price, observed_at: new Date(Date.parse('2026-11-20T10:00:00.000Z') + step * 60_000).toISOString(), ...over })]);
}

async function setup(env: Record<string, string> = {}, resolver?: Parameters<typeof tableResolver>[0]) {
  h = await makeHarness({ WEBHOOK_ALLOW_HOSTS: '127.0.0.1,pinned.test', WEBHOOK_RETRY_BASE_MS: String(BASE), ...env }, new FakeClock(),
    resolver ? { webhookResolver: tableResolver(resolver) } : {});
  rx = await new Receiver().start();
  await h.ingest([rec()]);
  const { headers } = await h.key('pro');
  return { headers };
}

async function subscribe(headers: Record<string, string>, body: Record<string, unknown> = {}) {
  const res = await h.app.inject({ method: 'POST', url: '/v1/webhooks', headers, payload: { url: rx.url(), events: ['price_change', 'stock_change'], ...body } });
  expect(res.statusCode).toBe(201);
  return res.json() as { id: string; secret: string };
}

const deliveries = async (headers: Record<string, string>, id: string, query = '') =>
  (await h.app.inject({ method: 'GET', url: `/v1/webhooks/${id}/deliveries${query}`, headers })).json();

describe('delivery', () => {
  it('sends the payload of spec 6.2, signed in the Standard Webhooks scheme (verified with standardwebhooks)', async () => {
    const { headers } = await setup();
    const sub = await subscribe(headers);
    await priceMove('449.10', { in_stock: false });
    await h.c.webhookDelivery.drain();
    expect(rx.received).toHaveLength(2);
    for (const r of rx.received) {
      expect(verify(sub.secret, r)).toBeTruthy();
      expect(r.headers['webhook-id']).toMatch(/^msg_[0-9a-f]{32}$/);
      expect(Math.abs(Number(r.headers['webhook-timestamp']) - Date.now() / 1000)).toBeLessThan(60);
      expect(r.headers['content-type']).toBe('application/json');
    }
    const listing = (await h.c.store.catalog.getById(1))!;
    const [price, stock] = rx.payloads();
    expect(price).toEqual({
      event: 'price_change', event_id: expect.any(Number), timestamp: '2026-11-20T10:01:00.000Z',
      data: {
        product_id: listing.uuid, title: listing.title, merchant: 'shop.example.com', previous_price: 499, new_price: 449.1,
        currency: 'SGD', change_pct: -10, url: listing.url,
      },
    });
    expect(stock).toMatchObject({ event: 'stock_change', data: { product_id: listing.uuid, previous_in_stock: true, in_stock: false, price: 449.1 } });
    expect(() => verify('whsec_' + Buffer.alloc(32, 1).toString('base64'), rx.received[0])).toThrow();
    const log = await deliveries(headers, sub.id);
    expect(log.total).toBe(2);
    expect(log.data[0]).toMatchObject({ status: 'succeeded', attempt_count: 1, next_attempt_at: null, attempts: [{ attempt: 1, status_code: 200, error: null, response_excerpt: 'ok' }] });
  });

  it('applies the filters: events, product_ids, min_price_change_pct (default 1, either way)', async () => {
    const { headers } = await setup();
    await h.ingest([rec({ sku: 'OTHER' })]);
    const other = (await h.c.store.catalog.getBySku('OTHER'))[0];
    await subscribe(headers, { events: ['price_change'] });
    await subscribe(headers, { events: ['price_change'], filters: { product_ids: [other.uuid.toUpperCase()], min_price_change_pct: 0 } });
    await priceMove('497.00'); // -0.4 %: under the default 1 %
    await priceMove('497.00', { sku: 'OTHER' }); // -0.4 % on OTHER: only the second subscription
    await priceMove('520.00', { in_stock: false }); // +4.6 % on SKU-1: only the first; the stock change is not asked for
    await h.c.webhookDelivery.drain();
    const got = rx.payloads().map((p) => [p.event, p.data.product_id, p.data.change_pct]);
    expect(got.sort()).toEqual([['price_change', other.uuid, -0.4], ['price_change', (await h.c.store.catalog.getById(1))!.uuid, 4.63]].sort());
  });

  it('sends nothing of events before the subscription existed', async () => {
    const { headers } = await setup();
    await priceMove('400.00');
    await subscribe(headers);
    await h.c.webhookDelivery.drain();
    expect(rx.received).toHaveLength(0);
    await priceMove('300.00');
    await h.c.webhookDelivery.drain();
    expect(rx.payloads().map((p) => p.data.new_price)).toEqual([300]);
  });

  it('500 then 200: retried after the backoff with the same webhook-id and body', async () => {
    const { headers } = await setup();
    const sub = await subscribe(headers, { events: ['price_change'] });
    let n = 0;
    rx.answer = (_r, res) => res.writeHead(n++ === 0 ? 500 : 200).end(n === 1 ? 'down for a moment' : 'ok');
    await priceMove('450.00');
    await h.c.webhookDelivery.drain();
    expect(rx.received).toHaveLength(1);
    let d = (await deliveries(headers, sub.id)).data[0];
    expect(d).toMatchObject({ status: 'pending', attempt_count: 1, attempts: [{ status_code: 500, error: 'http_status: answered 500', response_excerpt: 'down for a moment' }] });
    const wait = Date.parse(d.next_attempt_at) - h.clock.now().getTime();
    expect(wait).toBeGreaterThanOrEqual(BASE);
    expect(wait).toBeLessThanOrEqual(BASE * 1.25);
    await h.c.webhookDelivery.drain(); // not due yet
    expect(rx.received).toHaveLength(1);
    h.clock.advance(wait);
    await h.c.webhookDelivery.drain();
    expect(rx.received).toHaveLength(2);
    expect(rx.received[1].headers['webhook-id']).toBe(rx.received[0].headers['webhook-id']);
    expect(rx.received[1].body).toBe(rx.received[0].body);
    verify(sub.secret, rx.received[1]);
    d = (await deliveries(headers, sub.id)).data[0];
    expect(d).toMatchObject({ status: 'succeeded', attempt_count: 2, next_attempt_at: null });
    expect(d.attempts.map((a: { status_code: number }) => a.status_code)).toEqual([500, 200]);
  });

  it('dead-letters after 3 retries with growing waits; a manual retry sends it again with the same webhook-id', async () => {
    const { headers } = await setup();
    const sub = await subscribe(headers, { events: ['price_change'] });
    rx.answer = (_r, res) => res.writeHead(503).end();
    await priceMove('450.00');
    const waits: number[] = [];
    await h.c.webhookDelivery.drain();
    for (let i = 0; i < 3; i++) {
      const d = (await deliveries(headers, sub.id)).data[0];
      expect(d.status).toBe('pending');
      const wait = Date.parse(d.next_attempt_at) - h.clock.now().getTime();
      waits.push(wait);
      h.clock.advance(wait);
      await h.c.webhookDelivery.drain();
    }
    expect(rx.received).toHaveLength(4);
    waits.forEach((w, i) => {
      expect(w).toBeGreaterThanOrEqual(BASE * 4 ** i);
      expect(w).toBeLessThanOrEqual(BASE * 4 ** i * 1.25);
    });
    const dead = await deliveries(headers, sub.id, '?status=dead');
    expect(dead.total).toBe(1);
    expect(dead.data[0]).toMatchObject({ status: 'dead', attempt_count: 4, next_attempt_at: null, last_status_code: 503 });
    h.clock.advance(3600_000);
    await h.c.webhookDelivery.drain();
    expect(rx.received).toHaveLength(4);

    rx.answer = (_r, res) => res.writeHead(204).end();
    const retry = await h.app.inject({ method: 'POST', url: `/v1/webhooks/${sub.id}/deliveries/${dead.data[0].id}/retry`, headers });
    expect(retry.statusCode).toBe(202);
    expect(retry.json()).toMatchObject({ id: dead.data[0].id, status: 'pending', max_attempts: 5 });
    await h.c.webhookDelivery.drain();
    expect(rx.received).toHaveLength(5);
    expect(new Set(rx.received.map((r) => r.headers['webhook-id']))).toEqual(new Set([dead.data[0].id]));
    expect((await deliveries(headers, sub.id)).data[0]).toMatchObject({ status: 'succeeded', attempt_count: 5, last_status_code: 204 });
    const again = await h.app.inject({ method: 'POST', url: `/v1/webhooks/${sub.id}/deliveries/${dead.data[0].id}/retry`, headers });
    expect(again.statusCode).toBe(202);
    const busy = await h.app.inject({ method: 'POST', url: `/v1/webhooks/${sub.id}/deliveries/${dead.data[0].id}/retry`, headers });
    expect([202, 409]).toContain(busy.statusCode);
  });

  it('a receiver that never answers times out (WEBHOOK_TIMEOUT_MS) and the delivery is retried', async () => {
    const { headers } = await setup({ WEBHOOK_TIMEOUT_MS: '300' });
    const sub = await subscribe(headers, { events: ['price_change'] });
    rx.answer = () => undefined;
    await priceMove('450.00');
    await h.c.webhookDelivery.drain();
    const d = (await deliveries(headers, sub.id)).data[0];
    expect(d).toMatchObject({ status: 'pending', attempt_count: 1, attempts: [{ status_code: null, error: 'timeout: no complete answer within 300 ms' }] });
    expect(d.attempts[0].duration_ms).toBeGreaterThanOrEqual(290);
  });

  it('410 Gone pauses the subscription: no more deliveries until it is resumed', async () => {
    const { headers } = await setup();
    const sub = await subscribe(headers, { events: ['price_change'] });
    rx.answer = (_r, res) => res.writeHead(410).end('gone');
    await priceMove('450.00');
    await h.c.webhookDelivery.drain();
    const got = await h.app.inject({ method: 'GET', url: `/v1/webhooks/${sub.id}`, headers });
    expect(got.json()).toMatchObject({ status: 'paused', paused_reason: 'receiver_gone' });
    expect((await deliveries(headers, sub.id)).data[0]).toMatchObject({ status: 'dead', attempt_count: 1, last_status_code: 410 });
    await priceMove('400.00');
    h.clock.advance(3600_000);
    await h.c.webhookDelivery.drain();
    expect(rx.received).toHaveLength(1);
    rx.answer = (_r, res) => res.writeHead(200).end();
    await h.app.inject({ method: 'PATCH', url: `/v1/webhooks/${sub.id}`, headers, payload: { status: 'active' } });
    await priceMove('350.00');
    await h.c.webhookDelivery.drain();
    expect(rx.payloads().map((p) => p.data.new_price)).toEqual([450, 350]);
  });

  it('does not follow a redirect: a 3xx is a failed attempt and the Location is never asked', async () => {
    const { headers } = await setup();
    const sub = await subscribe(headers, { events: ['price_change'] });
    rx.answer = (r, res) => (r.path === '/hook' ? res.writeHead(302, { location: rx.url('/elsewhere') }).end() : res.writeHead(200).end());
    await priceMove('450.00');
    await h.c.webhookDelivery.drain();
    expect(rx.received.map((r) => r.path)).toEqual(['/hook']);
    expect((await deliveries(headers, sub.id)).data[0]).toMatchObject({
      status: 'pending', attempts: [{ status_code: 302, error: 'redirect_not_followed: answered 302; redirects are not followed' }],
    });
  });

  it('a connection closed before the answer, or in the middle of it, is a failed attempt', async () => {
    const { headers } = await setup();
    const sub = await subscribe(headers, { events: ['price_change'] });
    rx.answer = (_r, res) => res.socket?.destroy();
    await priceMove('450.00');
    await h.c.webhookDelivery.drain();
    rx.answer = (_r, res) => {
      res.writeHead(200, { 'content-length': '1000' });
      res.write('partial', () => res.socket?.destroy());
    };
    await priceMove('400.00');
    await h.c.webhookDelivery.drain();
    const log = (await deliveries(headers, sub.id)).data;
    expect(log).toHaveLength(2);
    for (const d of log) {
      expect(d.status).toBe('pending');
      expect(d.attempts[0].error).toMatch(/^connection_closed/);
    }
  });

  it('reads at most 4 KB of an answer and keeps a short excerpt', async () => {
    const { headers } = await setup();
    const sub = await subscribe(headers, { events: ['price_change'] });
    rx.answer = (_r, res) => res.writeHead(200).end('x'.repeat(1024 * 1024));
    await priceMove('450.00');
    await h.c.webhookDelivery.drain();
    const d = (await deliveries(headers, sub.id)).data[0];
    expect(d.status).toBe('succeeded');
    expect(d.attempts[0].response_excerpt).toBe('x'.repeat(200));
  });

  it('after a secret rotation deliveries carry both signatures until the old secret expires', async () => {
    const { headers } = await setup();
    const sub = await subscribe(headers, { events: ['price_change'] });
    const rotated = (await h.app.inject({ method: 'POST', url: `/v1/webhooks/${sub.id}/rotate-secret`, headers, payload: { previous_secret_valid_seconds: 60 } })).json();
    await priceMove('450.00');
    await h.c.webhookDelivery.drain();
    expect(String(rx.received[0].headers['webhook-signature']).split(' ')).toHaveLength(2);
    verify(sub.secret, rx.received[0]);
    verify(rotated.secret, rx.received[0]);
    h.clock.advance(61_000);
    await priceMove('400.00');
    await h.c.webhookDelivery.drain();
    verify(rotated.secret, rx.received[1]);
    expect(() => verify(sub.secret, rx.received[1])).toThrow();
  });

  it('POST /test sends a signed test event now, even to a paused subscription, and logs it', async () => {
    const { headers } = await setup();
    const sub = await subscribe(headers, { events: ['price_change'] });
    await h.app.inject({ method: 'PATCH', url: `/v1/webhooks/${sub.id}`, headers, payload: { status: 'paused' } });
    const res = await h.app.inject({ method: 'POST', url: `/v1/webhooks/${sub.id}/test`, headers });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ event: 'test', event_id: null, status: 'succeeded', attempt_count: 1, attempts: [{ status_code: 200 }] });
    expect(rx.payloads()[0]).toMatchObject({ event: 'test', data: { subscription_id: sub.id } });
    verify(sub.secret, rx.received[0]);
    rx.answer = (_r, r) => r.writeHead(500).end();
    const failed = await h.app.inject({ method: 'POST', url: `/v1/webhooks/${sub.id}/test`, headers });
    expect(failed.json()).toMatchObject({ status: 'dead', attempts: [{ status_code: 500 }] });
    expect((await deliveries(headers, sub.id)).total).toBe(2);
  });
});

describe('secrets at rest', () => {
  it('with WEBHOOK_SECRET_KEY the stored secret is sealed, and deliveries are still signed with it', async () => {
    const { headers } = await setup({ WEBHOOK_SECRET_KEY: 'ab'.repeat(32) });
    const sub = await subscribe(headers, { events: ['price_change'] });
    const stored = (await h.c.store.webhooks.subscription((await h.c.store.webhooks.activeSubscriptions(['pro']))[0].accountId, sub.id))!;
    expect(stored.secret).toMatch(/^sealed:v1:/);
    expect(stored.secret).not.toContain(sub.secret.slice(6));
    await priceMove('450.00');
    await h.c.webhookDelivery.drain();
    verify(sub.secret, rx.received[0]);
  });

  it('a WEBHOOK_SECRET_KEY that is not 32 bytes stops the start', async () => {
    await expect(makeHarness({ WEBHOOK_SECRET_KEY: 'short' })).rejects.toThrow(/32 bytes/);
  });
});

describe('the address guard at delivery', () => {
  it('checks the host again before every attempt: a name that now resolves to a refused address is not connected to', async () => {
    const table: Record<string, string[]> = { 'hooks.example.com': ['93.184.215.14'] };
    const { headers } = await setup({}, table);
    const res = await h.app.inject({ method: 'POST', url: '/v1/webhooks', headers, payload: { url: 'https://hooks.example.com/x', events: ['price_change'] } });
    expect(res.statusCode).toBe(201);
    // Rebound to loopback after registration (were the guard to let it through, loopback is the only place it could reach).
    table['hooks.example.com'] = ['127.0.0.1'];
    await priceMove('450.00');
    await h.c.webhookDelivery.drain();
    expect(rx.received).toHaveLength(0);
    const d = (await deliveries(headers, res.json().id)).data[0];
    expect(d).toMatchObject({ status: 'pending', attempts: [{ status_code: null, error: expect.stringMatching(/^address_refused: .*127\.0\.0\.1 is in the loopback range/) }] });
  });

  it('connects to the address it checked, with the url\'s host name in Host', async () => {
    // pinned.test resolves only through the guard's resolver: a connection made by name would fail.
    const { headers } = await setup({ WEBHOOK_ALLOW_HOSTS: 'pinned.test' }, { 'pinned.test': ['127.0.0.1'] });
    const res = await h.app.inject({ method: 'POST', url: '/v1/webhooks', headers, payload: { url: `http://pinned.test:${rx.port}/hook`, events: ['price_change'] } });
    expect(res.statusCode).toBe(201);
    await priceMove('450.00');
    await h.c.webhookDelivery.drain();
    expect(rx.received).toHaveLength(1);
    expect(rx.received[0].headers.host).toBe(`pinned.test:${rx.port}`);
  });
});
