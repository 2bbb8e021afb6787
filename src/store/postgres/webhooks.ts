import type pg from 'pg';
import type { DeliveryStatus } from '../../domain/webhooks.js';
import type { Tier } from '../../domain/tier.js';
import {
  DELIVERY_COLUMNS, SUBSCRIPTION_COLUMNS, patchSql, subscriptionValues, toAttempt, toDelivery, toSubscription,
  type AttemptRow, type DeliveryRow, type SubscriptionRow,
} from '../sql/webhook-rows.js';
import type {
  AttemptOutcome, ClaimedDelivery, NewDelivery, SubscriptionPatch, WebhookAttemptRecord, WebhookDeliveryRecord, WebhookStore,
  WebhookSubscriptionRecord,
} from '../types.js';
import { inTransaction, one, rows } from './sql.js';

const marks = (n: number) => Array.from({ length: n }, () => '?').join(', ');
const qualified = (columns: string, alias: string) => columns.split(', ').map((c) => `${alias}.${c}`).join(', ');

/**
 * Webhook subscriptions and the delivery outbox on PostgreSQL. Workers of every instance claim
 * with `FOR UPDATE SKIP LOCKED`: a row another claim holds is passed over, not waited for, and a
 * claimed row's lease is re-checked after its lock (a claim that committed first wins).
 */
export class PgWebhooks implements WebhookStore {
  constructor(private readonly pool: pg.Pool) {}

