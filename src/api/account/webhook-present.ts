import type { DeliveryView, SubscriptionView } from '../../events/webhook-service.js';

/** Webhook presenters: pure functions from the service's views to the wire shapes of webhook-schemas.ts. */

export function presentSubscription(s: SubscriptionView) {
  return {
    id: s.id, url: s.url, events: s.events,
    filters: s.productIds ? { product_ids: s.productIds, min_price_change_pct: s.minPriceChangePct } : { min_price_change_pct: s.minPriceChangePct },
    status: s.status, paused_reason: s.pausedReason, created_at: s.createdAt, updated_at: s.updatedAt,
  };
}

export function presentDelivery({ delivery: d, attempts }: DeliveryView) {
  return {
    id: d.id, event: d.kind, event_id: d.eventId, status: d.status, attempt_count: d.attempts, max_attempts: d.maxAttempts,
    next_attempt_at: d.status === 'pending' ? d.nextAttemptAt : null, last_status_code: d.lastStatusCode,
    created_at: d.createdAt, updated_at: d.updatedAt,
    attempts: attempts.map((a) => ({
      attempt: a.attempt, at: a.startedAt, status_code: a.statusCode, duration_ms: a.durationMs, error: a.error, response_excerpt: a.excerpt,
    })),
  };
}
