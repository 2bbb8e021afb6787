import type { Database } from 'better-sqlite3';
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

const marks = (n: number) => Array.from({ length: n }, () => '?').join(', ');

/** How long a claim or an enqueue waits for another process's write lock (a `catalog import`) before it gives up for this tick. */
const BRIEF_BUSY_MS = 100;

/**
 * Runs a write that can wait for the next tick: while another process holds the write lock, it
 * waits BRIEF_BUSY_MS instead of the connection's busy timeout (better-sqlite3 waits on the
 * event loop's thread, so a long wait would stall every request), and answers `busy` if still locked.
 */
export function writeBriefly<T>(db: Database, write: () => T, busy: T): T {
  const saved = db.pragma('busy_timeout', { simple: true }) as number;
  db.pragma(`busy_timeout = ${BRIEF_BUSY_MS}`);
  try {
    return write();
  } catch (e) {
    if ((e as { code?: string }).code === 'SQLITE_BUSY') return busy;
    throw e;
  } finally {
    db.pragma(`busy_timeout = ${saved}`);
  }
}

/**
 * Webhook subscriptions and the delivery outbox on the embedded store. Every write is one
 * statement or one transaction under SQLite's single write lock, so two processes on one file
 * (two servers, a server and the CLI) never claim one delivery twice.
 */
export class SqliteWebhooks implements WebhookStore {
  constructor(private readonly db: Database) {}

  private briefly<T>(write: () => T, busy: T): T {
    return writeBriefly(this.db, write, busy);
  }

  async createSubscription(rec: WebhookSubscriptionRecord, maxPerAccount: number): Promise<boolean> {
    // The count and the insert in one statement: concurrent creations cannot both pass the maximum.
    const res = this.db.prepare(`INSERT INTO webhook_subscriptions (${SUBSCRIPTION_COLUMNS}) SELECT ${marks(14)}
      WHERE (SELECT count(*) FROM webhook_subscriptions WHERE account_id = ?) < ?`).run(...subscriptionValues(rec), rec.accountId, maxPerAccount);
    return res.changes === 1;
  }

  async subscription(accountId: number, id: string): Promise<WebhookSubscriptionRecord | null> {
    const row = this.db.prepare(`SELECT ${SUBSCRIPTION_COLUMNS} FROM webhook_subscriptions WHERE id = ? AND account_id = ?`).get(id, accountId) as SubscriptionRow | undefined;
    return row ? toSubscription(row) : null;
  }

  async subscriptions(accountId: number): Promise<WebhookSubscriptionRecord[]> {
    return (this.db.prepare(`SELECT ${SUBSCRIPTION_COLUMNS} FROM webhook_subscriptions WHERE account_id = ? ORDER BY created_at, id`)
      .all(accountId) as SubscriptionRow[]).map(toSubscription);
  }

  async updateSubscription(accountId: number, id: string, patch: SubscriptionPatch, now: string): Promise<WebhookSubscriptionRecord | null> {
    const { sets, values } = patchSql(patch, now);
    const row = this.db.prepare(`UPDATE webhook_subscriptions SET ${sets} WHERE id = ? AND account_id = ? RETURNING ${SUBSCRIPTION_COLUMNS}`)
      .get(...values, id, accountId) as SubscriptionRow | undefined;
    return row ? toSubscription(row) : null;
  }

  async deleteSubscription(accountId: number, id: string): Promise<boolean> {
    return this.db.prepare('DELETE FROM webhook_subscriptions WHERE id = ? AND account_id = ?').run(id, accountId).changes === 1;
  }

  async activeSubscriptions(tiers: readonly Tier[]): Promise<WebhookSubscriptionRecord[]> {
    return (this.db.prepare(`SELECT ${SUBSCRIPTION_COLUMNS} FROM webhook_subscriptions s WHERE status = 'active'
      AND EXISTS (SELECT 1 FROM api_keys k WHERE k.account_id = s.account_id AND k.revoked_at IS NULL AND k.tier IN (SELECT value FROM json_each(?)))
      ORDER BY id`).all(JSON.stringify(tiers)) as SubscriptionRow[]).map(toSubscription);
  }

