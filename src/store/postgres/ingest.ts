import type pg from 'pg';
import type { NormalizedRecord } from '../../domain/ingest-record.js';
import type { Listing } from '../../domain/listing.js';
import { toListing, type ListingRow } from '../sql/listing-row.js';
import type { IngestBatchResult } from '../types.js';
import { LISTING_COLUMNS } from './columns.js';
import { GroupAssigner } from './ingest-match.js';
import { keyOf, planBatch, sinceOf, type BatchListing, type BatchStart } from './ingest-plan.js';
import { writeListings, writeSide } from './ingest-write.js';
import { MatchCache } from './match-cache.js';
import { RETRYABLE, rows, type Db } from './sql.js';

const ATTEMPTS = 3;
/** Listings this writer adds before it first runs ANALYZE. */
const ANALYZE_MIN = 10_000;
/** Groups chosen between two listing writes. */
const CHOOSE_SLICE = 500;
/** Channel a committed batch with events notifies: instances LISTENing wake their event tail at once. */
export const EVENTS_CHANNEL = 'catalog_events';

/**
 * Every batch bumps this counter first: its row lock makes writers take turns (as SQLite's write
 * lock does), and a value other than our last + 1 says another writer came in between.
 */
const TURN = `INSERT INTO counters (name, value) VALUES ('ingest_batches', 1)
  ON CONFLICT (name) DO UPDATE SET value = counters.value + 1 RETURNING value`;
const EXISTING = `SELECT ${LISTING_COLUMNS} FROM listings l
  JOIN unnest(?::text[], ?::text[]) AS k(source, sku) ON l.source = k.source AND l.sku = k.sku`;
const HISTORY = `SELECT listing_id, observed_at, price FROM observations
  WHERE listing_id = ANY(?::bigint[]) AND observed_at >= ? ORDER BY listing_id, observed_at`;
const RESERVE = "SELECT nextval('listings_id_seq') AS id FROM generate_series(1, ?::int)";

/**
 * Writes ingest batches with the SQLite writer's decisions (planIngest per record, groups by the
 * matching module, events in the same transaction) in a fixed number of round trips per batch:
 * the batch's listings, recent prices and block-key posting lists are read at once, every record
 * is decided in memory in order, and the result is written with set-based statements.
 */
export class PgIngestWriter {
  private readonly cache = new MatchCache();
  private readonly groups = new GroupAssigner(this.cache);
  /** The turn counter after our last committed batch; -1: nothing known. */
  private lastTurn = -1;
  private insertedSinceAnalyze = 0;
  private sizeAtAnalyze = 0;

  /** `now`: the server's clock, which stamps `changed_at` on every listing a batch writes. */
  constructor(private readonly pool: pg.Pool, private readonly now: () => Date = () => new Date()) {}

  async write(records: NormalizedRecord[]): Promise<IngestBatchResult> {
    for (let attempt = 1; ; attempt++) {
      const client = await this.pool.connect();
      let broken: Error | undefined;
      try {
        const [, taken] = await Promise.all([client.query('BEGIN'), rows<{ value: number }>(client, TURN, [], true)]);
        const turn = taken[0]?.value ?? -1;
        if (turn !== this.lastTurn + 1 || turn < 0) this.cache.clear();
        const result = await this.apply(client, records);
        await Promise.all([result.events ? client.query(`SELECT pg_notify('${EVENTS_CHANNEL}', '')`) : null, client.query('COMMIT')]);
        this.lastTurn = turn;
        this.cache.trim();
        await this.analyzeWhenGrown(client, result);
        return result;
      } catch (e) {
        // The cache already holds this batch's changes: forget it all.
        this.cache.clear();
        this.lastTurn = -1;
        await client.query('ROLLBACK').catch((err: Error) => { broken = err; });
        // Two instances inserting the same new (source, sku) at once: the loser runs its batch again.
        if (attempt < ATTEMPTS && RETRYABLE.has((e as { code?: string }).code ?? '')) continue;
        throw e;
      } finally {
        client.release(broken);
      }
    }
  }

