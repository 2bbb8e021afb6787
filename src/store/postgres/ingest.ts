import type pg from 'pg';
import { profileOfListing } from '../../domain/listing-profile.js';
import { blockingKeys, chooseGroup, PROFILE_VERSION, type MatchProfile } from '../../domain/matching/index.js';
import { planIngest, type ListingState } from '../../domain/ingest-rules.js';
import type { NormalizedRecord } from '../../domain/ingest-record.js';
import type { Listing } from '../../domain/listing.js';
import { listingUuid } from '../derived.js';
import type { IngestBatchResult } from '../types.js';
import { toListing, type ListingRow } from '../sqlite/rows.js';
import { LISTING_COLUMNS, WRITE_COLUMNS, stateValues, writePlaceholder } from './columns.js';
import { RETRYABLE, numbered, one, rows, statement, type Db } from './sql.js';

/** Candidates considered per listing, as the SQLite writer takes them. */
const MAX_CANDIDATES = 40;
const PROFILE_CACHE = 100_000;
const HISTORY_WINDOW_MS = 90 * 86400_000;
const ATTEMPTS = 3;
/** Channel a committed batch with events notifies: instances LISTENing wake their event tail at once. */
export const EVENTS_CHANNEL = 'catalog_events';

const keyOf = (source: string, sku: string) => `${source}\u0000${sku}`;
const INSERT = `INSERT INTO listings (id, uuid, created_at, group_id, match_profile, ${WRITE_COLUMNS.join(', ')})
  SELECT n.id, ?, ?, CASE WHEN ?::boolean THEN coalesce(?::bigint, n.id) ELSE 0 END, ?, ${WRITE_COLUMNS.map(writePlaceholder).join(', ')}
  FROM (SELECT nextval('listings_id_seq') AS id) n RETURNING id`;
const UPDATE = `UPDATE listings SET ${WRITE_COLUMNS.map((c) => `${c} = ${writePlaceholder(c)}`).join(', ')},
  group_id = CASE WHEN ?::boolean THEN coalesce(?::bigint, id) ELSE group_id END,
  match_profile = CASE WHEN ?::boolean THEN ? ELSE match_profile END WHERE id = ?`;
const KEYS = `WITH d AS (DELETE FROM block_keys WHERE listing_id = ? AND key <> ALL(?::text[]))
  INSERT INTO block_keys (key, listing_id) SELECT DISTINCT x, ?::bigint FROM unnest(?::text[]) x ON CONFLICT DO NOTHING`;
// One round trip for a record's observation and events.
const OBSERVE_AND_EVENTS = `WITH o AS (INSERT INTO observations (listing_id, observed_at, price, currency, source) SELECT ?::bigint, ?, ?, ?, ? WHERE ?::boolean
    ON CONFLICT (listing_id, observed_at) DO UPDATE SET price = excluded.price, currency = excluded.currency, source = excluded.source)
  INSERT INTO events (kind, listing_id, payload, created_at)
    SELECT t.kind, ?::bigint, t.payload, ? FROM unnest(?::text[], ?::text[]) WITH ORDINALITY AS t(kind, payload, n) ORDER BY t.n`;
// As the SQLite writer takes them: keys most selective first, per key the lowest ids, the first
// MAX_CANDIDATES distinct listings with a profile; only those rows (and their profiles) are read.
const CANDIDATES = `WITH c AS (SELECT k.n, b.listing_id AS id FROM unnest(?::text[]) WITH ORDINALITY AS k(key, n)
    CROSS JOIN LATERAL (SELECT listing_id FROM block_keys b WHERE b.key = k.key AND b.listing_id <> ?
      ORDER BY b.listing_id LIMIT ${MAX_CANDIDATES}) b),
  f AS (SELECT id, min(n) AS n FROM c GROUP BY id)
  SELECT f.id, l.group_id, l.updated_at FROM f
  CROSS JOIN LATERAL (SELECT group_id, updated_at, match_profile FROM listings WHERE id = f.id) l -- by primary key, whatever the plan
  WHERE l.match_profile IS NOT NULL ORDER BY f.n, f.id LIMIT ${MAX_CANDIDATES}`;
const PROFILES = 'SELECT id, updated_at, match_profile FROM listings WHERE id = ANY(?::bigint[])';

/**
 * Writes ingest batches as the SQLite writer does: one transaction per batch on one connection,
 * the rules from planIngest, groups from the matching module, events in the same transaction.
 * Existing rows and their recent prices are read for the whole batch at once.
 */
