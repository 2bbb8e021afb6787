import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { CatalogEvent } from '../../src/domain/events.js';
import { decideAttempt, eventPayload, matchesFilter, retryDelayMs } from '../../src/domain/webhooks.js';
import { deliveriesFor } from '../../src/events/webhook-dispatcher.js';
import { newSecret, parseSecretKey, SecretBox, signedHeaders } from '../../src/events/webhook-secrets.js';
import type { WebhookSubscriptionRecord } from '../../src/store/types.js';

const listing = {
  id: 7, uuid: 'b33707c9-b9bf-54e4-a9ba-add292050ea9', title: 'Widget', price: '450.00', currency: 'SGD' as const, priceSgd: '450.00',
  source: 'shopee_sg', category: null, categoryPath: null, countryCode: 'SG', inStock: true, url: 'https://www.shop.example.com/w', updatedAt: 't',
};
const priceEvent = (id: number, changePct: number): CatalogEvent => ({
  id, listingId: 7, createdAt: '2026-11-20T10:00:00.000Z',
  change: { kind: 'price_change', listing, oldPrice: '500.00', newPrice: '450.00', oldPriceSgd: '500.00', changePct },
});

describe('webhook rules', () => {
  it('decides an attempt: 2xx succeeds, 410 pauses, others retry while attempts remain', () => {
    const r = () => 0;
    expect(decideAttempt({ statusCode: 204, error: null }, 1, 4, 1000, r)).toEqual({ status: 'succeeded', retryInMs: null, pause: null });
    expect(decideAttempt({ statusCode: 410, error: 'http_status' }, 1, 4, 1000, r)).toEqual({ status: 'dead', retryInMs: null, pause: 'receiver_gone' });
    expect(decideAttempt({ statusCode: 302, error: 'redirect_not_followed' }, 1, 4, 1000, r)).toEqual({ status: 'pending', retryInMs: 1000, pause: null });
    expect(decideAttempt({ statusCode: null, error: 'timeout' }, 3, 4, 1000, r)).toEqual({ status: 'pending', retryInMs: 16000, pause: null });
    expect(decideAttempt({ statusCode: 500, error: 'http_status' }, 4, 4, 1000, r)).toEqual({ status: 'dead', retryInMs: null, pause: null });
  });

  it('backs off exponentially (x4) with up to 25 % jitter', () => {
    expect([1, 2, 3].map((n) => retryDelayMs(n, 60_000, () => 0))).toEqual([60_000, 240_000, 960_000]);
    expect(retryDelayMs(1, 60_000, () => 0.999999)).toBe(75_000);
  });

  it('matches kind, product and the change threshold either way', () => {
    const f = { events: ['price_change' as const], productIds: null, minPriceChangePct: 10 };
    expect(matchesFilter(f, priceEvent(1, -10).change)).toBe(true);
    expect(matchesFilter(f, priceEvent(1, 9.99).change)).toBe(false);
    expect(matchesFilter({ ...f, productIds: ['other'] }, priceEvent(1, -50).change)).toBe(false);
    expect(matchesFilter({ ...f, events: ['stock_change'] }, priceEvent(1, -50).change)).toBe(false);
  });

  it('one payload per event, shared by the subscriptions that match; none for older events', () => {
    const sub = (over: Partial<WebhookSubscriptionRecord>): WebhookSubscriptionRecord => ({
      id: 's', accountId: 1, url: 'u', events: ['price_change'], productIds: null, minPriceChangePct: 1, status: 'active', pausedReason: null,
      secret: 'x', previousSecret: null, previousSecretUntil: null, fromEventId: 0, createdAt: 't', updatedAt: 't', ...over,
    });
    const ds = deliveriesFor([priceEvent(5, -10), priceEvent(6, -0.5)], [sub({ id: 'a' }), sub({ id: 'b', productIds: [listing.uuid] }), sub({ id: 'c', fromEventId: 5 })]);
    expect(ds.map((d) => [d.subscriptionId, d.eventId])).toEqual([['a', 5], ['b', 5]]);
    expect(ds[0].payload).toBe(ds[1].payload);
    expect(JSON.parse(eventPayload(priceEvent(5, -10))!)).toEqual({
      event: 'price_change', event_id: 5, timestamp: '2026-11-20T10:00:00.000Z',
      data: { product_id: listing.uuid, title: 'Widget', merchant: 'shop.example.com', previous_price: 500, new_price: 450, currency: 'SGD', change_pct: -10, url: listing.url },
    });
  });
});

describe('secrets and signatures', () => {
  it('signs {id}.{timestamp}.{body} with HMAC-SHA256 of the decoded secret, one signature per secret', () => {
    const key = Buffer.alloc(32, 7);
    const secret = `whsec_${key.toString('base64')}`;
    const other = newSecret();
    const at = new Date('2026-11-20T12:00:00.000Z');
    const h = signedHeaders([secret, other], 'msg_1', at, '{"a":1}');
    const expected = createHmac('sha256', key).update('msg_1.1795176000.{"a":1}').digest('base64');
    expect(h).toEqual({ 'webhook-id': 'msg_1', 'webhook-timestamp': '1795176000', 'webhook-signature': expect.stringMatching(new RegExp(`^v1,${expected.replace(/[+/]/g, '\\$&')} v1,`)) });
  });

  it('seals secrets with WEBHOOK_SECRET_KEY and opens them only with that key', () => {
    const box = new SecretBox(parseSecretKey('ab'.repeat(32)));
    const s = newSecret();
    const sealed = box.seal(s);
    expect(sealed).toMatch(/^sealed:v1:/);
    expect(box.seal(s)).not.toBe(sealed);
    expect(box.open(sealed)).toBe(s);
    expect(new SecretBox(parseSecretKey(Buffer.alloc(32, 1).toString('base64'))).open(sealed)).toBeNull();
    expect(new SecretBox(null).open(sealed)).toBeNull();
    expect(new SecretBox(null).seal(s)).toBe(s);
    expect(() => parseSecretKey('abc')).toThrow(/32 bytes/);
  });
});
