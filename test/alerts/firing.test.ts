import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { shippedRates } from '../../src/catalog/fx-service.js';
import { convertScaled } from '../../src/domain/fx.js';
import { scaledText, unitsText } from '../../src/domain/money.js';
import { makeHarness, type Harness } from '../helpers/app.js';
import { rec } from '../helpers/records.js';
import { openSse, type SseClient } from '../helpers/sse.js';
import { Receiver, verify } from '../webhooks/receiver.js';

/**
 * Issue 26 part 1: alerts fire on changes imported through the real ingest path; a firing is in
 * the history, on the owner's stream and in a signed webhook delivery to the owner's receiver only.
 */
let h: Harness;
let rx: Receiver;
let base: string;
const streams: SseClient[] = [];
beforeAll(async () => {
  h = await makeHarness({ WEBHOOK_ALLOW_HOSTS: '127.0.0.1', SSE_HEARTBEAT_MS: '200' });
  rx = await new Receiver().start();
  await h.c.tail.start();
  await h.app.listen({ port: 0, host: '127.0.0.1' });
  base = `http://127.0.0.1:${(h.app.server.address() as { port: number }).port}`;
});
afterAll(async () => {
  for (const s of streams) s.close();
  await h?.close();
  await rx?.close();
});

let minutes = 0;
/** A change of a listing observed `gap` minutes after the last one (the clock follows). */
async function change(sku: string, over: Record<string, unknown>, gap = 1) {
  minutes += gap;
  const at = new Date(Date.parse('2026-11-20T12:00:00.000Z') + minutes * 60_000).toISOString();
  h.clock.set(at);
  const r = await h.ingest([rec({ sku, observed_at: at, ...over })]);
  expect(r.rejected).toBe(0);
  return h.c.alertEvaluator.run();
}

async function alert(headers: Record<string, string>, body: Record<string, unknown>) {
  const res = await h.app.inject({ method: 'POST', url: '/v1/alerts', headers, payload: body });
  expect(res.statusCode, res.body).toBe(201);
  return res.json() as { id: string };
}
const get = async (headers: Record<string, string>, url: string) => (await h.app.inject({ url, headers })).json();

