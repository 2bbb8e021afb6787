import { dropThreshold, type AlertFiring } from '../../domain/alerts.js';
import { conditionJson } from '../../domain/event-codec.js';
import type { AlertView } from '../../catalog/alert-service.js';
import { withFields } from '../../domain/with-fields.js';

/** Alert presenters: pure functions from the service's views to the wire shapes of alert-schemas.ts. */

export function presentAlert({ alert: a, listing: l, status }: AlertView) {
  const c = a.condition;
  return {
    id: a.id, product_id: a.listingId,
    product: l && { id: l.id, uuid: l.uuid, title: l.title, source: l.source, price: l.price, currency: l.currency, in_stock: l.inStock, url: l.url },
    condition: withFields(conditionJson(c), c.type === 'drop_percent' ? { threshold: dropThreshold(c) } : {}),
    rearm: a.rearm === null ? null : 'after' in a.rearm ? { after: a.rearm.after } : { quiet_period_seconds: a.rearm.quietPeriodSeconds },
    expires_at: a.expiresAt, status, fire_count: a.fireCount, last_fired_at: a.lastFiredAt, created_at: a.createdAt, updated_at: a.updatedAt,
  };
}

export function presentFiring(f: AlertFiring) {
  return {
    id: f.id, alert_id: f.alertId, product_id: f.listingId, fired_at: f.firedAt, price: f.price, currency: f.currency, in_stock: f.inStock,
    trigger_event_id: f.triggerEventId,
  };
}
