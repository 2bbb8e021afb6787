import { alertFiredData } from './alerts.js';
import type { CatalogChange, CatalogEvent } from './events.js';
import { domainOf } from './listing-columns.js';
import { withFields } from './with-fields.js';

/**
 * Webhook rules that need no I/O: which events a subscription receives, the payload each one is
 * sent as (spec 6.2), and what an attempt's answer means for its delivery (retry, dead letter,
 * pause). docs/realtime.md, "Webhooks", is the reader's version of this file.
 */

export type WebhookEventKind = 'price_change' | 'stock_change' | 'alert_fired';
export const WEBHOOK_EVENT_KINDS: readonly WebhookEventKind[] = ['price_change', 'stock_change', 'alert_fired'];

export type WebhookStatus = 'active' | 'paused';
export type DeliveryStatus = 'pending' | 'succeeded' | 'dead';
export const DELIVERY_STATUSES: readonly DeliveryStatus[] = ['pending', 'succeeded', 'dead'];

/** The documented maximum of subscriptions per account (spec 8 leaves it open). */
export const MAX_SUBSCRIPTIONS_PER_ACCOUNT = 25;
/** One attempt and up to 3 retries (spec 6.2, 8.1). */
export const MAX_ATTEMPTS = 4;
/** Each retry waits this many times longer than the one before (before jitter). */
export const BACKOFF_FACTOR = 4;
/** Jitter adds up to this share of the wait, so retries of many deliveries spread out. */
export const BACKOFF_JITTER = 0.25;
/** The default of filters.min_price_change_pct (spec 2.8). */
export const DEFAULT_MIN_PRICE_CHANGE_PCT = 1;
/** Why a subscription paused itself: its receiver answered 410 Gone. */
export const PAUSED_GONE = 'receiver_gone';
export const PAUSED_BY_OWNER = 'paused_by_owner';

/** What a subscription asks for. */
export interface WebhookFilter {
  events: readonly WebhookEventKind[];
  /** Listing UUIDs; null: every product. */
  productIds: readonly string[] | null;
  minPriceChangePct: number;
}

/** Whether the change is one the subscription receives (spec 6.2: kind, product_ids, min_price_change_pct). */
export function matchesFilter(f: WebhookFilter, change: CatalogChange): boolean {
  if (change.kind === 'product_update' || !f.events.includes(change.kind)) return false;
  // An alert names its product itself; whose it is, the dispatcher checks (deliveriesFor).
  if (change.kind === 'alert_fired') return true;
  if (f.productIds && !f.productIds.includes(change.listing.uuid)) return false;
  if (change.kind === 'price_change') return Math.abs(change.changePct) >= f.minPriceChangePct;
  return true;
}

const num = (decimal: string): number => Number(decimal);

/**
 * The body of a delivery (spec 6.2), fixed when the delivery is queued so every attempt sends the
 * same bytes. `timestamp` is when the change was observed; `event_id` is the event log's id (the
 * `id:` of the streams), for ordering and de-duplication. Null for kinds webhooks do not send.
 */
export function eventPayload(e: CatalogEvent): string | null {
  const c = e.change;
  if (c.kind === 'product_update') return null;
  const l = c.listing;
  const head = { product_id: l.uuid, title: l.title, merchant: domainOf(l.url) ?? l.source };
  if (c.kind === 'price_change') {
    return JSON.stringify({
      event: 'price_change', event_id: e.id, timestamp: e.createdAt,
      data: withFields(head, { previous_price: num(c.oldPrice), new_price: num(c.newPrice), currency: l.currency, change_pct: c.changePct, url: l.url }),
    });
  }
  if (c.kind === 'alert_fired') return JSON.stringify({ event: 'alert_fired', event_id: e.id, timestamp: e.createdAt, data: alertFiredData(c) });
  return JSON.stringify({
    event: 'stock_change', event_id: e.id, timestamp: e.createdAt,
    data: withFields(head, {
      previous_in_stock: c.oldInStock, in_stock: c.newInStock, previous_stock_level: c.oldStockLevel, stock_level: c.newStockLevel,
      price: num(l.price), currency: l.currency, url: l.url,
    }),
  });
}

/** The body of `POST /v1/webhooks/{id}/test`: kind `test`, so a receiver can tell it from real changes. */
export function testPayload(subscriptionId: string, at: string): string {
  return JSON.stringify({
    event: 'test', event_id: null, timestamp: at,
    data: { subscription_id: subscriptionId, message: 'A test delivery from the catalog service; the signature is real.' },
  });
}

/** How an attempt ended, as the sender saw it. */
export interface AttemptResult {
  statusCode: number | null;
  /** Null when the receiver answered 2xx; else a short code (timeout, connection_closed, redirect_not_followed, http_status, ...). */
  error: string | null;
}

export interface AttemptDecision {
  status: DeliveryStatus;
  /** Milliseconds until the next attempt, when one is due. */
  retryInMs: number | null;
  /** Pause the subscription, with this reason. */
  pause: string | null;
}

/**
 * What an attempt means: 2xx is success; 410 Gone ends the delivery and pauses the subscription;
 * anything else (another status, a redirect, a timeout, a closed connection, a refused address) is
 * retried while attempts remain, then the delivery is dead-lettered.
 */
export function decideAttempt(r: AttemptResult, attempt: number, maxAttempts: number, retryBaseMs: number, random: () => number): AttemptDecision {
  if (r.error === null && r.statusCode !== null && r.statusCode >= 200 && r.statusCode < 300) return { status: 'succeeded', retryInMs: null, pause: null };
  if (r.statusCode === 410) return { status: 'dead', retryInMs: null, pause: PAUSED_GONE };
  if (attempt >= maxAttempts) return { status: 'dead', retryInMs: null, pause: null };
  return { status: 'pending', retryInMs: retryDelayMs(attempt, retryBaseMs, random), pause: null };
}

/** The wait after failed attempt `attempt` (1-based): base, 4 x base, 16 x base, each plus up to 25 % jitter. */
export function retryDelayMs(attempt: number, baseMs: number, random: () => number): number {
  const wait = baseMs * BACKOFF_FACTOR ** (attempt - 1);
  return Math.round(wait * (1 + BACKOFF_JITTER * random()));
}