export class PgIngestWriter {
  constructor(private readonly pool: pg.Pool) {}

  async write(records: NormalizedRecord[]): Promise<IngestBatchResult> {
    for (let attempt = 1; ; attempt++) {
      const client = await this.pool.connect();
      let broken: Error | undefined;
      try {
        await client.query('BEGIN');
        const result = await this.apply(client, records);
        if (result.events) await client.query(`SELECT pg_notify('${EVENTS_CHANNEL}', '')`);
        await client.query('COMMIT');
        return result;
      } catch (e) {
        await client.query('ROLLBACK').catch((err: Error) => { broken = err; });
        // Two instances inserting the same new (source, sku) at once: the loser runs its batch again.
        if (attempt < ATTEMPTS && RETRYABLE.has((e as { code?: string }).code ?? '')) continue;
        throw e;
      } finally {
        client.release(broken);
      }
    }
  }

  private async apply(db: Db, records: NormalizedRecord[]): Promise<IngestBatchResult> {
    const existing = await this.prefetch(db, records);
    const seen = new Set<string>();
    const touches = new Map<number, string>();
    const outcomes: IngestBatchResult['outcomes'] = [];
    let events = 0;
    let inserted = 0;
    for (const r of records) {
      const key = keyOf(r.source, r.sku);
      // A second record for the same listing in one batch must see what the first wrote.
      const prev = seen.has(key) ? await this.find(db, r.source, r.sku) : (existing.rows.get(key) ?? null);
      seen.add(key);
      const since = new Date(new Date(r.observedAt).getTime() - HISTORY_WINDOW_MS).toISOString();
      const recent = prev && prev.price !== r.price ? await this.recent(db, prev.id, since, existing.history) : [];
      const plan = planIngest(prev, r, recent);
      let id = prev?.id ?? 0;
      const uuid = prev?.uuid ?? listingUuid(r.source, r.sku);
      let keys: string[] = [];
      if (plan.state && plan.outcome === 'unchanged') {
        touches.set(id, plan.state.lastCheckedAt);
      } else if (plan.state) {
        touches.delete(id);
        let group: number | null = null;
        let profile: string | null = null;
        let parsed: MatchProfile | null = null;
        if (plan.regroup) ({ group, profile, parsed, keys } = await this.chooseGroup(db, id, plan.state));
        const values = stateValues(plan.state);
        if (prev) {
          await db.query({ ...statement(UPDATE), values: [...values, plan.regroup, group, plan.regroup, profile, id] });
        } else {
          id = (await one<{ id: number }>(db, INSERT, [uuid, r.observedAt, plan.regroup, group, profile, ...values], true))!.id;
          inserted++;
        }
        if (parsed) this.remember(id, plan.state.updatedAt, parsed);
      }
      const drafts = plan.events.map((draft) => draft(id, uuid));
      if (plan.regroup) await db.query({ ...statement(KEYS), values: [id, keys, id, keys] });
      if (plan.observe || drafts.length) {
        await db.query({
          ...statement(OBSERVE_AND_EVENTS),
          values: [id, r.observedAt, r.price, r.currency, r.source, plan.observe, id, r.observedAt, drafts.map((e) => e.kind), drafts.map((e) => JSON.stringify(e.payload))],
        });
      }
      events += drafts.length;
      outcomes.push({ line: r.line, outcome: plan.outcome, id });
    }
    if (touches.size) {
      await db.query(numbered(`UPDATE listings l SET last_checked_at = t.at FROM unnest(?::bigint[], ?::text[]) AS t(id, at) WHERE l.id = t.id`),
        [[...touches.keys()], [...touches.values()]]);
    }
    if (inserted) await db.query("UPDATE counters SET value = value + $1 WHERE name = 'listings'", [inserted]);
    return { outcomes, events };
  }

