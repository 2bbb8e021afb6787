import type { Database, Statement, Transaction } from 'better-sqlite3';
import { heapNearLimit } from '../../runtime/heap.js';
import { profileOfListing } from '../../domain/listing-profile.js';
import { adoptCompact, blockingKeys, BulkMatcher, chooseGroup, decodeProfile, encodeProfile, KeyNumbers, MAX_KEYS, type MatchProfile } from '../../domain/matching/index.js';
import { planIngest, type ListingState } from '../../domain/ingest-rules.js';
import { indexedCategory, indexForm } from '../../domain/search-text.js';
import type { KnownLine, NormalizedRecord, StoredColumns } from '../../domain/ingest-record.js';
import { historyDiscountPct, sgdMinor, storedColumns } from '../../domain/listing-columns.js';
import { listingUuid } from '../../domain/listing-id.js';
import type { BulkFinish, IngestBatchResult, KnownBatchResult } from '../types.js';
import { buildReadIndexes, finishBulkLoad, startBulkLoad } from './bulk-load.js';
import { WalCheckpointer } from './checkpointer.js';
import type { WorkerModule } from '../../runtime/worker-module.js';
import { UnboundedMap } from '../../domain/id-caches.js';
import { MatchCandidates } from './ingest-candidates.js';
import { matchedInWorkers, matchWorkersAvailable, type MatchWorkers } from './pending-parallel.js';
import { eachMatched, PENDING_SQL, readPending, type MatchedBatch } from './pending-profiles.js';
import { LISTING_COLUMN_COUNT, listingColumns } from './listing-reads.js';
import { StoredRowListing } from '../sql/listing-row.js';

/** Where a worker module is, when not beside this one (tests run the TypeScript sources). */
export type WorkerRunner = WorkerModule;

const HISTORY_WINDOW_MS = 90 * 86400_000;
/** Where `find` and `byId` put whether the listing is pending (after the listing's columns). */
const PENDING = LISTING_COLUMN_COUNT;

/** The listing columns an ingest writes, in the order `stateValues` gives them. */
const COLUMNS = ['source', 'sku', 'merchant_id', 'title', 'description', 'brand', 'category', 'category_path', 'category_key', 'gtin', 'mpn',
  'price', 'currency', 'price_sgd', 'price_usd', 'price_sgd_minor', 'original_price', 'discount_pct', 'history_discount_pct', 'url', 'domain',
  'affiliate_url', 'image_url', 'rating', 'review_count', 'region', 'country_code', 'in_stock', 'stock_level', 'shipping_days', 'specs',
  'metadata', 'variants', 'price_trend', 'reference_price', 'last_checked_at', 'data_updated_at', 'updated_at', 'accessory'] as const;

/** The state's column values; `stored` (worked out from the record the state was built from) saves the writer that work. */
function stateValues(s: ListingState, stored: StoredColumns = storedColumns(s)): unknown[] {
  return [
    s.source, s.sku, s.merchantId, s.title, s.description, s.brand, s.category, stored.categoryPath, stored.categoryKey, s.gtin, s.mpn,
    s.price, s.currency, s.priceSgd, s.priceUsd, s.priceSgd ? sgdMinor(s.priceSgd) : 0, s.originalPrice, stored.discountPct,
    historyDiscountPct(s), s.url, stored.domain,
    s.affiliateUrl, s.imageUrl, s.rating, s.reviewCount, s.region, s.countryCode, s.inStock == null ? null : s.inStock ? 1 : 0,
    s.stockLevel, s.shippingDays, stored.specs, stored.metadata, stored.variants, s.priceTrend, s.referencePrice,
    s.lastCheckedAt, s.dataUpdatedAt, s.updatedAt, stored.accessory ? 1 : 0,
  ];
}

