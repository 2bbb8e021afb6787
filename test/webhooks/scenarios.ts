import { Readable } from 'node:stream';
import { expect } from 'vitest';
import type { Container } from '../../src/container.js';
import { rec } from '../helpers/records.js';
import type { Receiver } from './receiver.js';

/**
 * Outbox scenarios every store must pass: run on an SQLite file (test/webhooks/outbox.test.ts) and
 * on PostgreSQL (test/scale/webhooks.test.ts). `open` makes another container on the same store
 * (another process, as far as the store can tell).
 */
export type Open = () => Promise<Container>;

export async function importLines(c: Container, lines: Array<Record<string, unknown>>): Promise<void> {
  await c.ingest.ingestStream(Readable.from([lines.map((l) => JSON.stringify(l)).join('\n')]), { now: () => c.clock.now() });
}

/** n listings, then a price move of each: n price_change events. */
export async function priceMoves(c: Container, n: number, tag: string): Promise<void> {
  const listing = (i: number, price: string, minute: number) =>
    rec({ sku: `${tag}-${i}`, price, observed_at: new Date(Date.parse('2026-11-20T10:00:00.000Z') + minute * 60_000).toISOString() });
  await importLines(c, Array.from({ length: n }, (_, i) => listing(i, '100.00', 0)));
  await importLines(c, Array.from({ length: n }, (_, i) => listing(i, '80.00', 1)));
}

export async function subscribe(c: Container, rx: Receiver): Promise<string> {
  const key = await c.keys.create({ tier: 'pro', name: 'outbox' });
  const r = await c.webhooks.create(key.record.accountId ?? key.record.id, { url: rx.url(), events: ['price_change'] });
  if (!r.ok) throw new Error(`subscription refused: ${JSON.stringify(r)}`);
  return r.value.subscription.id;
}

const ids = (rx: Receiver) => rx.received.map((r) => String(r.headers['webhook-id']));

/** Two dispatchers and workers on one store, draining at once: every event reaches the receiver once. */
export async function twoInstancesDeliverOnce(open: Open, rx: Receiver, n: number): Promise<void> {
  const a = await open();
  const b = await open();
  try {
    await subscribe(a, rx);
    await priceMoves(a, n, 'two');
    await Promise.all([a.webhookDelivery.drain(), b.webhookDelivery.drain(), a.webhookDelivery.drain(), b.webhookDelivery.drain()]);
    const got = ids(rx);
    expect(got).toHaveLength(n);
    expect(new Set(got).size).toBe(n);
    expect(new Set(rx.payloads().map((p) => p.event_id)).size).toBe(n);
  } finally {
    await a.close();
    await b.close();
  }
}

/**
 * A server dies with deliveries pending: some sent and recorded, some claimed and never recorded
 * (killed mid-attempt), the rest queued. A new server on the same store delivers every one that
 * was not recorded, once the dead one's leases end, and none that was.
 */
export async function restartLosesNothing(open: Open, rx: Receiver, n: number, leaseEnd: (c: Container) => void): Promise<void> {
  const a = await open();
  await subscribe(a, rx);
  await priceMoves(a, n, 'restart');
  await a.webhookDelivery.dispatcher.dispatch();
  // A worker of the dying server claims a third and is killed before it records anything.
  const now = a.clock.now();
  const lost = await a.store.webhooks.claim('killed-worker', new Date(now.getTime() + 40_000).toISOString(), now.toISOString(), Math.floor(n / 3), []);
  // Another third is sent and recorded before the end.
  const sent = await a.store.webhooks.claim(a.webhookDelivery.worker.owner, new Date(now.getTime() + 40_000).toISOString(), now.toISOString(), Math.floor(n / 3), []);
  for (const c of sent) await a.webhookDelivery.worker.attempt(c, a.webhookDelivery.worker.owner);
  const recorded = new Set(ids(rx));
  expect(recorded.size).toBe(sent.length);
  await a.close();

  const b = await open();
  try {
    await b.webhookDelivery.drain();
    // The killed worker's deliveries wait for its lease: not yet sent.
    expect(ids(rx).filter((id) => lost.some((l) => l.delivery.id === id))).toEqual([]);
    leaseEnd(b);
    await b.webhookDelivery.drain();
    const got = ids(rx);
    expect(new Set(got).size).toBe(n);
    expect(got).toHaveLength(n);
    const all = await b.store.webhooks.deliveries(lost[0].subscription.id, { limit: 100, offset: 0 });
    expect(all.items.every((d) => d.status === 'succeeded')).toBe(true);
    expect(all.total).toBe(n);
  } finally {
    await b.close();
  }
}