describe('firing on ingest', () => {
  it('fires once the imported price is at or below the target: history, owner\'s stream, signed webhook; nobody else\'s', async () => {
    await change('F-1', { price: '499.00' });
    const { headers } = await h.key('pro');
    const other = (await h.key('pro')).headers;
    const sub = (await h.app.inject({ method: 'POST', url: '/v1/webhooks', headers, payload: { url: rx.url('/mine'), events: ['alert_fired'] } })).json();
    await h.app.inject({ method: 'POST', url: '/v1/webhooks', headers: other, payload: { url: rx.url('/other'), events: ['alert_fired', 'price_change'] } });
    const mine = await openSse(`${base}/v2/prices/stream`, headers);
    const theirs = await openSse(`${base}/v2/prices/stream`, other);
    streams.push(mine, theirs);
    await Promise.all([mine.next((m) => m.event === 'ready'), theirs.next((m) => m.event === 'ready')]);

    const a = await alert(headers, { product: 'F-1', condition: { type: 'price_at_or_below', target: '450.00', currency: 'SGD' } });
    expect(await change('F-1', { price: '460.00' })).toBe(0);
    expect(await change('F-1', { price: '449.10' })).toBe(1);
    // Fired without a re-arm rule: done; a later lower price fires nothing.
    expect(await change('F-1', { price: '400.00' })).toBe(0);

    const view = await get(headers, `/v1/alerts/${a.id}`);
    expect(view).toMatchObject({ status: 'fired', fire_count: 1 });
    const firings = await get(headers, `/v1/alerts/${a.id}/firings`);
    expect(firings.total).toBe(1);
    expect(firings.data[0]).toMatchObject({ alert_id: a.id, price: '449.10', currency: 'SGD', in_stock: true, fired_at: view.last_fired_at });

    const fired = await mine.next((m) => m.event === 'alert_fired');
    expect(JSON.parse(fired.data)).toMatchObject({
      alert_id: a.id, firing_id: firings.data[0].id, condition: { type: 'price_at_or_below', target: '450.00', currency: 'SGD' },
      rearms: false, trigger_event_id: firings.data[0].trigger_event_id, product: { price: '449.10', currency: 'SGD' },
    });
    // The other key's stream saw the price changes but not the alert.
    await theirs.until((all) => all.filter((m) => m.event === 'price_change').length >= 3);
    expect(theirs.messages.some((m) => m.event === 'alert_fired')).toBe(false);

    await h.c.webhookDelivery.drain();
    const alerts = rx.received.filter((r) => JSON.parse(r.body).event === 'alert_fired');
    expect(alerts.map((r) => r.path)).toEqual(['/mine']);
    expect(verify(sub.secret, alerts[0])).toMatchObject({ event: 'alert_fired', event_id: Number(fired.id), data: { alert_id: a.id } });
  });

  it('re-arms after the price rose back above the target, and fires again', async () => {
    await change('R-1', { price: '500.00' });
    const { headers } = await h.key('pro');
    const a = await alert(headers, { product: 'R-1', condition: { type: 'price_at_or_below', target: '450', currency: 'SGD' }, rearm: { after: 'price_above_target' } });
    expect(await change('R-1', { price: '440.00' })).toBe(1);
    expect((await get(headers, `/v1/alerts/${a.id}`)).status).toBe('rearming');
    expect(await change('R-1', { price: '430.00' })).toBe(0);
    expect(await change('R-1', { price: '460.00' })).toBe(0);
    expect((await get(headers, `/v1/alerts/${a.id}`)).status).toBe('armed');
    expect(await change('R-1', { price: '450.00' })).toBe(1);
    const firings = await get(headers, `/v1/alerts/${a.id}/firings`);
    expect(firings.data.map((f: { price: string }) => f.price)).toEqual(['450.00', '440.00']);
  });

  it('re-arms after a quiet period: a change meeting the condition within it fires nothing, one after it fires', async () => {
    await change('Q-1', { price: '200.00' });
    const { headers } = await h.key('pro');
    const a = await alert(headers, { product: 'Q-1', condition: { type: 'drop_percent', percent: '10' }, rearm: { quiet_period_seconds: 3600 } });
    expect(await change('Q-1', { price: '181.00' })).toBe(0); // 9.5 % off
    expect(await change('Q-1', { price: '180.00' })).toBe(1); // exactly 10 %
    expect(await change('Q-1', { price: '170.00' }, 30)).toBe(0);
    expect(await change('Q-1', { price: '175.00' }, 31)).toBe(1);
    expect((await get(headers, `/v1/alerts/${a.id}`)).fire_count).toBe(2);
  });

  it('fires back_in_stock on a change into stock only, on the products stream', async () => {
    await change('S-1', { in_stock: false, stock_level: 'out_of_stock' });
    const { headers } = await h.key('free');
    const products = await openSse(`${base}/v2/products/stream`, headers);
    streams.push(products);
    await products.next((m) => m.event === 'ready');
    const a = await alert(headers, { product: 'S-1', condition: { type: 'back_in_stock' } });
    expect(await change('S-1', { in_stock: false, price: '480.00' })).toBe(0);
    expect(await change('S-1', { in_stock: true, stock_level: 'high' })).toBe(1);
    const m = await products.next((x) => x.event === 'alert_fired');
    expect(JSON.parse(m.data)).toMatchObject({ alert_id: a.id, condition: { type: 'back_in_stock' }, product: { in_stock: true } });
  });

  it('converts the listing\'s price to the target\'s currency with the service\'s rates, exactly', async () => {
    await change('X-1', { price: '500.00' });
    const { headers } = await h.key('pro');
    const usd = (price: string) => unitsText(...(convertScaled(scaledText(price), 'SGD', 'USD', shippedRates()) as [bigint, number]));
    const target = usd('400.00');
    const below = await alert(headers, { product: 'X-1', condition: { type: 'price_at_or_below', target, currency: 'USD' } });
    const justUnder = await alert(headers, { product: 'X-1', condition: { type: 'price_at_or_below', target: usd('399.00'), currency: 'USD' } });
    expect(await change('X-1', { price: '400.00' })).toBe(1);
    expect((await get(headers, `/v1/alerts/${below.id}`)).status).toBe('fired');
    expect((await get(headers, `/v1/alerts/${justUnder.id}`)).status).toBe('armed');
  });

  it('never fires after expires_at; the alert reads expired', async () => {
    await change('E-1', { price: '300.00' });
    const { headers } = await h.key('pro');
    const expires = new Date(h.clock.now().getTime() + 10 * 60_000).toISOString();
    const a = await alert(headers, { product: 'E-1', condition: { type: 'price_at_or_below', target: '250', currency: 'SGD' }, expires_at: expires });
    expect(await change('E-1', { price: '260.00' })).toBe(0);
    expect(await change('E-1', { price: '240.00' }, 15)).toBe(0);
    expect(await get(headers, `/v1/alerts/${a.id}`)).toMatchObject({ status: 'expired', fire_count: 0 });
  });
});