/**
 * Settings for a connection that imports (the `catalog import` command): checkpoints every
 * ~100 MB of WAL instead of every 4 MB, so a page rewritten by many batches is copied into the
 * database once per checkpoint rather than once per few batches, with far fewer fsyncs. WAL mode
 * and synchronous=NORMAL stay: a committed batch survives a crash of the process.
 */
function tuneForImport(db: Database): void {
  const pageSize = db.pragma('page_size', { simple: true }) as number;
  db.pragma(`wal_autocheckpoint = ${Math.round(100_000_000 / pageSize)}`);
}

const isKnown = (r: NormalizedRecord | KnownLine): r is KnownLine => (r as KnownLine).known === true;

const marks = (n: number) => Array.from({ length: n }, () => '?').join(', ');

/**
 * Writes ingest batches: one transaction per batch, listing + observation + events + group together.
 * A new listing's group is chosen before its row is written (its id is the next rowid, which
 * SQLite would give it anyway), so the row is written once, group and profile included.
 *
 * In a bulk load the listings are stored first and matched after (`finishBulk`): a stored but
 * not yet matched listing is *pending* (its own group, no profile, no blocking keys). Matching
 * them in id order, each against the listings before it, is what row-by-row ingest does, so the
 * groups come out the same; each listing is matched on its state at the end of the load.
 */
export class SqliteIngestWriter {
  private readonly s: Record<string, Statement>;
  /** UPDATE statements by the columns they set (see `update`). */
  private readonly updates = new Map<string, Statement>();
  private readonly run: Transaction<(items: Array<NormalizedRecord | KnownLine>) => KnownBatchResult>;
  private readonly matchChunk: Transaction<(batch: MatchedBatch) => boolean>;
  private readonly candidates: MatchCandidates;
  private readonly keyInserts: Statement[];
  private readonly stagedKeyInserts: Statement[];
  /** The event log's head after our last batch: another writer moving it invalidates what we hold. */
  private lastEventSeen = -1;
  /** In a bulk load (see bulk-load.ts): keys go to the staging table, candidates come from memory only. */
  private bulk = false;
  /**
   * In a bulk load, the id of each (source, sku) it stored: their unique index is built at its end,
   * and any other listing is new without a read.
   */
  private loaded = new UnboundedMap<string, number>();
  /** Whether a bulk load has moved on to matching, and `loaded` is gone (a write then ends the load). */
  private storedAll = false;
  /** A bulk load's matching on this thread (without match workers), and its key numbers; null when none runs here. */
  private matcher: { matcher: BulkMatcher; numbering: KeyNumbers } | null = null;
  /** Whether the match worker stopped as its heap neared the limit. */
  private matcherFull = false;
  /** Whether match workers matched this load: no matcher here has seen what they matched. */
  private matchedElsewhere = false;
  /** In an import session or a bulk load of a file database: the WAL checkpoints, off this thread. */
  private checkpointer: WalCheckpointer | null = null;
  /** Whose the checkpointer is: a bulk load's ends with it, an import session's with the store. */
  private checkpointsFor: 'import' | 'bulk' | null = null;
  /** Until the last checkpointer stopped has closed its connection. */
  private stopping: Promise<void> = Promise.resolve();
  /** Asked before each chunk of a bulk load's matching: true ends the load (see leaveBulk) rather than run out of heap. */
  private memoryFull: () => boolean = heapNearLimit;
  /** A bulk load's matching so far: listings matched from memory, and why it stopped doing so (finishBulk reports it). */
  private matchedInBulk = 0;
  private endedEarly: BulkFinish['endedEarly'] = undefined;

