import { randomUUID } from 'node:crypto';
import { beforeEach, describe, expect, it } from 'vitest';
import { shippedRates } from '../../src/catalog/fx-service.js';
import { evaluate, type AlertRecord } from '../../src/domain/alerts.js';
import type { Store } from '../../src/store/types.js';
import { rec } from '../helpers/records.js';
import { freshStore } from './fresh-store.js';
import { ingest } from './contract.js';

const T0 = '2026-11-20T12:00:00.000Z';

/** The alert part of the store contract: scoping, the active limit, the pending lookup, and apply's position check. */
export function alertStoreContract(name: string, makeStore: () => Promise<Store>): void {
  describe(`alert store contract: ${name}`, () => {
    const fresh = freshStore(makeStore);
    let store: Store;
    beforeEach(async () => {
      store = fresh();
      await ingest(store, [rec({ sku: 'A' }), rec({ sku: 'B' })]);
    });

    const alert = (over: Partial<AlertRecord> = {}): AlertRecord => ({
      id: randomUUID(), accountId: 1, listingId: 1, condition: { type: 'price_at_or_below', target: '450.00', currency: 'SGD' },
      rearm: null, expiresAt: null, state: 'armed', fireCount: 0, lastFiredAt: null, fromEventId: 0, createdAt: T0, updatedAt: T0, ...over,
    });

    it('creates up to the active limit; fired and expired alerts do not count; reads are scoped to the account', async () => {
      expect(await store.alerts.create(alert({ state: 'fired' }), 2, T0)).toBe(true);
      expect(await store.alerts.create(alert({ expiresAt: '2026-11-20T11:00:00.000Z' }), 2, T0)).toBe(true);
      const a = alert({ rearm: { quietPeriodSeconds: 600 }, condition: { type: 'drop_percent', percent: '12.5', basePrice: '499.00', baseCurrency: 'SGD' } });
      expect(await store.alerts.create(a, 2, T0)).toBe(true);
      expect(await store.alerts.create(alert({ rearm: { after: 'price_above_target' } }), 2, T0)).toBe(true);
      expect(await store.alerts.create(alert(), 2, T0)).toBe(false);
      expect(await store.alerts.create(alert({ accountId: 2 }), 2, T0)).toBe(true);
      expect(await store.alerts.activeCount(1, T0)).toBe(2);
      expect(await store.alerts.get(1, a.id)).toEqual(a);
      expect(await store.alerts.get(2, a.id)).toBeNull();
      const page = await store.alerts.list(1, { limit: 10, offset: 0 });
      expect(page.total).toBe(4);
      expect(await store.alerts.firings(2, a.id, { limit: 10, offset: 0 })).toBeNull();
      expect(await store.alerts.delete(2, a.id)).toBe(false);
      expect(await store.alerts.delete(1, a.id)).toBe(true);
      expect(await store.alerts.get(1, a.id)).toBeNull();
    });

    it('finds the pending alerts of given listings only (not fired, not expired)', async () => {
      const armed = alert();
      const other = alert({ listingId: 2, state: 'rearming', rearm: { after: 'price_above_target' } });
      await store.alerts.create(armed, 10, T0);
      await store.alerts.create(other, 10, T0);
      await store.alerts.create(alert({ state: 'fired' }), 10, T0);
      await store.alerts.create(alert({ expiresAt: '2026-11-20T11:00:00.000Z' }), 10, T0);
      expect((await store.alerts.pendingFor([1], T0)).map((x) => x.id)).toEqual([armed.id]);
      expect((await store.alerts.pendingFor([1, 2, 99], T0)).map((x) => x.id).sort()).toEqual([armed.id, other.id].sort());
      expect(await store.alerts.pendingFor([], T0)).toEqual([]);
    });

    it('apply writes firings, their alert_fired events and new states once, only from the position it read', async () => {
      const a = alert({ rearm: { after: 'price_above_target' } });
      await store.alerts.create(a, 10, T0);
      const from = await store.alerts.evaluationPosition();
      await ingest(store, [rec({ sku: 'A', price: '440.00', observed_at: '2026-11-20T13:00:00.000Z' })]);
      const changes = await store.events.readAfter(from, 100, ['price_change']);
      expect(changes).toHaveLength(1);
      const ev = evaluate(changes, new Map([[1, await store.alerts.pendingFor([1], T0)]]), shippedRates(), randomUUID);
      expect(ev.firings).toHaveLength(1);
      const to = await store.events.lastId();
      expect(await store.alerts.apply(from + 1, to, ev, T0)).toBe(false);
      expect(await store.alerts.apply(from, to, ev, T0)).toBe(true);
      expect(await store.alerts.apply(from, to, ev, T0)).toBe(false);
      expect(await store.alerts.evaluationPosition()).toBe(to);
      const fired = await store.events.readAfter(to, 10);
      expect(fired.map((e) => [e.change.kind, e.listingId])).toEqual([['alert_fired', 1]]);
      expect(fired[0].change).toMatchObject({ alertId: a.id, accountId: 1, firingId: ev.firings[0].firing.id, triggerEventId: changes[0].id, listing: { price: '440.00' } });
      expect(await store.alerts.get(1, a.id)).toMatchObject({ state: 'rearming', fireCount: 1, lastFiredAt: '2026-11-20T13:00:00.000Z' });
      const firings = await store.alerts.firings(1, a.id, { limit: 10, offset: 0 });
      expect(firings).toEqual({ total: 1, items: [ev.firings[0].firing] });
      // Deleting the alert deletes its history.
      await store.alerts.delete(1, a.id);
      expect(await store.alerts.firings(1, a.id, { limit: 10, offset: 0 })).toBeNull();
    });
  });
}