  /**
   * Plans need statistics, and autovacuum may be off or behind: after this writer has added half
   * again as many listings as there were at its last ANALYZE (and at least ANALYZE_MIN), it runs
   * one (a sample of 30k rows, so each stays short; about a dozen over a million-row import).
   */
  private async analyzeWhenGrown(db: Db, result: IngestBatchResult): Promise<void> {
    for (const o of result.outcomes) if (o.outcome === 'inserted') this.insertedSinceAnalyze++;
    if (this.insertedSinceAnalyze < Math.max(ANALYZE_MIN, this.sizeAtAnalyze / 2)) return;
    this.insertedSinceAnalyze = 0;
    try {
      await db.query('ANALYZE listings');
      this.sizeAtAnalyze = (await rows<{ value: number }>(db, "SELECT value FROM counters WHERE name = 'listings'"))[0]?.value ?? 0;
    } catch {
      // The batch is committed; fresher statistics are only a help (the next threshold tries again).
    }
  }

  private async apply(db: Db, records: NormalizedRecord[]): Promise<IngestBatchResult> {
    const plan = planBatch(records, await this.start(db, records));
    // Taken once the batch holds the writers' turn (TURN): batches commit in the order of their change times.
    const changedAt = this.now().toISOString();
    const keys = await this.groups.select(db, plan.regroups);
    // Statements go out while groups are still being chosen (the writer's connections pipeline), so
    // the database works meanwhile: first everything that does not depend on groups, then listings
    // slice by slice as their groups are decided.
    const sent: Array<Promise<unknown>> = [];
    const send = (p: Promise<unknown>) => {
      p.catch(() => undefined); // awaited below; a failure must not also surface as unhandled
      sent.push(p);
    };
    send(writeSide(db, plan, keys));
    const ready = plan.listings.filter((e) => e.written).sort((a, b) => a.lastOp - b.lastOp);
    let next = 0;
    const sendDecided = (beforeOp: number) => {
      const slice: BatchListing[] = [];
      while (next < ready.length && ready[next].lastOp < beforeOp) slice.push(ready[next++]);
      if (slice.length) send(writeListings(db, slice, changedAt));
    };
    sendDecided(0);
    for (let from = 0; from < plan.regroups.length; from += CHOOSE_SLICE) {
      this.groups.choose(plan.regroups, from, from + CHOOSE_SLICE);
      sendDecided(from + CHOOSE_SLICE);
    }
    await Promise.all(sent);
    return plan.result;
  }

  /** The table's side of the batch in three reads: its listings, their recent prices, ids for the new ones. */
  private async start(db: Db, records: NormalizedRecord[]): Promise<BatchStart> {
    const pairs = new Map<string, [string, string]>();
    for (const r of records) pairs.set(keyOf(r.source, r.sku), [r.source, r.sku]);
    const found = await rows<ListingRow>(db, EXISTING, [[...pairs.values()].map((p) => p[0]), [...pairs.values()].map((p) => p[1])], true);
    const existing = new Map<string, Listing>(found.map((row) => [keyOf(row.source, row.sku), toListing(row)]));

    // A listing's price can change in this batch only if some record of it differs from the stored price.
    const changing = new Set<number>();
    let oldest: string | null = null;
    for (const r of records) {
      const prev = existing.get(keyOf(r.source, r.sku));
      if (prev && prev.price !== r.price) changing.add(prev.id);
      if (oldest === null || r.observedAt < oldest) oldest = r.observedAt;
    }
    const history = new Map<number, Array<{ at: string; price: string }>>();
    if (changing.size && oldest !== null) {
      const since = sinceOf(oldest);
      for (const id of changing) history.set(id, []);
      for (const o of await rows<{ listing_id: number; observed_at: string; price: string }>(db, HISTORY, [[...changing], since], true)) {
        history.get(o.listing_id)!.push({ at: o.observed_at, price: o.price });
      }
    }

    const fresh = pairs.size - existing.size;
    const newIds = fresh ? (await rows<{ id: number }>(db, RESERVE, [fresh], true)).map((r) => r.id).sort((a, b) => a - b) : [];
    return { existing, history, newIds };
  }
}