  /** `now`: the server's clock, which stamps `changed_at` (what modified_since reads) on every listing a batch writes. */
  constructor(private readonly db: Database, private readonly now: () => Date = () => new Date()) {
    this.s = {
      // Rows as arrays (StoredRowListing's), and whether the listing is pending (not yet matched).
      find: db.prepare(`SELECT ${listingColumns()}, match_profile IS NULL FROM listings WHERE source = ? AND sku = ?`).raw(),
      byId: db.prepare(`SELECT ${listingColumns()}, match_profile IS NULL FROM listings WHERE id = ?`).raw(),
      pending: db.prepare(PENDING_SQL),
      // Only while pending: another writer may have matched it since the batch was read.
      setGroup: db.prepare('UPDATE listings SET group_id = ?, match_profile = ? WHERE id = ? AND match_profile IS NULL'),
      insert: db.prepare(`INSERT INTO listings (id, uuid, group_id, match_profile, created_at, changed_at, line_hash, ${COLUMNS.join(', ')}) VALUES (${marks(COLUMNS.length + 7)})`),
      written: db.prepare(`SELECT ${COLUMNS.join(', ')} FROM listings WHERE id = ?`).raw(),
      // A later check goes beside the row, in listing_checks (listing-reads.ts lastCheckedAt), never lowering
      // it (see `check`). Two statements: as one INSERT ... SELECT it cost more than both (bench/RESULTS.md).
      checkable: db.prepare('SELECT 1 FROM listings WHERE id = ? AND last_checked_at < ?').pluck(),
      checkableKnown: db.prepare('SELECT 1 FROM listings WHERE id = ? AND last_checked_at < ? AND line_hash = ?').pluck(),
      check: db.prepare(`INSERT INTO listing_checks (listing_id, checked_at) VALUES (?, ?)
        ON CONFLICT (listing_id) DO UPDATE SET checked_at = excluded.checked_at WHERE excluded.checked_at > checked_at`),
      // A line with no hash (written escaped) leaves the listing's as it was: it still describes the listing.
      rehash: db.prepare('UPDATE listings SET line_hash = ? WHERE id = ? AND line_hash IS NOT ?'),
      knownRow: db.prepare('SELECT line_hash FROM listings WHERE id = ?').pluck(),
      ftsDelete: db.prepare('DELETE FROM listings_fts WHERE rowid = ?'),
      ftsInsert: db.prepare('INSERT INTO listings_fts (rowid, title, brand, category) VALUES (?, ?, ?, ?)'),
      observe: db.prepare('INSERT OR REPLACE INTO observations (listing_id, observed_at, price, currency, source) VALUES (?, ?, ?, ?, ?)'),
      recent: db.prepare('SELECT price FROM observations WHERE listing_id = ? AND observed_at >= ? ORDER BY observed_at').pluck(),
      event: db.prepare('INSERT INTO events (kind, listing_id, payload, created_at) VALUES (?, ?, ?, ?)'),
      keysDelete: db.prepare('DELETE FROM block_keys WHERE listing_id = ?'),
      maxId: db.prepare('SELECT coalesce(max(id), 0) FROM listings').pluck(),
      // The last catalog write's event: alert firings (appended by the evaluator) change no listing or group.
      lastEvent: db.prepare("SELECT coalesce((SELECT id FROM events WHERE kind <> 'alert_fired' ORDER BY id DESC LIMIT 1), 0)").pluck(),
      count: db.prepare("UPDATE counters SET value = value + ? WHERE name = 'listings'"),
      unlogged: db.prepare("UPDATE counters SET value = value + 1 WHERE name = 'unlogged_changes'"),
    };
    this.candidates = new MatchCandidates(db);
    const keyInserts = (table: string) => Array.from({ length: MAX_KEYS }, (_, i) =>
      db.prepare(`INSERT OR IGNORE INTO ${table} (key, listing_id) VALUES ${Array.from({ length: i + 1 }, () => '(?, ?)').join(', ')}`));
    this.keyInserts = keyInserts('block_keys');
    this.stagedKeyInserts = keyInserts('block_keys_staging');
    this.run = db.transaction((records: NormalizedRecord[]) => this.apply(records));
    // False, and nothing written, when a bulk load's memory stopped being the whole store, or
    // would outgrow the heap: the rest is then matched against the store, a little slower.
    this.matchChunk = db.transaction((batch: MatchedBatch) => {
      if (this.bulk) {
        const why = this.s.lastEvent.get() !== this.lastEventSeen ? 'another writer' : this.matcherFull || this.memoryFull() ? 'heap limit' : null;
        if (why) {
          this.endedEarly ??= { fromMemory: this.matchedInBulk, because: why };
          return false;
        }
        // Not matched by a matcher that saw the whole load: against the store, once the load has ended.
        if (batch.groups === null) return false;
      }
      const { ids, groups } = batch;
      eachMatched(batch, (k, text, keys) => {
        const id = ids[k];
        if (groups === null || !this.bulk) {
          // Against the store: the object path, as row-by-row ingest matches.
          const group = this.matchProfile(id, decodeProfile(text), { keys, profileText: text });
          if (this.s.setGroup.run(group.groupId, group.text, id).changes) this.index(id, group, false);
          return;
        }
        if (!this.s.setGroup.run(groups[k], text, id).changes) return;
        if (keys.length) this.stagedKeyInserts[keys.length - 1].run(...keys.flatMap((key) => [key, id]));
      });
      if (this.bulk) this.matchedInBulk += ids.length;
      // Groups changed with no event: servers' cached answers are stale.
      this.s.unlogged.run();
      return true;
    });
  }

