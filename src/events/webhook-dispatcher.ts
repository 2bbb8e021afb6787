import { randomUUID } from 'node:crypto';
import type { CatalogEvent } from '../domain/events.js';
import type { Tier } from '../domain/tier.js';
import { eventPayload, matchesFilter, MAX_ATTEMPTS } from '../domain/webhooks.js';
import type { EventLogStore, NewDelivery, WebhookStore, WebhookSubscriptionRecord } from '../store/types.js';
import { CoalescedPasses } from './coalesced.js';

/** Events read per pass: one transaction queues the deliveries of this many. */
const BATCH = 1000;
/** The tiers whose subscriptions receive deliveries: an account downgraded below them goes quiet (its subscriptions stay). */
export const WEBHOOK_TIERS: readonly Tier[] = ['pro', 'enterprise'];

export const newDeliveryId = () => `msg_${randomUUID().replace(/-/g, '')}`;

/** The deliveries of a batch of events for the subscriptions that match them. */
export function deliveriesFor(events: readonly CatalogEvent[], subs: readonly WebhookSubscriptionRecord[]): NewDelivery[] {
  if (!subs.length) return [];
  // Subscriptions to given products are found by product; the others see every event.
  const byProduct = new Map<string, WebhookSubscriptionRecord[]>();
  const everyProduct: WebhookSubscriptionRecord[] = [];
  // An alert's firing goes to its owner's subscriptions only, whatever products they name.
  const byAccount = new Map<number, WebhookSubscriptionRecord[]>();
  for (const s of subs) {
    byAccount.set(s.accountId, [...(byAccount.get(s.accountId) ?? []), s]);
    if (!s.productIds) everyProduct.push(s);
    else for (const p of s.productIds) byProduct.set(p, [...(byProduct.get(p) ?? []), s]);
  }
  const out: NewDelivery[] = [];
  for (const e of events) {
    if (e.change.kind === 'product_update') continue;
    let payload: string | null | undefined;
    const candidates = e.change.kind === 'alert_fired'
      ? (byAccount.get(e.change.accountId) ?? [])
      : [...everyProduct, ...(byProduct.get(e.change.listing.uuid) ?? [])];
    for (const s of candidates) {
      if (e.id <= s.fromEventId || !matchesFilter(s, e.change)) continue;
      payload ??= eventPayload(e);
      if (payload === null) break;
      out.push({ id: newDeliveryId(), subscriptionId: s.id, eventId: e.id, kind: e.change.kind, payload, maxAttempts: MAX_ATTEMPTS });
    }
  }
  return out;
}

/**
 * Turns the event log into deliveries: from the position the store keeps (so a restart resumes
 * where the last pass ended, losing and repeating nothing), a batch of events is matched against
 * the active subscriptions and its deliveries are queued in the transaction that moves the
 * position. Every instance may run one: a pass that finds the position moved by another queues
 * nothing and reads again from the new position. Events come from any writer (a server, a
 * `catalog import` beside it): the event tail only says when to look.
 */
export class WebhookDispatcher {
  private readonly passes = new CoalescedPasses(() => this.pass());

  constructor(private readonly store: WebhookStore, private readonly log: EventLogStore, private readonly now: () => Date) {}

  /** Queues the deliveries of every event not yet dispatched; resolves to how many were queued. Concurrent calls share one pass (and one more after it). */
  dispatch(): Promise<number> {
    return this.passes.run();
  }

  private async pass(): Promise<number> {
    let queued = 0;
    for (;;) {
      const from = await this.store.dispatchPosition();
      const events = await this.log.readAfter(from, BATCH);
      if (!events.length) return queued;
      const subs = await this.store.activeSubscriptions(WEBHOOK_TIERS);
      const deliveries = deliveriesFor(events, subs);
      if (!(await this.store.enqueue(from, events[events.length - 1].id, deliveries, this.now().toISOString()))) {
        // Another dispatcher moved the position first (it queued these): read on from where it is.
        // Not moved: the store was busy (a long write elsewhere); the next tick tries again.
        if ((await this.store.dispatchPosition()) === from) return queued;
        continue;
      }
      queued += deliveries.length;
      if (events.length < BATCH) return queued;
    }
  }
}