  async dispatchPosition(): Promise<number> {
    return this.db.prepare('SELECT position FROM webhook_dispatch WHERE id = 1').pluck().get() as number;
  }

  async enqueue(from: number, to: number, deliveries: NewDelivery[], now: string): Promise<boolean> {
    const moved = this.db.prepare('UPDATE webhook_dispatch SET position = ? WHERE id = 1 AND position = ?');
    const insert = this.db.prepare(`INSERT INTO webhook_deliveries (id, subscription_id, event_id, kind, payload, status, attempts, max_attempts,
      next_attempt_at, created_at, updated_at) VALUES (?, ?, ?, ?, ?, 'pending', 0, ?, ?, ?, ?) ON CONFLICT (subscription_id, event_id) DO NOTHING`);
    return this.briefly(() => this.db.transaction(() => {
      if (moved.run(to, from).changes !== 1) return false;
      for (const d of deliveries) insert.run(d.id, d.subscriptionId, d.eventId, d.kind, d.payload, d.maxAttempts, now, now, now);
      return true;
    }).immediate(), false);
  }

  async insertLeased(d: NewDelivery, lease: { owner: string; until: string }, now: string): Promise<WebhookDeliveryRecord> {
    const row = this.db.prepare(`INSERT INTO webhook_deliveries (id, subscription_id, event_id, kind, payload, status, attempts, max_attempts,
      next_attempt_at, lease_owner, lease_until, created_at, updated_at) VALUES (?, ?, ?, ?, ?, 'pending', 0, ?, ?, ?, ?, ?, ?) RETURNING ${DELIVERY_COLUMNS}`)
      .get(d.id, d.subscriptionId, d.eventId, d.kind, d.payload, d.maxAttempts, now, lease.owner, lease.until, now, now) as DeliveryRow;
    return toDelivery(row);
  }

  async claim(owner: string, leaseUntil: string, now: string, limit: number, exclude: readonly string[]): Promise<ClaimedDelivery[]> {
    // A read first: it never waits for a lock (WAL), and most ticks find nothing due.
    const due = this.db.prepare(`SELECT 1 FROM webhook_deliveries WHERE status = 'pending' AND next_attempt_at <= ?
      AND (lease_until IS NULL OR lease_until <= ?) LIMIT 1`).get(now, now);
    if (!due) return [];
    const subs = this.db.prepare(`SELECT ${SUBSCRIPTION_COLUMNS} FROM webhook_subscriptions WHERE id IN (SELECT value FROM json_each(?))`);
    return this.briefly(() => this.db.transaction(() => {
      const rows = this.db.prepare(`UPDATE webhook_deliveries SET lease_owner = ?, lease_until = ? WHERE seq IN (
          SELECT d.seq FROM webhook_deliveries d JOIN webhook_subscriptions s ON s.id = d.subscription_id
          WHERE d.status = 'pending' AND d.next_attempt_at <= ? AND (d.lease_until IS NULL OR d.lease_until <= ?) AND s.status = 'active'
            AND d.subscription_id NOT IN (SELECT value FROM json_each(?))
          ORDER BY d.next_attempt_at, d.seq LIMIT ?)
        RETURNING ${DELIVERY_COLUMNS}`).all(owner, leaseUntil, now, now, JSON.stringify(exclude), limit) as DeliveryRow[];
      if (!rows.length) return [];
      const byId = new Map((subs.all(JSON.stringify([...new Set(rows.map((r) => r.subscription_id))])) as SubscriptionRow[])
        .map((r) => [r.id, toSubscription(r)]));
      return rows.map((r) => ({ delivery: toDelivery(r), subscription: byId.get(r.subscription_id)! }));
    }).immediate(), []);
  }