  /** Records and known lines (see KnownLinesCapability), in line order: stops at a known line whose listing has changed since. */
  write(items: Array<NormalizedRecord | KnownLine>): KnownBatchResult {
    // Immediate: no other writer commits between the check of the event log and our writes.
    return this.run.immediate(items);
  }

  /**
   * Starts an import session (the `catalog import` command), bulk or not: until `endImport` the WAL
   * is checkpointed from a worker thread where the store is a file, as in a bulk load. Done by the
   * writer, a re-import's checkpoints took a fifth of its time (bench/RESULTS.md).
   */
  startImport(opts: { checkpointWorker?: WorkerRunner } = {}): void {
    // Once started, the checkpointer owns the connection's setting (its safety net).
    if (this.checkpointer) return;
    tuneForImport(this.db);
    this.checkpointer = WalCheckpointer.start(this.db, opts.checkpointWorker);
    this.checkpointsFor = 'import';
  }

  /** Ends an import session: the writer checkpoints as before it, once no checkpoint worker holds the store (see WalCheckpointer.stop). */
  async endImport(): Promise<void> {
    this.stopCheckpoints('import');
    await this.stopping;
  }

  /** Stops the checkpointer when it is `owner`'s; `stopping` then waits for its worker to close. */
  private stopCheckpoints(owner: 'import' | 'bulk'): void {
    if (this.checkpointsFor !== owner || !this.checkpointer) return;
    this.stopping = this.checkpointer.stop();
    this.checkpointer = null;
    this.checkpointsFor = null;
  }

  /**
   * Starts a bulk load if the store is empty (see bulk-load.ts): listings are stored pending and
   * matched at `finishBulk`, from memory. Until then the deferred indexes are missing, and a worker
   * thread checkpoints the WAL where the store is a file (checkpointer.ts).
   */
  startBulk(opts: { checkpointWorker?: WorkerRunner; memoryFull?: () => boolean } = {}): boolean {
    if (this.bulk || !startBulkLoad(this.db)) return false;
    this.bulk = true;
    this.memoryFull = opts.memoryFull ?? heapNearLimit;
    this.matchedInBulk = 0;
    this.endedEarly = undefined;
    if (!this.checkpointer) {
      this.checkpointer = WalCheckpointer.start(this.db, opts.checkpointWorker);
      this.checkpointsFor = 'bulk';
    }
    this.candidates.clear();
    this.matcherFull = false;
    this.matchedElsewhere = false;
    this.lastEventSeen = this.s.lastEvent.get() as number;
    return true;
  }

