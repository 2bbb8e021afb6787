import { Type } from 'typebox';
import { MAX_QUIET_PERIOD_SECONDS, MIN_QUIET_PERIOD_SECONDS } from '../../domain/alerts.js';
import { CONDITION_TYPES } from '../../domain/alert-condition.js';
import { Body, Int, Nullable, OneOf, Query, Str } from '../schema-kit.js';

/** Request and response schemas of the alert endpoints (ours; docs/alerts.md). */

const Amount = Type.Union([Str({ maxLength: 32, pattern: '^\\s*\\d{1,15}(\\.\\d{1,12})?\\s*$' }), Type.Number({ minimum: 0, maximum: 1e12 })], {
  description: 'an exact decimal amount in `currency`, as a string ("199.00") or a JSON number read by its decimal digits',
});

const Condition = Type.Object({
  type: OneOf(CONDITION_TYPES, { description: 'price_at_or_below, drop_percent or back_in_stock' }),
  target: Type.Optional(Amount),
  currency: Type.Optional(Str({ minLength: 3, maxLength: 3, pattern: '^[A-Za-z]{3}$', description: 'price_at_or_below: the currency of target (ISO 4217)' })),
  percent: Type.Optional(Type.Union([Str({ maxLength: 8, pattern: '^\\d{1,2}(\\.\\d{1,2})?$' }), Type.Number({ exclusiveMinimum: 0, exclusiveMaximum: 100 })], {
    description: 'drop_percent: the least drop, in percent (above 0, below 100, two decimals at most), from the price when the alert is set',
  })),
}, { additionalProperties: false, description: 'price_at_or_below takes target and currency; drop_percent takes percent; back_in_stock takes nothing more' });

const Rearm = Type.Object({
  after: Type.Optional(OneOf(['price_above_target'], { description: 'fire again once a price change has left the condition false (the price rose back above the target)' })),
  quiet_period_seconds: Type.Optional(Int(MIN_QUIET_PERIOD_SECONDS, MAX_QUIET_PERIOD_SECONDS, { description: 'fire again on a change that meets the condition this long after the last firing' })),
}, { additionalProperties: false, description: 'exactly one member; left out: the alert fires once' });

export const CreateAlertBody = Body({
  product: Str({ minLength: 1, maxLength: 2048, description: 'the listing: integer id, UUID, SKU, GTIN or product URL' }),
  condition: Condition,
  rearm: Type.Optional(Nullable(Rearm)),
  expires_at: Type.Optional(Nullable(Str({ maxLength: 40, description: 'ISO 8601 date-time in the future; after it the alert never fires' }))),
});

export const AlertParams = Type.Object({ id: Str({ minLength: 1, maxLength: 64, description: 'alert id' }) });
export const AlertListQuery = Query({
  limit: Int(1, 100, { default: 20, description: 'alerts per page, 1 to 100 (default 20)' }),
  offset: Int(0, 10000, { default: 0, description: 'alerts to skip, 0 to 10000' }),
});
export const FiringListQuery = Query({
  limit: Int(1, 100, { default: 20, description: 'firings per page, 1 to 100 (default 20)' }),
  offset: Int(0, 10000, { default: 0, description: 'firings to skip, 0 to 10000' }),
});

const S = Type.String();
const NS = Nullable(Type.String());
export const AlertCondition = Type.Object({
  type: OneOf(CONDITION_TYPES),
  target: Type.Optional(S), currency: Type.Optional(S), percent: Type.Optional(S),
  base_price: Type.Optional(Type.String({ description: 'drop_percent: the listing\'s price when the alert was set' })),
  base_currency: Type.Optional(S),
  threshold: Type.Optional(Type.String({ description: 'drop_percent: the price at or below which it fires, in base_currency' })),
});
const Product = Type.Object({
  id: Type.Integer(), uuid: S, title: S, source: S, price: S, currency: S, in_stock: Nullable(Type.Boolean()), url: S,
}, { description: 'the listing as it is now' });

export const Alert = Type.Object({
  id: S,
  product_id: Type.Integer({ description: 'the listing\'s integer id' }),
  product: Nullable(Product),
  condition: AlertCondition,
  rearm: Nullable(Type.Object({ after: Type.Optional(S), quiet_period_seconds: Type.Optional(Type.Integer()) })),
  expires_at: NS,
  status: OneOf(['armed', 'rearming', 'fired', 'expired'], {
    description: 'armed: waits for its condition; rearming: fired, waits for its re-arm rule; fired: fired and done; expired: past expires_at',
  }),
  fire_count: Type.Integer(),
  last_fired_at: NS,
  created_at: S,
  updated_at: S,
}, { description: 'A price or stock alert' });

export const AlertList = Type.Object({
  data: Type.Array(Alert), total: Type.Integer(), limit: Type.Integer(), offset: Type.Integer(),
  active: Type.Integer({ description: 'armed or re-arming, not expired: what the tier limit counts' }),
  max_active: Type.Integer({ description: 'the most active alerts this key\'s tier may have' }),
});

export const Firing = Type.Object({
  id: Type.String({ description: 'also `firing_id` in the alert_fired event' }),
  alert_id: S,
  product_id: Type.Integer(),
  fired_at: Type.String({ description: 'when the change that fired it happened' }),
  price: S, currency: S, in_stock: Nullable(Type.Boolean()),
  trigger_event_id: Type.Integer({ description: 'the event log id of that change (the `id:` of the streams)' }),
});
export const FiringList = Type.Object({ data: Type.Array(Firing), total: Type.Integer(), limit: Type.Integer(), offset: Type.Integer() });
