import Big from 'big.js';
import type { Currency } from './currencies.js';
import type { AlertCondition } from './alert-condition.js';

export type { AlertCondition, ConditionType } from './alert-condition.js';
export { CONDITION_TYPES } from './alert-condition.js';
import type { AlertFired, CatalogEvent, ListingSnapshot } from './events.js';
import { conditionJson } from './event-codec.js';
import { convertScaled, type RateTable } from './fx.js';
import { compareScaled, scaledText, type Scaled } from './money.js';
import { withFields } from './with-fields.js';

/**
 * Price and stock alerts: what a condition means, when a fired alert arms again, and what one
 * change of a listing does to the alerts on it. No I/O; docs/alerts.md is the reader's version.
 */

/** When a fired alert fires again: never (null), once the price was back above the target, or after a quiet period. */
export type RearmRule = { after: 'price_above_target' } | { quietPeriodSeconds: number } | null;

/** armed: waits for its condition; rearming: fired, waits for its re-arm rule; fired: fired and done. */
export type AlertState = 'armed' | 'rearming' | 'fired';

export interface AlertRecord {
  /** A UUID. */
  id: string;
  /** The account (first key of a rotation chain): alerts survive key rotation. */
  accountId: number;
  listingId: number;
  condition: AlertCondition;
  rearm: RearmRule;
  expiresAt: string | null;
  state: AlertState;
  fireCount: number;
  lastFiredAt: string | null;
  /** The event log's last id when the alert was set: only later changes are evaluated. */
  fromEventId: number;
  createdAt: string;
  updatedAt: string;
}

/** A firing as the history keeps it. */
export interface AlertFiring {
  /** A UUID, also in the alert_fired event. */
  id: string;
  alertId: string;
  accountId: number;
  listingId: number;
  /** The event log id of the change that fired it. */
  triggerEventId: number;
  /** The listing's price and stock after that change. */
  price: string;
  currency: Currency;
  inStock: boolean | null;
  /** When the change happened (the change event's time). */
  firedAt: string;
}

/** The most alerts a tier may have active (armed or waiting to re-arm, not expired): accounts/tiers.ts. */
export type AlertLimits = Readonly<Record<string, number>>;

/** The shortest quiet period: a listing changing every few seconds must not turn an alert into a stream. */
export const MIN_QUIET_PERIOD_SECONDS = 60;
export const MAX_QUIET_PERIOD_SECONDS = 365 * 24 * 3600;

/** Whether the alert has expired at `at` (ISO). */
export const expiredAt = (a: Pick<AlertRecord, 'expiresAt'>, at: string): boolean => a.expiresAt !== null && a.expiresAt <= at;

/** The status an owner sees: the stored state, or expired once past expires_at (unless it fired for good before). */
export function alertStatus(a: AlertRecord, now: string): AlertState | 'expired' {
  return a.state !== 'fired' && expiredAt(a, now) ? 'expired' : a.state;
}

/** Counts against the tier limit: armed or re-arming, not expired. */
export const isActive = (a: AlertRecord, now: string): boolean => a.state !== 'fired' && !expiredAt(a, now);

/** The price the condition compares against, in the condition's currency (null: no price condition, or no rate). */
function priceIn(l: ListingSnapshot, currency: Currency, rates: RateTable): Scaled | null {
  try {
    return convertScaled(scaledText(l.price), l.currency, currency, rates);
  } catch {
    return null; // a currency the rate table lacks: the condition cannot hold
  }
}

/** The threshold of a drop: base x (100 - percent) / 100, exact. */
export function dropThreshold(c: Extract<AlertCondition, { type: 'drop_percent' }>): string {
  return new Big(c.basePrice).times(new Big(100).minus(c.percent)).div(100).toFixed();
}

/** Whether a price condition holds for the listing as the change left it; null when it cannot be told (no rate). */
function priceHolds(c: AlertCondition, l: ListingSnapshot, rates: RateTable): boolean | null {
  if (c.type === 'price_at_or_below') {
    const p = priceIn(l, c.currency, rates);
    return p === null ? null : compareScaled(p, scaledText(c.target)) <= 0;
  }
  if (c.type === 'drop_percent') {
    const p = priceIn(l, c.baseCurrency, rates);
    return p === null ? null : compareScaled(p, scaledText(dropThreshold(c))) <= 0;
  }
  return null;
}

/** What evaluating one change did to one alert. */
export interface Step {
  fired: boolean;
  state: AlertState;
  lastFiredAt: string | null;
}