  /**
   * Ends a bulk load (a no-op outside one): the read indexes are built, the pending listings
   * matched from memory (their keys staged), then the staged keys merged and the group index built.
   * Where the store is a file, one worker thread builds the profiles and a second matches them
   * (BulkMatcher), so this thread only stores the groups; elsewhere all of it runs here.
   */
  async finishBulk(opts: { onGrouped?: (grouped: number) => void; workers?: MatchWorkers } = {}): Promise<BulkFinish> {
    if (!this.bulk) return { readIndexMs: 0, grouped: 0, groupMs: 0, indexMs: 0 };
    let t = performance.now();
    // What only the storing needed: a million keys the collector would otherwise go over again and again.
    this.loaded = new UnboundedMap();
    this.storedAll = true;
    // Reads during the matching (a server beside the import) find their indexes already.
    buildReadIndexes(this.db);
    const readIndexMs = performance.now() - t;
    t = performance.now();
    let grouped = 0;
    if (!this.db.memory && (opts.workers || matchWorkersAvailable())) {
      const full = () => { this.matcherFull = true; };
      for await (const batch of matchedInWorkers(this.db.name, 0, { workers: opts.workers, onFull: full })) {
        if (!this.matchChunk.immediate(batch)) break;
        grouped += batch.ids.length;
        opts.onGrouped?.(grouped);
      }
      this.matchedElsewhere = true;
    }
    // Whatever the workers did not match (all of it without them), here.
    grouped += this.matchPending((n) => opts.onGrouped?.(grouped + n));
    const endedEarly = this.endedEarly;
    if (!this.bulk) return { readIndexMs, grouped, groupMs: performance.now() - t, indexMs: 0, ...(endedEarly && { endedEarly }) };
    const groupMs = performance.now() - t;
    t = performance.now();
    this.endBulk();
    return { readIndexMs, grouped, groupMs, indexMs: performance.now() - t };
  }

  private endBulk(): void {
    this.bulk = false;
    this.storedAll = false;
    this.stopCheckpoints('bulk');
    this.loaded = new UnboundedMap();
    // The memory goes first: a load that ends near the heap limit would otherwise build its indexes
    // there, between back-to-back full collections.
    this.matcher = null;
    finishBulkLoad(this.db);
  }

  /**
   * A bulk load ends early when its memory is no longer the whole store (another writer wrote)
   * or nears the heap limit: its keys are merged, indexes built, and candidates read from the store from then on.
   */
  private leaveBulk(): void {
    this.endBulk();
    this.candidates.clear();
  }

  /** Ends a bulk load early (see leaveBulk) and matches what it stored against the store. */
  private endBulkEarly(): void {
    this.leaveBulk();
    this.matchPending();
  }

  /**
   * Matches every pending listing, in id order, each in the transaction that stores its group and
   * keys (also on opening a store whose loader died). When another writer writes during a bulk
   * load's matching, the load ends and the rest is matched against the store.
   */
  matchPending(onGrouped?: (grouped: number) => void): number {
    let grouped = 0;
    for (let after = 0; ;) {
      const here = this.bulk && !this.matchedElsewhere ? (this.matcher ??= { matcher: new BulkMatcher(), numbering: new KeyNumbers() }) : null;
      const pending = readPending(this.s.pending, after, here?.numbering ?? new KeyNumbers());
      if (!pending.ids.length) return grouped;
      const { ids, texts, textEnds, keys, keyEnds } = pending;
      const batch = { ids, groups: here ? here.matcher.match(pending) : null, texts, textEnds, keys, keyEnds };
      if (!this.matchChunk.immediate(batch)) {
        this.leaveBulk();
        continue;
      }
      after = pending.ids[pending.ids.length - 1];
      grouped += pending.ids.length;
      onGrouped?.(grouped);
    }
  }

