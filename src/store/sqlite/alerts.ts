import type { Database } from 'better-sqlite3';
import type { AlertFiring, AlertRecord, Evaluation } from '../../domain/alerts.js';
import { encodeChange } from '../../domain/event-codec.js';
import { ALERT_COLUMNS, alertValues, FIRING_COLUMNS, toAlert, toFiring, type AlertRow, type FiringRow } from '../sql/alert-rows.js';
import type { AlertStore } from '../types.js';
import { writeBriefly } from './webhooks.js';

const ACTIVE = "state <> 'fired' AND (expires_at IS NULL OR expires_at > ?)";

/** Alerts on the embedded store: each write is one statement or one transaction under SQLite's write lock. */
export class SqliteAlerts implements AlertStore {
  constructor(private readonly db: Database) {}

  async create(rec: AlertRecord, maxActive: number, now: string): Promise<boolean> {
    // The count and the insert in one statement: concurrent creations cannot both pass the maximum.
    const info = this.db.prepare(`INSERT INTO alerts (${ALERT_COLUMNS}) SELECT ${ALERT_COLUMNS.split(', ').map(() => '?').join(', ')}
      WHERE (SELECT count(*) FROM alerts WHERE account_id = ? AND ${ACTIVE}) < ?`).run(...alertValues(rec), rec.accountId, now, maxActive);
    return info.changes === 1;
  }

  async get(accountId: number, id: string): Promise<AlertRecord | null> {
    const row = this.db.prepare(`SELECT ${ALERT_COLUMNS} FROM alerts WHERE id = ? AND account_id = ?`).get(id, accountId) as AlertRow | undefined;
    return row ? toAlert(row) : null;
  }

  async list(accountId: number, opts: { limit: number; offset: number }): Promise<{ items: AlertRecord[]; total: number }> {
    const rows = this.db.prepare(`SELECT ${ALERT_COLUMNS} FROM alerts WHERE account_id = ? ORDER BY created_at DESC, id DESC LIMIT ? OFFSET ?`)
      .all(accountId, opts.limit, opts.offset) as AlertRow[];
    const total = this.db.prepare('SELECT count(*) FROM alerts WHERE account_id = ?').pluck().get(accountId) as number;
    return { items: rows.map(toAlert), total };
  }

  async activeCount(accountId: number, now: string): Promise<number> {
    return this.db.prepare(`SELECT count(*) FROM alerts WHERE account_id = ? AND ${ACTIVE}`).pluck().get(accountId, now) as number;
  }

  async delete(accountId: number, id: string): Promise<boolean> {
    return this.db.prepare('DELETE FROM alerts WHERE id = ? AND account_id = ?').run(id, accountId).changes === 1;
  }

  async firings(accountId: number, alertId: string, opts: { limit: number; offset: number }): Promise<{ items: AlertFiring[]; total: number } | null> {
    if (!this.db.prepare('SELECT 1 FROM alerts WHERE id = ? AND account_id = ?').get(alertId, accountId)) return null;
    const rows = this.db.prepare(`SELECT ${FIRING_COLUMNS} FROM alert_firings WHERE alert_id = ? ORDER BY seq DESC LIMIT ? OFFSET ?`)
      .all(alertId, opts.limit, opts.offset) as FiringRow[];
    const total = this.db.prepare('SELECT count(*) FROM alert_firings WHERE alert_id = ?').pluck().get(alertId) as number;
    return { items: rows.map(toFiring), total };
  }

  async pendingFor(listingIds: readonly number[], at: string): Promise<AlertRecord[]> {
    if (!listingIds.length) return [];
    const rows = this.db.prepare(`SELECT ${ALERT_COLUMNS} FROM alerts WHERE listing_id IN (SELECT value FROM json_each(?))
      AND ${ACTIVE} ORDER BY created_at, id`).all(JSON.stringify(listingIds), at) as AlertRow[];
    return rows.map(toAlert);
  }

  async evaluationPosition(): Promise<number> {
    return this.db.prepare('SELECT position FROM alert_evaluation WHERE id = 1').pluck().get() as number;
  }

  async apply(from: number, to: number, ev: Evaluation, now: string): Promise<boolean> {
    const moved = this.db.prepare('UPDATE alert_evaluation SET position = ? WHERE id = 1 AND position = ?');
    const firing = this.db.prepare(`INSERT INTO alert_firings (${FIRING_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`);
    const event = this.db.prepare('INSERT INTO events (kind, listing_id, payload, created_at) VALUES (?, ?, ?, ?)');
    const update = this.db.prepare('UPDATE alerts SET state = ?, last_fired_at = ?, fire_count = ?, updated_at = ? WHERE id = ?');
    return writeBriefly(this.db, () => this.db.transaction(() => {
      if (moved.run(to, from).changes !== 1) return false;
      for (const { firing: f, event: e } of ev.firings) {
        firing.run(f.id, f.alertId, f.accountId, f.listingId, f.triggerEventId, f.price, f.currency, f.inStock === null ? null : f.inStock ? 1 : 0, f.firedAt);
        event.run(e.kind, f.listingId, encodeChange(e), f.firedAt);
      }
      for (const u of ev.updates) update.run(u.state, u.lastFiredAt, u.fireCount, now, u.id);
      return true;
    }).immediate(), false);
  }
}
