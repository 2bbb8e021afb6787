import type pg from 'pg';
import type { AlertFiring, AlertRecord, Evaluation } from '../../domain/alerts.js';
import { encodeChange } from '../../domain/event-codec.js';
import { ALERT_COLUMNS, alertValues, FIRING_COLUMNS, toAlert, toFiring, type AlertRow, type FiringRow } from '../sql/alert-rows.js';
import type { AlertStore } from '../types.js';
import { EVENTS_CHANNEL } from './ingest.js';
import { inTransaction, one, rows } from './sql.js';

const ACTIVE = "state <> 'fired' AND (expires_at IS NULL OR expires_at > ?)";
/**
 * Takes the ingest writers' turn row without moving it: events appended while it is held commit
 * in id order with theirs (ids are drawn inside the transaction), and a writer's match cache,
 * which the turn's value guards, stays valid.
 */
const TURN_LOCK = `INSERT INTO counters (name, value) VALUES ('ingest_batches', 0)
  ON CONFLICT (name) DO UPDATE SET value = counters.value RETURNING value`;

/** Alerts on PostgreSQL; creations of one account take turns (an advisory lock), so two cannot both pass the limit. */
export class PgAlerts implements AlertStore {
  constructor(private readonly pool: pg.Pool) {}

  async create(rec: AlertRecord, maxActive: number, now: string): Promise<boolean> {
    return inTransaction(this.pool, async (db) => {
      await db.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`alerts:${rec.accountId}`]);
      const n = await one<{ n: number }>(db, `SELECT count(*)::int AS n FROM alerts WHERE account_id = ? AND ${ACTIVE}`, [rec.accountId, now]);
      if (n!.n >= maxActive) return false;
      await db.query(`INSERT INTO alerts (${ALERT_COLUMNS}) VALUES (${Array.from({ length: 12 }, (_, i) => `$${i + 1}`).join(', ')})`, alertValues(rec));
      return true;
    });
  }

  async get(accountId: number, id: string): Promise<AlertRecord | null> {
    const row = await one<AlertRow>(this.pool, `SELECT ${ALERT_COLUMNS} FROM alerts WHERE id = ? AND account_id = ?`, [id, accountId]);
    return row ? toAlert(row) : null;
  }

  async list(accountId: number, opts: { limit: number; offset: number }): Promise<{ items: AlertRecord[]; total: number }> {
    const [items, total] = await Promise.all([
      rows<AlertRow>(this.pool, `SELECT ${ALERT_COLUMNS} FROM alerts WHERE account_id = ? ORDER BY created_at DESC, id DESC LIMIT ? OFFSET ?`,
        [accountId, opts.limit, opts.offset]),
      one<{ n: number }>(this.pool, 'SELECT count(*)::int AS n FROM alerts WHERE account_id = ?', [accountId]),
    ]);
    return { items: items.map(toAlert), total: total!.n };
  }

  async activeCount(accountId: number, now: string): Promise<number> {
    return (await one<{ n: number }>(this.pool, `SELECT count(*)::int AS n FROM alerts WHERE account_id = ? AND ${ACTIVE}`, [accountId, now]))!.n;
  }

  async delete(accountId: number, id: string): Promise<boolean> {
    return ((await this.pool.query('DELETE FROM alerts WHERE id = $1 AND account_id = $2', [id, accountId])).rowCount ?? 0) === 1;
  }

  async firings(accountId: number, alertId: string, opts: { limit: number; offset: number }): Promise<{ items: AlertFiring[]; total: number } | null> {
    if (!(await one(this.pool, 'SELECT 1 FROM alerts WHERE id = ? AND account_id = ?', [alertId, accountId]))) return null;
    const [items, total] = await Promise.all([
      rows<FiringRow>(this.pool, `SELECT ${FIRING_COLUMNS} FROM alert_firings WHERE alert_id = ? ORDER BY seq DESC LIMIT ? OFFSET ?`, [alertId, opts.limit, opts.offset]),
      one<{ n: number }>(this.pool, 'SELECT count(*)::int AS n FROM alert_firings WHERE alert_id = ?', [alertId]),
    ]);
    return { items: items.map(toFiring), total: total!.n };
  }

  async pendingFor(listingIds: readonly number[], at: string): Promise<AlertRecord[]> {
    if (!listingIds.length) return [];
    return (await rows<AlertRow>(this.pool, `SELECT ${ALERT_COLUMNS} FROM alerts WHERE listing_id = ANY(?::bigint[]) AND ${ACTIVE} ORDER BY created_at, id`,
      [listingIds, at])).map(toAlert);
  }

  async evaluationPosition(): Promise<number> {
    return (await one<{ position: number }>(this.pool, 'SELECT position FROM alert_evaluation WHERE id = 1'))!.position;
  }

  async apply(from: number, to: number, ev: Evaluation, now: string): Promise<boolean> {
    return inTransaction(this.pool, async (db) => {
      const pos = await one<{ position: number }>(db, 'SELECT position FROM alert_evaluation WHERE id = 1 FOR UPDATE');
      if (pos!.position !== from) return false;
      if (ev.firings.length) {
        await db.query(TURN_LOCK);
        const f = ev.firings.map((x) => x.firing);
        await db.query(`INSERT INTO events (kind, listing_id, payload, created_at)
          SELECT 'alert_fired', l, p, c FROM unnest($1::bigint[], $2::text[], $3::text[]) WITH ORDINALITY AS t(l, p, c, o) ORDER BY o`,
        [f.map((x) => x.listingId), ev.firings.map((x) => encodeChange(x.event)), f.map((x) => x.firedAt)]);
        await db.query(`INSERT INTO alert_firings (${FIRING_COLUMNS})
          SELECT * FROM unnest($1::text[], $2::text[], $3::bigint[], $4::bigint[], $5::bigint[], $6::text[], $7::text[], $8::boolean[], $9::text[])`,
        [f.map((x) => x.id), f.map((x) => x.alertId), f.map((x) => x.accountId), f.map((x) => x.listingId), f.map((x) => x.triggerEventId),
          f.map((x) => x.price), f.map((x) => x.currency), f.map((x) => x.inStock), f.map((x) => x.firedAt)]);
      }
      if (ev.updates.length) {
        const u = ev.updates;
        await db.query(`UPDATE alerts a SET state = t.s, last_fired_at = t.l, fire_count = t.n, updated_at = $5
          FROM unnest($1::text[], $2::text[], $3::text[], $4::int[]) AS t(id, s, l, n) WHERE a.id = t.id`,
        [u.map((x) => x.id), u.map((x) => x.state), u.map((x) => x.lastFiredAt), u.map((x) => x.fireCount), now]);
      }
      await db.query('UPDATE alert_evaluation SET position = $1 WHERE id = 1', [to]);
      if (ev.firings.length) await db.query(`SELECT pg_notify('${EVENTS_CHANNEL}', '')`);
      return true;
    });
  }
}