  private apply(items: Array<NormalizedRecord | KnownLine>): KnownBatchResult {
    // Another writer (a CLI import beside the server) may have moved groups since our last batch;
    // a bulk load's memory is then no longer the whole store, so the load ends here.
    if (this.s.lastEvent.get() !== this.lastEventSeen) {
      if (this.bulk) this.endBulkEarly();
      else this.candidates.clear();
    }
    // A write once the matching has begun (its `loaded` is gone): as from another writer.
    if (this.bulk && this.storedAll) this.endBulkEarly();
    let lastId = this.s.maxId.get() as number;
    // Taken inside the write lock: batches commit in the order of their change times.
    const changedAt = this.now().toISOString();
    const outcomes: IngestBatchResult['outcomes'] = [];
    let events = 0;
    let inserted = 0;
    let stoppedAt: number | undefined;
    for (let i = 0; i < items.length; i++) {
      const r = items[i];
      if (isKnown(r)) {
        // The line the listing was stored from, again: at most a later check. Else `knownRow` says why not.
        if (!this.check(r.id, r.observedAt, r.hash) && this.s.knownRow.get(r.id) !== r.hash) {
          stoppedAt = i;
          break;
        }
        outcomes.push({ line: r.line, outcome: 'unchanged', id: r.id });
        continue;
      }
      const sourceSku = this.bulk ? `${r.source}\u0000${r.sku}` : '';
      let row: unknown[] | undefined;
      if (!this.bulk) row = this.s.find.get(r.source, r.sku) as unknown[] | undefined;
      else {
        const known = this.loaded.get(sourceSku);
        if (known !== undefined) row = this.s.byId.get(known) as unknown[] | undefined;
      }
      const prev = row ? new StoredRowListing(row) : null;
      const recent = prev && prev.price !== r.price ? this.recentPrices(prev.id, r.observedAt) : [];
      const plan = planIngest(prev, r, recent);
      // A pending listing is matched later, on its latest state; a matched one is matched again now.
      const regroup = plan.regroup && !(row && row[PENDING] === 1);
      // Regrouping a matched listing deletes its keys: a bulk load ends first (its keys are staged).
      if (prev && regroup && this.bulk) this.endBulkEarly();
      let id = prev?.id ?? 0;
      const uuid = prev?.uuid ?? r.stored?.uuid ?? r.prepared?.uuid ?? listingUuid(r.source, r.sku);
      const lineHash = r.stored?.lineHash ?? null;
      if (plan.state && plan.outcome === 'unchanged') {
        this.check(id, plan.state.lastCheckedAt);
        if (lineHash !== null) this.s.rehash.run(lineHash, id, lineHash);
      } else if (plan.state) {
        const values = stateValues(plan.state, r.stored);
        if (!prev) id = ++lastId;
        // In a bulk load a new listing is stored pending: its own group, matched at the end.
        const group = regroup && !(this.bulk && !prev) ? this.chooseGroup(id, plan.state, r) : null;
        if (!prev) {
          this.s.insert.run(id, uuid, group ? group.groupId : id, group ? group.text : null, r.observedAt, changedAt, lineHash, ...values);
          inserted++;
          if (this.bulk) this.loaded.set(sourceSku, id);
        } else {
          this.update(id, values, [changedAt, lineHash, ...(group ? [group.groupId, group.text] : [])]);
        }
        const category = r.stored?.searchCategory ?? indexedCategory(r.categoryPath, r.category);
        // The path is searched, not only the category: a path moved under the same category is indexed again.
        if (!prev || plan.regroup || indexedCategory(prev.categoryPath, prev.category) !== category) {
          if (prev) this.s.ftsDelete.run(id);
          this.s.ftsInsert.run(id, indexForm(r.title), r.brand && indexForm(r.brand), category);
        }
        if (group) this.index(id, group, prev !== null);
      }
      if (plan.observe) this.s.observe.run(id, r.observedAt, r.price, r.currency, r.source);
      for (const draft of plan.events) {
        const e = draft(id, uuid);
        this.s.event.run(e.kind, id, e.json, r.observedAt);
        events++;
      }
      outcomes.push({ line: r.line, outcome: plan.outcome, id });
    }
    if (inserted) this.s.count.run(inserted);
    this.lastEventSeen = this.s.lastEvent.get() as number;
    return { outcomes, events, ...(stoppedAt !== undefined && { stoppedAt }) };
  }

