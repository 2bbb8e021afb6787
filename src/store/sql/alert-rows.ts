import type { AlertFiring, AlertRecord, AlertState, RearmRule } from '../../domain/alerts.js';
import type { Currency } from '../../domain/currencies.js';
import { conditionJson, conditionOf } from '../../domain/event-codec.js';

/** The alert tables' rows as both adapters read them (the same columns; condition and re-arm rule as JSON text). */

export interface AlertRow {
  id: string; account_id: number; listing_id: number; condition: string; rearm: string | null; expires_at: string | null;
  state: AlertState; fire_count: number; last_fired_at: string | null; from_event_id: number; created_at: string; updated_at: string;
}

export interface FiringRow {
  id: string; alert_id: string; account_id: number; listing_id: number; trigger_event_id: number; price: string; currency: string;
  in_stock: number | boolean | null; fired_at: string;
}

export const ALERT_COLUMNS = 'id, account_id, listing_id, condition, rearm, expires_at, state, fire_count, last_fired_at, from_event_id, created_at, updated_at';
export const FIRING_COLUMNS = 'id, alert_id, account_id, listing_id, trigger_event_id, price, currency, in_stock, fired_at';

const rearmJson = (r: RearmRule): string | null =>
  r === null ? null : JSON.stringify('after' in r ? { after: r.after } : { quiet_period_seconds: r.quietPeriodSeconds });

function rearmOf(text: string | null): RearmRule {
  if (text === null) return null;
  const j = JSON.parse(text) as { after?: 'price_above_target'; quiet_period_seconds?: number };
  return j.after ? { after: j.after } : { quietPeriodSeconds: Number(j.quiet_period_seconds) };
}

export const toAlert = (r: AlertRow): AlertRecord => ({
  id: r.id, accountId: Number(r.account_id), listingId: Number(r.listing_id), condition: conditionOf(JSON.parse(r.condition) as Record<string, unknown>),
  rearm: rearmOf(r.rearm), expiresAt: r.expires_at, state: r.state, fireCount: Number(r.fire_count), lastFiredAt: r.last_fired_at,
  fromEventId: Number(r.from_event_id), createdAt: r.created_at, updatedAt: r.updated_at,
});

/** The values of ALERT_COLUMNS, in order. */
export const alertValues = (a: AlertRecord): unknown[] => [
  a.id, a.accountId, a.listingId, JSON.stringify(conditionJson(a.condition)), rearmJson(a.rearm), a.expiresAt, a.state, a.fireCount,
  a.lastFiredAt, a.fromEventId, a.createdAt, a.updatedAt,
];

export const toFiring = (r: FiringRow): AlertFiring => ({
  id: r.id, alertId: r.alert_id, accountId: Number(r.account_id), listingId: Number(r.listing_id), triggerEventId: Number(r.trigger_event_id),
  price: r.price, currency: r.currency as Currency, inStock: r.in_stock === null ? null : Boolean(r.in_stock), firedAt: r.fired_at,
});
