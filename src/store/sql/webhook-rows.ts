import type { DeliveryStatus, WebhookEventKind, WebhookStatus } from '../../domain/webhooks.js';
import type { SubscriptionPatch, WebhookAttemptRecord, WebhookDeliveryRecord, WebhookSubscriptionRecord } from '../types.js';

/** The webhook tables' rows as both adapters read them (the same columns; lists as JSON text). */

export interface SubscriptionRow {
  id: string; account_id: number; url: string; events: string; product_ids: string | null; min_price_change_pct: number;
  status: WebhookStatus; paused_reason: string | null; secret: string; previous_secret: string | null;
  previous_secret_until: string | null; from_event_id: number; created_at: string; updated_at: string;
}

export interface DeliveryRow {
  id: string; subscription_id: string; event_id: number | null; kind: string; payload: string; status: DeliveryStatus;
  attempts: number; max_attempts: number; next_attempt_at: string | null; last_status_code: number | null;
  last_error: string | null; created_at: string; updated_at: string;
}

export interface AttemptRow {
  delivery_id: string; attempt: number; started_at: string; duration_ms: number; status_code: number | null;
  error: string | null; excerpt: string | null;
}

export const SUBSCRIPTION_COLUMNS = 'id, account_id, url, events, product_ids, min_price_change_pct, status, paused_reason, secret, '
  + 'previous_secret, previous_secret_until, from_event_id, created_at, updated_at';
export const DELIVERY_COLUMNS = 'id, subscription_id, event_id, kind, payload, status, attempts, max_attempts, next_attempt_at, '
  + 'last_status_code, last_error, created_at, updated_at';

export const toSubscription = (r: SubscriptionRow): WebhookSubscriptionRecord => ({
  id: r.id, accountId: Number(r.account_id), url: r.url, events: JSON.parse(r.events) as WebhookEventKind[],
  productIds: r.product_ids === null ? null : (JSON.parse(r.product_ids) as string[]), minPriceChangePct: Number(r.min_price_change_pct),
  status: r.status, pausedReason: r.paused_reason, secret: r.secret, previousSecret: r.previous_secret,
  previousSecretUntil: r.previous_secret_until, fromEventId: Number(r.from_event_id), createdAt: r.created_at, updatedAt: r.updated_at,
});

/** The values of SUBSCRIPTION_COLUMNS, in order. */
export const subscriptionValues = (s: WebhookSubscriptionRecord): unknown[] => [
  s.id, s.accountId, s.url, JSON.stringify(s.events), s.productIds === null ? null : JSON.stringify(s.productIds), s.minPriceChangePct,
  s.status, s.pausedReason, s.secret, s.previousSecret, s.previousSecretUntil, s.fromEventId, s.createdAt, s.updatedAt,
];

export const toDelivery = (r: DeliveryRow): WebhookDeliveryRecord => ({
  id: r.id, subscriptionId: r.subscription_id, eventId: r.event_id === null ? null : Number(r.event_id), kind: r.kind, payload: r.payload,
  status: r.status, attempts: r.attempts, maxAttempts: r.max_attempts, nextAttemptAt: r.next_attempt_at,
  lastStatusCode: r.last_status_code, lastError: r.last_error, createdAt: r.created_at, updatedAt: r.updated_at,
});

export const toAttempt = (r: AttemptRow): WebhookAttemptRecord => ({
  deliveryId: r.delivery_id, attempt: r.attempt, startedAt: r.started_at, durationMs: r.duration_ms, statusCode: r.status_code,
  error: r.error, excerpt: r.excerpt,
});

const PATCH_COLUMNS: Record<keyof SubscriptionPatch, string> = {
  url: 'url', events: 'events', productIds: 'product_ids', minPriceChangePct: 'min_price_change_pct', status: 'status',
  pausedReason: 'paused_reason', secret: 'secret', previousSecret: 'previous_secret', previousSecretUntil: 'previous_secret_until',
};

/** `col = ?, ...` and its values for a patch (with updated_at), `?` placeholders in order. */
export function patchSql(patch: SubscriptionPatch, now: string): { sets: string; values: unknown[] } {
  const entries = (Object.entries(patch) as Array<[keyof SubscriptionPatch, unknown]>).filter(([k, v]) => PATCH_COLUMNS[k] && v !== undefined);
  const values = entries.map(([k, v]) => (k === 'events' || (k === 'productIds' && v !== null) ? JSON.stringify(v) : v));
  return { sets: [...entries.map(([k]) => `${PATCH_COLUMNS[k]} = ?`), 'updated_at = ?'].join(', '), values: [...values, now] };
}