  /**
   * Moves a listing's last check to `at` when that is later, and (given `hash`) while its row still
   * has that line hash: whether it moved.
   */
  private check(id: number, at: string, hash?: string): boolean {
    const checkable = hash === undefined ? this.s.checkable.get(id, at) : this.s.checkableKnown.get(id, at, hash);
    return checkable !== undefined && this.s.check.run(id, at).changes > 0;
  }

  /**
   * Writes the columns whose values changed, and `also` (changed_at, line_hash, then group_id and
   * match_profile when given). SQLite rewrites every index on a column that is set, to the same
   * value or not: a price change set every column, and rewrote pages of all eleven indexes on
   * listings, where at most six hold what changed.
   */
  private update(id: number, values: unknown[], also: unknown[]): void {
    const before = this.s.written.get(id) as unknown[];
    const changed: number[] = [];
    for (let c = 0; c < COLUMNS.length; c++) if (values[c] !== before[c]) changed.push(c);
    const key = `${changed.join(',')}/${also.length}`;
    let st = this.updates.get(key);
    if (!st) {
      const sets = [...changed.map((c) => `${COLUMNS[c]} = ?`), 'changed_at = ?', 'line_hash = ?', ...(also.length > 2 ? ['group_id = ?', 'match_profile = ?'] : [])];
      st = this.db.prepare(`UPDATE listings SET ${sets.join(', ')} WHERE id = ?`);
      // A feed changes a few kinds of fields: a few dozen statements. Any more are made again as needed.
      if (this.updates.size >= 256) this.updates.clear();
      this.updates.set(key, st);
    }
    st.run(...changed.map((c) => values[c]), ...also, id);
  }

  private recentPrices(id: number, observedAt: string): string[] {
    const since = new Date(new Date(observedAt).getTime() - HISTORY_WINDOW_MS).toISOString();
    return this.s.recent.all(id, since) as string[];
  }

  /** The group a listing joins (its own id for a new group), from the candidates its blocking keys find. */
  private chooseGroup(id: number, s: ListingState, r: NormalizedRecord) {
    // What was prepared from the record (off the writer's thread) is the state's: the matched fields come from the record.
    const prepared = r.matchProfile ? r.prepared : undefined;
    const profile = r.matchProfile ?? profileOfListing(s);
    if (prepared) adoptCompact(profile, prepared.compact);
    return this.matchProfile(id, profile, prepared);
  }

  private matchProfile(id: number, profile: MatchProfile, prepared?: { keys: string[]; profileText: string }) {
    const keys = prepared?.keys ?? blockingKeys(profile);
    const choice = chooseGroup(profile, this.candidates.find(id, keys));
    return { groupId: choice?.groupId ?? id, profile, keys, text: prepared?.profileText ?? encodeProfile(profile) };
  }

  /** Stores the listing's blocking keys (replacing an existing listing's) and keeps its profile at hand. */
  private index(id: number, g: { groupId: number; profile: MatchProfile; keys: string[]; text: string }, existing: boolean): void {
    if (existing) {
      this.candidates.removing(id);
      this.s.keysDelete.run(id);
    }
    // One statement for all of a listing's keys (blockingKeys gives at most MAX_KEYS, distinct).
    if (g.keys.length) (this.bulk ? this.stagedKeyInserts : this.keyInserts)[g.keys.length - 1].run(...g.keys.flatMap((k) => [k, id]));
    for (const key of g.keys) this.candidates.added(key, id);
    this.candidates.remember(id, g.groupId, g.profile, g.text);
  }
}