  async createSubscription(rec: WebhookSubscriptionRecord, maxPerAccount: number): Promise<boolean> {
    return inTransaction(this.pool, async (db) => {
      // Creations of one account take turns, so two cannot both pass the maximum.
      await db.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`webhooks:${rec.accountId}`]);
      const n = await one<{ n: number }>(db, 'SELECT count(*)::int AS n FROM webhook_subscriptions WHERE account_id = ?', [rec.accountId]);
      if (n!.n >= maxPerAccount) return false;
      await one(db, `INSERT INTO webhook_subscriptions (${SUBSCRIPTION_COLUMNS}) VALUES (${marks(14)})`, subscriptionValues(rec));
      return true;
    });
  }

  async subscription(accountId: number, id: string): Promise<WebhookSubscriptionRecord | null> {
    const row = await one<SubscriptionRow>(this.pool, `SELECT ${SUBSCRIPTION_COLUMNS} FROM webhook_subscriptions WHERE id = ? AND account_id = ?`, [id, accountId]);
    return row ? toSubscription(row) : null;
  }

  async subscriptions(accountId: number): Promise<WebhookSubscriptionRecord[]> {
    return (await rows<SubscriptionRow>(this.pool, `SELECT ${SUBSCRIPTION_COLUMNS} FROM webhook_subscriptions WHERE account_id = ? ORDER BY created_at, id`,
      [accountId])).map(toSubscription);
  }

  async updateSubscription(accountId: number, id: string, patch: SubscriptionPatch, now: string): Promise<WebhookSubscriptionRecord | null> {
    const { sets, values } = patchSql(patch, now);
    const row = await one<SubscriptionRow>(this.pool, `UPDATE webhook_subscriptions SET ${sets} WHERE id = ? AND account_id = ? RETURNING ${SUBSCRIPTION_COLUMNS}`,
      [...values, id, accountId]);
    return row ? toSubscription(row) : null;
  }

  async deleteSubscription(accountId: number, id: string): Promise<boolean> {
    return ((await this.pool.query('DELETE FROM webhook_subscriptions WHERE id = $1 AND account_id = $2', [id, accountId])).rowCount ?? 0) === 1;
  }

  async activeSubscriptions(tiers: readonly Tier[]): Promise<WebhookSubscriptionRecord[]> {
    return (await rows<SubscriptionRow>(this.pool, `SELECT ${SUBSCRIPTION_COLUMNS} FROM webhook_subscriptions s WHERE status = 'active'
      AND EXISTS (SELECT 1 FROM api_keys k WHERE k.account_id = s.account_id AND k.revoked_at IS NULL AND k.tier = ANY(?::text[]))
      ORDER BY id`, [[...tiers]])).map(toSubscription);
  }

  async dispatchPosition(): Promise<number> {
    return (await one<{ position: number }>(this.pool, 'SELECT position FROM webhook_dispatch WHERE id = 1'))!.position;
  }

  async enqueue(from: number, to: number, deliveries: NewDelivery[], now: string): Promise<boolean> {
    return inTransaction(this.pool, async (db) => {
      // The row lock orders dispatchers: the second waits, then finds the position moved and queues nothing.
      const moved = await db.query('UPDATE webhook_dispatch SET position = $1 WHERE id = 1 AND position = $2', [to, from]);
      if (moved.rowCount !== 1) return false;
      if (deliveries.length) {
        await db.query(`INSERT INTO webhook_deliveries (id, subscription_id, event_id, kind, payload, status, attempts, max_attempts,
            next_attempt_at, created_at, updated_at)
          SELECT t.id, t.sub, t.event_id, t.kind, t.payload, 'pending', 0, t.max_attempts, $6, $6, $6
          FROM unnest($1::text[], $2::text[], $3::int8[], $4::text[], $5::text[], $7::int[]) WITH ORDINALITY AS t(id, sub, event_id, kind, payload, max_attempts, n)
          ORDER BY t.n
          ON CONFLICT (subscription_id, event_id) DO NOTHING`, [
          deliveries.map((d) => d.id), deliveries.map((d) => d.subscriptionId), deliveries.map((d) => d.eventId),
          deliveries.map((d) => d.kind), deliveries.map((d) => d.payload), now, deliveries.map((d) => d.maxAttempts),
        ]);
      }
      return true;
    });
  }

  async insertLeased(d: NewDelivery, lease: { owner: string; until: string }, now: string): Promise<WebhookDeliveryRecord> {
    const row = await one<DeliveryRow>(this.pool, `INSERT INTO webhook_deliveries (id, subscription_id, event_id, kind, payload, status, attempts,
      max_attempts, next_attempt_at, lease_owner, lease_until, created_at, updated_at) VALUES (?, ?, ?, ?, ?, 'pending', 0, ?, ?, ?, ?, ?, ?)
      RETURNING ${DELIVERY_COLUMNS}`, [d.id, d.subscriptionId, d.eventId, d.kind, d.payload, d.maxAttempts, now, lease.owner, lease.until, now, now]);
    return toDelivery(row!);
  }

  async claim(owner: string, leaseUntil: string, now: string, limit: number, exclude: readonly string[]): Promise<ClaimedDelivery[]> {
    const claimed = await rows<DeliveryRow>(this.pool, `WITH due AS (
        SELECT d.seq FROM webhook_deliveries d JOIN webhook_subscriptions s ON s.id = d.subscription_id
        WHERE d.status = 'pending' AND d.next_attempt_at <= ? AND (d.lease_until IS NULL OR d.lease_until <= ?) AND s.status = 'active'
          AND NOT (d.subscription_id = ANY(?::text[]))
        ORDER BY d.next_attempt_at, d.seq LIMIT ?
        FOR UPDATE OF d SKIP LOCKED)
      UPDATE webhook_deliveries d SET lease_owner = ?, lease_until = ? FROM due WHERE d.seq = due.seq
      RETURNING ${qualified(DELIVERY_COLUMNS, 'd')}`, [now, now, [...exclude], limit, owner, leaseUntil]);
    if (!claimed.length) return [];
    const subs = await rows<SubscriptionRow>(this.pool, `SELECT ${SUBSCRIPTION_COLUMNS} FROM webhook_subscriptions WHERE id = ANY(?::text[])`,
      [[...new Set(claimed.map((r) => r.subscription_id))]]);
    const byId = new Map(subs.map((r) => [r.id, toSubscription(r)]));
    // A subscription deleted between the two reads: its deliveries went with it.
    return claimed.filter((r) => byId.has(r.subscription_id)).map((r) => ({ delivery: toDelivery(r), subscription: byId.get(r.subscription_id)! }));
  }

  async record(deliveryId: string, owner: string, a: Omit<WebhookAttemptRecord, 'deliveryId' | 'attempt'>, outcome: AttemptOutcome, now: string): Promise<boolean> {
    return inTransaction(this.pool, async (db) => {
      const row = await one<{ attempts: number; subscription_id: string }>(db, `UPDATE webhook_deliveries SET status = ?, attempts = attempts + 1,
        next_attempt_at = ?, lease_owner = NULL, lease_until = NULL, last_status_code = ?, last_error = ?, updated_at = ?
        WHERE id = ? AND lease_owner = ? RETURNING attempts, subscription_id`, [outcome.status, outcome.nextAttemptAt, a.statusCode, a.error, now, deliveryId, owner]);
      if (!row) return false;
      await one(db, `INSERT INTO webhook_attempts (delivery_id, attempt, started_at, duration_ms, status_code, error, excerpt) VALUES (?, ?, ?, ?, ?, ?, ?)`,
        [deliveryId, row.attempts, a.startedAt, a.durationMs, a.statusCode, a.error, a.excerpt]);
      if (outcome.pause) {
        await one(db, "UPDATE webhook_subscriptions SET status = 'paused', paused_reason = ?, updated_at = ? WHERE id = ?", [outcome.pause, now, row.subscription_id]);
      }
      return true;
    });
  }

  async release(owner: string): Promise<number> {
    return (await this.pool.query("UPDATE webhook_deliveries SET lease_owner = NULL, lease_until = NULL WHERE lease_owner = $1 AND status = 'pending'", [owner])).rowCount ?? 0;
  }

  async deliveries(subscriptionId: string, opts: { status?: DeliveryStatus; limit: number; offset: number }): Promise<{ items: WebhookDeliveryRecord[]; total: number }> {
    const where = `subscription_id = ?${opts.status ? ' AND status = ?' : ''}`;
    const params: unknown[] = opts.status ? [subscriptionId, opts.status] : [subscriptionId];
    const total = (await one<{ n: number }>(this.pool, `SELECT count(*)::int AS n FROM webhook_deliveries WHERE ${where}`, params))!.n;
    const items = (await rows<DeliveryRow>(this.pool, `SELECT ${DELIVERY_COLUMNS} FROM webhook_deliveries WHERE ${where} ORDER BY seq DESC LIMIT ? OFFSET ?`,
      [...params, opts.limit, opts.offset])).map(toDelivery);
    return { items, total };
  }

  async delivery(subscriptionId: string, deliveryId: string): Promise<WebhookDeliveryRecord | null> {
    const row = await one<DeliveryRow>(this.pool, `SELECT ${DELIVERY_COLUMNS} FROM webhook_deliveries WHERE id = ? AND subscription_id = ?`, [deliveryId, subscriptionId]);
    return row ? toDelivery(row) : null;
  }

  async attempts(deliveryIds: readonly string[]): Promise<WebhookAttemptRecord[]> {
    if (!deliveryIds.length) return [];
    return (await rows<AttemptRow>(this.pool, `SELECT delivery_id, attempt, started_at, duration_ms, status_code, error, excerpt FROM webhook_attempts
      WHERE delivery_id = ANY(?::text[]) ORDER BY delivery_id, attempt`, [[...deliveryIds]])).map(toAttempt);
  }

  async retry(subscriptionId: string, deliveryId: string, now: string): Promise<WebhookDeliveryRecord | null> {
    const row = await one<DeliveryRow>(this.pool, `UPDATE webhook_deliveries SET status = 'pending', max_attempts = attempts + 1, next_attempt_at = ?,
      updated_at = ? WHERE id = ? AND subscription_id = ? AND status <> 'pending' RETURNING ${DELIVERY_COLUMNS}`, [now, now, deliveryId, subscriptionId]);
    return row ? toDelivery(row) : null;
  }

  async prune(before: string): Promise<number> {
    return (await this.pool.query("DELETE FROM webhook_deliveries WHERE status <> 'pending' AND updated_at < $1", [before])).rowCount ?? 0;
  }
}