/**
 * One change (a price_change or stock_change event) applied to one alert in `a.state`. A price
 * condition is tested on price changes, back_in_stock on a stock change into stock. A fired alert
 * without a re-arm rule is done; with `price_above_target` it arms again on a price change that
 * leaves the condition false (that change itself never fires); with a quiet period it fires again
 * on a change that meets the condition once the period since the last firing has passed.
 */
export function step(a: AlertRecord, e: CatalogEvent, rates: RateTable): Step {
  const keep: Step = { fired: false, state: a.state, lastFiredAt: a.lastFiredAt };
  const c = e.change;
  if (a.state === 'fired' || e.id <= a.fromEventId || expiredAt(a, e.createdAt)) return keep;
  let holds: boolean | null = null;
  if (a.condition.type === 'back_in_stock') {
    if (c.kind === 'stock_change') holds = c.newInStock === true && c.oldInStock !== true;
  } else if (c.kind === 'price_change') {
    holds = priceHolds(a.condition, c.listing, rates);
  }
  if (holds === null) return keep;
  let armed = a.state === 'armed';
  if (!armed && a.rearm && 'quietPeriodSeconds' in a.rearm) {
    armed = a.lastFiredAt === null || Date.parse(e.createdAt) - Date.parse(a.lastFiredAt) >= a.rearm.quietPeriodSeconds * 1000;
  }
  if (!armed) {
    // Re-arming by price: the price is back above the target.
    if (a.rearm && 'after' in a.rearm && c.kind === 'price_change' && !holds) return withFields(keep, { state: 'armed' });
    return keep;
  }
  if (!holds) return a.state === 'armed' ? keep : withFields(keep, { state: 'armed' });
  return { fired: true, state: a.rearm ? 'rearming' : 'fired', lastFiredAt: e.createdAt };
}

/** What a batch of changes did: firings to append (with their events) and the alerts whose state changed. */
export interface Evaluation {
  firings: Array<{ firing: AlertFiring; event: AlertFired }>;
  updates: Array<Pick<AlertRecord, 'id' | 'state' | 'lastFiredAt' | 'fireCount'>>;
}

/**
 * A batch of events (oldest first) against the alerts on their listings (`byListing`), in order:
 * an alert that fires on one change is in its new state for the next. `newId` names firings.
 */
export function evaluate(events: readonly CatalogEvent[], byListing: ReadonlyMap<number, AlertRecord[]>, rates: RateTable, newId: () => string): Evaluation {
  const firings: Evaluation['firings'] = [];
  const changed = new Map<string, AlertRecord>();
  for (const e of events) {
    if (e.change.kind !== 'price_change' && e.change.kind !== 'stock_change') continue;
    const alerts = byListing.get(e.listingId);
    if (!alerts) continue;
    for (let i = 0; i < alerts.length; i++) {
      const a = changed.get(alerts[i].id) ?? alerts[i];
      const s = step(a, e, rates);
      if (!s.fired && s.state === a.state) continue;
      const next: AlertRecord = withFields(a, { state: s.state, lastFiredAt: s.lastFiredAt, fireCount: a.fireCount + (s.fired ? 1 : 0) });
      changed.set(a.id, next);
      if (!s.fired) continue;
      const l = e.change.listing;
      const firing: AlertFiring = {
        id: newId(), alertId: a.id, accountId: a.accountId, listingId: a.listingId, triggerEventId: e.id,
        price: l.price, currency: l.currency, inStock: l.inStock, firedAt: e.createdAt,
      };
      firings.push({
        firing,
        event: { kind: 'alert_fired', listing: l, alertId: a.id, firingId: firing.id, accountId: a.accountId, condition: a.condition, triggerEventId: e.id, rearms: a.rearm !== null },
      });
    }
  }
  const updates = [...changed.values()].map((a) => ({ id: a.id, state: a.state, lastFiredAt: a.lastFiredAt, fireCount: a.fireCount }));
  return { firings, updates };
}

/**
 * The `data` of an alert_fired event, the same on the streams and in webhook deliveries: which
 * alert fired (and which firing of its history), on which listing, at what price and stock.
 */
export function alertFiredData(c: AlertFired) {
  const l = c.listing;
  return {
    alert_id: c.alertId, firing_id: c.firingId, condition: conditionJson(c.condition), rearms: c.rearms, trigger_event_id: c.triggerEventId,
    product: { id: l.id, uuid: l.uuid, title: l.title, source: l.source, price: l.price, currency: l.currency, in_stock: l.inStock, url: l.url },
  };
}