  private async prefetch(db: Db, records: NormalizedRecord[]) {
    const found = await rows<ListingRow>(db, `SELECT ${LISTING_COLUMNS} FROM listings l
      JOIN unnest(?::text[], ?::text[]) AS k(source, sku) ON l.source = k.source AND l.sku = k.sku`,
    [records.map((r) => r.source), records.map((r) => r.sku)]);
    const byKey = new Map(found.map((row) => [keyOf(row.source, row.sku), toListing(row)]));
    const changed = records.filter((r) => {
      const prev = byKey.get(keyOf(r.source, r.sku));
      return prev !== undefined && prev.price !== r.price;
    });
    const history = new Map<number, Array<{ at: string; price: string }>>();
    if (changed.length) {
      const oldest = changed.reduce((m, r) => (r.observedAt < m ? r.observedAt : m), changed[0].observedAt);
      const since = new Date(new Date(oldest).getTime() - HISTORY_WINDOW_MS).toISOString();
      const ids = changed.map((r) => byKey.get(keyOf(r.source, r.sku))!.id);
      for (const id of ids) history.set(id, []);
      for (const o of await rows<{ listing_id: number; observed_at: string; price: string }>(db,
        'SELECT listing_id, observed_at, price FROM observations WHERE listing_id = ANY(?::bigint[]) AND observed_at >= ? ORDER BY listing_id, observed_at',
        [ids, since])) {
        history.get(o.listing_id)!.push({ at: o.observed_at, price: o.price });
      }
    }
    return { rows: byKey, history };
  }

  /** By (source, sku), or by id when given. */
  private async find(db: Db, source: string | null, sku: string | null, id?: number): Promise<Listing | null> {
    const row = id !== undefined
      ? await one<ListingRow>(db, `SELECT ${LISTING_COLUMNS} FROM listings l WHERE id = ?`, [id], true)
      : await one<ListingRow>(db, `SELECT ${LISTING_COLUMNS} FROM listings l WHERE source = ? AND sku = ?`, [source, sku], true);
    return row ? toListing(row) : null;
  }

  /** Prices observed since `since`, oldest first; from the batch's prefetch unless this batch wrote some. */
  private async recent(db: Db, id: number, since: string, history: Map<number, Array<{ at: string; price: string }>>): Promise<string[]> {
    const pre = history.get(id);
    if (pre) {
      history.delete(id); // used once: a later record of the same listing reads the table, which has this batch's writes
      return pre.filter((o) => o.at >= since).map((o) => o.price);
    }
    return (await rows<{ price: string }>(db, 'SELECT price FROM observations WHERE listing_id = ? AND observed_at >= ? ORDER BY observed_at', [id, since], true))
      .map((o) => o.price);
  }

  /**
   * Parsed profiles of recent listings, by id and the listing's updated_at (a regroup always moves
   * it, so another writer's change is seen): blocking hits the same few products again and again,
   * and reading and parsing the profiles would dominate the import.
   */
  private readonly profiles = new Map<number, { version: string; profile: MatchProfile }>();

  private remember(id: number, version: string, profile: MatchProfile): void {
    this.profiles.delete(id);
    if (this.profiles.size >= PROFILE_CACHE) this.profiles.delete(this.profiles.keys().next().value as number);
    this.profiles.set(id, { version, profile });
  }

  private async candidates(db: Db, keys: string[], id: number) {
    const found = await rows<{ id: number; group_id: number; updated_at: string }>(db, CANDIDATES, [keys, id], true);
    const missing = found.filter((c) => this.profiles.get(c.id)?.version !== c.updated_at).map((c) => c.id);
    if (missing.length) {
      for (const r of await rows<{ id: number; updated_at: string; match_profile: string }>(db, PROFILES, [missing], true)) {
        let profile = JSON.parse(r.match_profile) as MatchProfile;
        if (profile.v !== PROFILE_VERSION) {
          // Stored by an older matcher: rebuild from the listing and store it again (as the SQLite writer does).
          const listing = await this.find(db, null, null, r.id);
          if (!listing) continue;
          profile = profileOfListing(listing);
          await db.query('UPDATE listings SET match_profile = $1 WHERE id = $2', [JSON.stringify(profile), r.id]);
        }
        this.remember(r.id, r.updated_at, profile);
      }
    }
    return found.flatMap((c) => {
      const hit = this.profiles.get(c.id);
      return hit ? [{ id: c.id, groupId: c.group_id, profile: hit.profile }] : [];
    });
  }

  private async chooseGroup(db: Db, id: number, s: ListingState) {
    const profile = profileOfListing(s);
    const keys = blockingKeys(profile);
    const candidates = keys.length ? await this.candidates(db, keys, id) : [];
    candidates.sort((a, b) => a.id - b.id);
    const choice = chooseGroup(profile, candidates);
    return { group: choice?.groupId ?? null, profile: JSON.stringify(profile), parsed: profile, keys };
  }
}
