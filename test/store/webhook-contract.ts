import { randomUUID } from 'node:crypto';
import { beforeEach, describe, expect, it } from 'vitest';
import type { Tier } from '../../src/domain/tier.js';
import type { NewDelivery, Store, WebhookSubscriptionRecord } from '../../src/store/types.js';
import { ingest } from './contract.js';
import { rec } from '../helpers/records.js';
import { freshStore } from './fresh-store.js';

const T0 = '2026-11-20T12:00:00.000Z';
const at = (s: number) => new Date(Date.parse(T0) + s * 1000).toISOString();
const TIERS: Tier[] = ['pro', 'enterprise'];

/** The webhook part of the store contract: subscriptions, the outbox position, claims and leases. */
export function webhookStoreContract(name: string, makeStore: () => Promise<Store>): void {
  describe(`webhook store contract: ${name}`, () => {
    const fresh = freshStore(makeStore);
    let store: Store;
    let account = 0;
    beforeEach(async () => {
      store = fresh();
      account = (await store.keys.create({ prefix: 'ck_w', hash: `h-${randomUUID()}`, name: null, tier: 'pro', pendingTier: null, pendingTierAt: null, email: null, verified: true }, T0)).id;
    });

    const sub = (over: Partial<WebhookSubscriptionRecord> = {}): WebhookSubscriptionRecord => ({
      id: randomUUID(), accountId: account, url: 'https://hooks.example.com/x', events: ['price_change'], productIds: null,
      minPriceChangePct: 1, status: 'active', pausedReason: null, secret: 'whsec_x', previousSecret: null, previousSecretUntil: null,
      fromEventId: 0, createdAt: T0, updatedAt: T0, ...over,
    });
    const delivery = (subscriptionId: string, eventId: number | null, over: Partial<NewDelivery> = {}): NewDelivery => ({
      id: `msg_${randomUUID().replace(/-/g, '')}`, subscriptionId, eventId, kind: 'price_change', payload: `{"e":${eventId}}`, maxAttempts: 4, ...over,
    });
    const ok = { durationMs: 5, statusCode: 200, error: null, excerpt: 'ok' };

    it('subscriptions: at most the maximum per account, scoped to the account, patched and deleted', async () => {
      const a = sub({ productIds: ['p1', 'p2'], events: ['price_change', 'stock_change'], minPriceChangePct: 2.5 });
      expect(await store.webhooks.createSubscription(a, 2)).toBe(true);
      expect(await store.webhooks.createSubscription(sub(), 2)).toBe(true);
      expect(await store.webhooks.createSubscription(sub(), 2)).toBe(false);
      expect(await store.webhooks.createSubscription(sub({ accountId: account + 100 }), 2)).toBe(true);
      expect(await store.webhooks.subscription(account, a.id)).toEqual(a);
      expect(await store.webhooks.subscription(account + 100, a.id)).toBeNull();
      expect((await store.webhooks.subscriptions(account)).map((s) => s.id)).toContain(a.id);
      const patched = await store.webhooks.updateSubscription(account, a.id, { productIds: null, status: 'paused', pausedReason: 'paused_by_owner', url: 'https://x.example.com/' }, at(5));
      expect(patched).toMatchObject({ productIds: null, status: 'paused', pausedReason: 'paused_by_owner', url: 'https://x.example.com/', updatedAt: at(5), events: ['price_change', 'stock_change'] });
      expect(await store.webhooks.updateSubscription(account + 100, a.id, { status: 'active' }, at(6))).toBeNull();
      expect(await store.webhooks.deleteSubscription(account + 100, a.id)).toBe(false);
      expect(await store.webhooks.deleteSubscription(account, a.id)).toBe(true);
      expect(await store.webhooks.subscription(account, a.id)).toBeNull();
    });

    it('concurrent creations never pass the maximum', async () => {
      const results = await Promise.all(Array.from({ length: 12 }, () => store.webhooks.createSubscription(sub(), 5)));
      expect(results.filter(Boolean)).toHaveLength(5);
      expect(await store.webhooks.subscriptions(account)).toHaveLength(5);
    });

    it('active subscriptions: only active ones of accounts with an active key of a webhook tier', async () => {
      const free = (await store.keys.create({ prefix: 'ck_f', hash: `h-${randomUUID()}`, name: null, tier: 'free', pendingTier: null, pendingTierAt: null, email: null, verified: true }, T0)).id;
      const a = sub();
      await store.webhooks.createSubscription(a, 25);
      await store.webhooks.createSubscription(sub({ status: 'paused' }), 25);
      await store.webhooks.createSubscription(sub({ accountId: free }), 25);
      expect((await store.webhooks.activeSubscriptions(TIERS)).map((s) => s.id)).toEqual([a.id]);
      await store.keys.update(account, { tier: 'basic' });
      expect(await store.webhooks.activeSubscriptions(TIERS)).toEqual([]);
    });

    it('the dispatch position moves only from where it is; an event is queued once per subscription', async () => {
      await ingest(store, [rec({ sku: 'E1' })]);
      const head = await store.events.lastId();
      expect(await store.webhooks.dispatchPosition()).toBe(0);
      const s = sub();
      await store.webhooks.createSubscription(s, 25);
      expect(await store.webhooks.enqueue(0, head, [delivery(s.id, head)], T0)).toBe(true);
      expect(await store.webhooks.enqueue(0, head, [delivery(s.id, head)], T0)).toBe(false);
      expect(await store.webhooks.dispatchPosition()).toBe(head);
      // The same event for the same subscription again (another dispatcher's copy): skipped.
      expect(await store.webhooks.enqueue(head, head + 1, [delivery(s.id, head), delivery(s.id, head + 1)], T0)).toBe(true);
      expect((await store.webhooks.deliveries(s.id, { limit: 10, offset: 0 })).total).toBe(2);
    });

    it('claims: due deliveries of active subscriptions, oldest first, each to one owner until its lease ends', async () => {
      const s = sub();
      const paused = sub({ status: 'paused' });
      const other = sub();
      for (const x of [s, paused, other]) await store.webhooks.createSubscription(x, 25);
      const ds = [1, 2, 3].map((e) => delivery(s.id, e));
      await store.webhooks.enqueue(0, 3, [...ds, delivery(paused.id, 1), delivery(other.id, 1)], T0);
      const first = await store.webhooks.claim('a', at(30), T0, 2, [other.id]);
      expect(first.map((c) => c.delivery.id)).toEqual([ds[0].id, ds[1].id]);
      expect(first[0].subscription).toEqual(s);
      const second = await store.webhooks.claim('b', at(30), T0, 10, []);
      expect(second.map((c) => c.delivery.subscriptionId).sort()).toEqual([other.id, s.id].sort());
      expect(await store.webhooks.claim('c', at(30), T0, 10, [])).toEqual([]);
      // a's lease ends: its deliveries can be claimed again.
      const later = await store.webhooks.claim('c', at(60), at(30), 10, []);
      expect(later.map((c) => c.delivery.id).sort()).toEqual([ds[0].id, ds[1].id, ...second.map((c) => c.delivery.id)].sort());
      expect(await store.webhooks.record(ds[0].id, 'a', { startedAt: at(31), ...ok }, { status: 'succeeded', nextAttemptAt: null, pause: null }, at(31))).toBe(false);
      expect(await store.webhooks.record(ds[0].id, 'c', { startedAt: at(31), ...ok }, { status: 'succeeded', nextAttemptAt: null, pause: null }, at(31))).toBe(true);
      expect(await store.webhooks.release('c')).toBe(3);
      expect((await store.webhooks.claim('d', at(90), at(31), 10, [])).map((c) => c.delivery.id)).not.toContain(ds[0].id);
    });

    it('concurrent claims by many owners never take one delivery twice', async () => {
      const s = sub();
      await store.webhooks.createSubscription(s, 25);
      const ds = Array.from({ length: 60 }, (_, i) => delivery(s.id, i + 1));
      await store.webhooks.enqueue(0, 60, ds, T0);
      const claims = await Promise.all(Array.from({ length: 12 }, (_, i) => store.webhooks.claim(`o${i}`, at(30), T0, 7, [])));
      const ids = claims.flat().map((c) => c.delivery.id);
      expect(new Set(ids).size).toBe(ids.length);
      expect(ids.length).toBe(60);
    });

    it('record: the attempt, the outcome, the pause; retry and prune', async () => {
      const s = sub();
      await store.webhooks.createSubscription(s, 25);
      const d = delivery(s.id, 7);
      await store.webhooks.enqueue(0, 7, [d], T0);
      await store.webhooks.claim('w', at(30), T0, 1, []);
      expect(await store.webhooks.record(d.id, 'w', { startedAt: T0, durationMs: 12, statusCode: 500, error: 'http_status: answered 500', excerpt: 'no' },
        { status: 'pending', nextAttemptAt: at(60), pause: null }, at(1))).toBe(true);
      expect(await store.webhooks.claim('w', at(90), at(59), 1, [])).toEqual([]);
      const [again] = await store.webhooks.claim('w', at(120), at(60), 1, []);
      expect(again.delivery).toMatchObject({ attempts: 1, nextAttemptAt: at(60), lastStatusCode: 500, status: 'pending' });
      await store.webhooks.record(d.id, 'w', { startedAt: at(60), durationMs: 3, statusCode: 410, error: 'http_status: answered 410', excerpt: null },
        { status: 'dead', nextAttemptAt: null, pause: 'receiver_gone' }, at(61));
      expect(await store.webhooks.subscription(account, s.id)).toMatchObject({ status: 'paused', pausedReason: 'receiver_gone', updatedAt: at(61) });
      expect((await store.webhooks.attempts([d.id])).map((a) => [a.attempt, a.statusCode, a.durationMs])).toEqual([[1, 500, 12], [2, 410, 3]]);
      expect(await store.webhooks.delivery(s.id, d.id)).toMatchObject({ status: 'dead', attempts: 2, maxAttempts: 4 });
      expect((await store.webhooks.deliveries(s.id, { status: 'dead', limit: 5, offset: 0 })).total).toBe(1);
      expect((await store.webhooks.deliveries(s.id, { status: 'pending', limit: 5, offset: 0 })).total).toBe(0);
      const retried = await store.webhooks.retry(s.id, d.id, at(100));
      expect(retried).toMatchObject({ status: 'pending', attempts: 2, maxAttempts: 3, nextAttemptAt: at(100) });
      expect(await store.webhooks.retry(s.id, d.id, at(100))).toBeNull();
      expect(await store.webhooks.retry('other', d.id, at(100))).toBeNull();
      expect(await store.webhooks.prune(at(1000))).toBe(0);
      const test = await store.webhooks.insertLeased(delivery(s.id, null, { kind: 'test', maxAttempts: 1 }), { owner: 't', until: at(200) }, at(100));
      expect(test).toMatchObject({ status: 'pending', eventId: null, kind: 'test' });
      await store.webhooks.record(test.id, 't', { startedAt: at(100), ...ok }, { status: 'succeeded', nextAttemptAt: null, pause: null }, at(100));
      expect(await store.webhooks.prune(at(101))).toBe(1);
      expect(await store.webhooks.attempts([test.id])).toEqual([]);
      expect(await store.webhooks.deleteSubscription(account, s.id)).toBe(true);
      expect(await store.webhooks.delivery(s.id, d.id)).toBeNull();
    });
  });
}
