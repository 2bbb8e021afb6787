import { Type } from 'typebox';
import { DELIVERY_STATUSES, MAX_SUBSCRIPTIONS_PER_ACCOUNT, WEBHOOK_EVENT_KINDS } from '../../domain/webhooks.js';
import { Body, Int, Nullable, Num, OneOf, Query, Str } from '../schema-kit.js';

/** Request and response schemas of the webhook endpoints (spec 2.8, 4.5; the management ones are ours, 4.6). */

const UUID = '^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$';
/** The most product UUIDs one subscription may name (the batch bound of spec 8.1). */
export const MAX_PRODUCT_IDS = 100;

const Url = Str({ minLength: 1, maxLength: 2048, description: 'HTTPS delivery address (public addresses only; see the address guard in docs/realtime.md)' });
const Events = Type.Array(OneOf(WEBHOOK_EVENT_KINDS), {
  minItems: 1, maxItems: WEBHOOK_EVENT_KINDS.length, uniqueItems: true, description: 'price_change, stock_change and/or alert_fired (this key\'s own alerts, docs/alerts.md)',
});
const Filters = Type.Object({
  product_ids: Type.Optional(Type.Array(Str({ pattern: UUID, maxLength: 36 }), {
    minItems: 1, maxItems: MAX_PRODUCT_IDS, description: `product UUIDs (1 to ${MAX_PRODUCT_IDS}); left out: every product`,
  })),
  min_price_change_pct: Type.Optional(Num(0, 1000, { description: 'smallest price change, in percent either way, that is sent (default 1; price_change only)' })),
}, { additionalProperties: false });

export const CreateWebhookBody = Body({ url: Url, events: Events, filters: Type.Optional(Filters) });
export const UpdateWebhookBody = Body({
  url: Type.Optional(Url),
  events: Type.Optional(Events),
  filters: Type.Optional(Type.Object(Filters.properties, { additionalProperties: false, description: 'replaces both filters; a member left out takes its default' })),
  status: Type.Optional(OneOf(['active', 'paused'], { description: 'paused: no new deliveries, queued ones wait; active: resume' })),
}, { description: 'at least one member' });
export const RotateSecretBody = Body({
  previous_secret_valid_seconds: Type.Optional(Int(0, 7 * 24 * 3600, { description: 'how long the old secret still signs (default 86400; 0: stops at once)' })),
});

export const WebhookParams = Type.Object({ id: Str({ minLength: 1, maxLength: 64, description: 'subscription id' }) });
export const DeliveryParams = Type.Object({
  id: Str({ minLength: 1, maxLength: 64, description: 'subscription id' }),
  delivery_id: Str({ minLength: 1, maxLength: 64, description: 'delivery id (its webhook-id)' }),
});
export const DeliveriesQuery = Query({
  status: Type.Optional(OneOf(DELIVERY_STATUSES, { description: 'pending, succeeded or dead (dead letters)' })),
  limit: Int(1, 100, { default: 20, description: 'deliveries per page, 1 to 100 (default 20)' }),
  offset: Int(0, 10000, { default: 0, description: 'deliveries to skip, 0 to 10000' }),
});

const S = Type.String();
export const Subscription = Type.Object({
  id: S,
  url: S,
  events: Type.Array(S),
  filters: Type.Object({ product_ids: Type.Optional(Type.Array(S, { description: 'absent: every product' })), min_price_change_pct: Type.Number() }),
  status: OneOf(['active', 'paused']),
  paused_reason: Nullable(Type.String({ description: 'receiver_gone (it answered 410) or paused_by_owner' })),
  created_at: S,
  updated_at: S,
}, { description: 'A webhook subscription (spec 2.8)' });

export const CreatedSubscription = Type.Object({
  ...Subscription.properties,
  secret: Type.String({ description: 'whsec_...: the signing secret (Standard Webhooks), shown only now' }),
});

export const SubscriptionList = Type.Object({
  data: Type.Array(Subscription), total: Type.Integer(), max_per_key: Type.Integer({ description: `at most ${MAX_SUBSCRIPTIONS_PER_ACCOUNT} per key (account)` }),
});

export const RotatedSecret = Type.Object({
  id: S, secret: Type.String({ description: 'the new signing secret, shown only now' }),
  previous_secret_expires_at: Nullable(Type.String({ description: 'until then deliveries carry a signature with the old secret too' })),
});

const Attempt = Type.Object({
  attempt: Type.Integer(), at: S, status_code: Nullable(Type.Integer()), duration_ms: Type.Integer(),
  error: Nullable(Type.String({ description: 'null on success; else a code (timeout, http_status, redirect_not_followed, connection_closed, connection_refused, address_refused, dns_error, tls_error, ...) and what happened' })),
  response_excerpt: Nullable(Type.String({ description: 'the first characters of the answer' })),
});
export const Delivery = Type.Object({
  id: Type.String({ description: 'also the webhook-id header of every attempt' }),
  event: Type.String({ description: 'price_change, stock_change or test' }),
  event_id: Nullable(Type.Integer()),
  status: OneOf(DELIVERY_STATUSES),
  attempt_count: Type.Integer(),
  max_attempts: Type.Integer(),
  next_attempt_at: Nullable(S),
  last_status_code: Nullable(Type.Integer()),
  created_at: S,
  updated_at: S,
  attempts: Type.Array(Attempt),
});
export const DeliveryList = Type.Object({ data: Type.Array(Delivery), total: Type.Integer(), limit: Type.Integer(), offset: Type.Integer() });