  async record(deliveryId: string, owner: string, a: Omit<WebhookAttemptRecord, 'deliveryId' | 'attempt'>, outcome: AttemptOutcome, now: string): Promise<boolean> {
    return this.db.transaction(() => {
      const row = this.db.prepare(`UPDATE webhook_deliveries SET status = ?, attempts = attempts + 1, next_attempt_at = ?, lease_owner = NULL,
        lease_until = NULL, last_status_code = ?, last_error = ?, updated_at = ? WHERE id = ? AND lease_owner = ? RETURNING attempts, subscription_id`)
        .get(outcome.status, outcome.nextAttemptAt, a.statusCode, a.error, now, deliveryId, owner) as { attempts: number; subscription_id: string } | undefined;
      if (!row) return false;
      this.db.prepare(`INSERT INTO webhook_attempts (delivery_id, attempt, started_at, duration_ms, status_code, error, excerpt)
        VALUES (?, ?, ?, ?, ?, ?, ?)`).run(deliveryId, row.attempts, a.startedAt, a.durationMs, a.statusCode, a.error, a.excerpt);
      if (outcome.pause) {
        this.db.prepare("UPDATE webhook_subscriptions SET status = 'paused', paused_reason = ?, updated_at = ? WHERE id = ?").run(outcome.pause, now, row.subscription_id);
      }
      return true;
    }).immediate();
  }

  async release(owner: string): Promise<number> {
    return this.db.prepare("UPDATE webhook_deliveries SET lease_owner = NULL, lease_until = NULL WHERE lease_owner = ? AND status = 'pending'").run(owner).changes;
  }

  async deliveries(subscriptionId: string, opts: { status?: DeliveryStatus; limit: number; offset: number }): Promise<{ items: WebhookDeliveryRecord[]; total: number }> {
    const where = `subscription_id = ?${opts.status ? ' AND status = ?' : ''}`;
    const params = opts.status ? [subscriptionId, opts.status] : [subscriptionId];
    const total = this.db.prepare(`SELECT count(*) FROM webhook_deliveries WHERE ${where}`).pluck().get(...params) as number;
    const items = (this.db.prepare(`SELECT ${DELIVERY_COLUMNS} FROM webhook_deliveries WHERE ${where} ORDER BY seq DESC LIMIT ? OFFSET ?`)
      .all(...params, opts.limit, opts.offset) as DeliveryRow[]).map(toDelivery);
    return { items, total };
  }

  async delivery(subscriptionId: string, deliveryId: string): Promise<WebhookDeliveryRecord | null> {
    const row = this.db.prepare(`SELECT ${DELIVERY_COLUMNS} FROM webhook_deliveries WHERE id = ? AND subscription_id = ?`).get(deliveryId, subscriptionId) as DeliveryRow | undefined;
    return row ? toDelivery(row) : null;
  }

  async attempts(deliveryIds: readonly string[]): Promise<WebhookAttemptRecord[]> {
    if (!deliveryIds.length) return [];
    return (this.db.prepare(`SELECT delivery_id, attempt, started_at, duration_ms, status_code, error, excerpt FROM webhook_attempts
      WHERE delivery_id IN (SELECT value FROM json_each(?)) ORDER BY delivery_id, attempt`).all(JSON.stringify(deliveryIds)) as AttemptRow[]).map(toAttempt);
  }

  async retry(subscriptionId: string, deliveryId: string, now: string): Promise<WebhookDeliveryRecord | null> {
    const row = this.db.prepare(`UPDATE webhook_deliveries SET status = 'pending', max_attempts = attempts + 1, next_attempt_at = ?, updated_at = ?
      WHERE id = ? AND subscription_id = ? AND status <> 'pending' RETURNING ${DELIVERY_COLUMNS}`).get(now, now, deliveryId, subscriptionId) as DeliveryRow | undefined;
    return row ? toDelivery(row) : null;
  }

  async prune(before: string): Promise<number> {
    return this.db.prepare("DELETE FROM webhook_deliveries WHERE status <> 'pending' AND updated_at < ?").run(before).changes;
  }
}
