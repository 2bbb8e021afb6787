import type { Listing } from '../../domain/listing.js';
import { derivedColumns } from '../../domain/listing-columns.js';
import type { CatalogStore, CategoryCount, EventLogStore, SearchQuery } from '../../store/types.js';
import { TwoGenerationCache } from '../../domain/id-caches.js';
import { forgivingQuery, type TermGroup } from '../../domain/search-text.js';
import { SearchIndex, type IndexAnswer, type IndexDoc } from './search-index.js';

/** A search waits for the index to apply at most this many new events; beyond, the store answers while it catches up. */
const INLINE_LAG = 5000;
const BATCH = 1000;
const LOAD_CHUNK = 5000;
/** Answers remembered per generation (up to two): a category page, a similar-products candidate list, a popular query. */
const ANSWERS = 1000;

export type IndexState = 'off' | 'building' | 'ready' | 'unavailable';
export type HeadReads = 'search' | 'turn' | 'own-writes';

/**
 * The search index of one process, kept in step with the shared store through the event log: built
 * from a scan of every listing, then every event's listing is read again and re-indexed. Each search
 * first applies what the log gained since its head was last read (`head` in the constructor says
 * when that is), so a listing written by any process (this one, a CLI import, another instance)
 * is searchable once committed.
 * Until the index is built, or for filters it does not hold, `search` returns null and the store answers.
 */
export class IndexedSearch {
  private index = new SearchIndex();
  private position = 0;
  private status: IndexState = 'off';
  private following: Promise<void> | null = null;
  /**
   * Answers of the index as it is now, by query: the index changes only by applying the log, which
   * moves `position` (or by a build, which replaces it), and either empties this, so a remembered
   * answer is the one the index would give.
   */
  private answers = new TwoGenerationCache<string, IndexAnswer>(ANSWERS);
  /** Forgiving forms of query texts against the vocabulary as it is now (kept and emptied with `answers`). */
  private forgivingForms = new TwoGenerationCache<string, TermGroup[] | null>(ANSWERS);
  private answersAt: { index: SearchIndex; position: number } | null = null;
  /** This process wrote since the index last read the log's head. */
  private stale = false;
  /** The head read in this turn of the event loop (`head: 'turn'`), or null. */
  private turnHead: number | null = null;

  /**
   * `head`: when a search reads the log's newest id first.
   * - `search`: before every search, so a listing committed by any writer is searchable at once.
   * - `turn`: once in a turn of the event loop, shared by the searches that arrived together
   *   (the embedded store: each read is a read transaction of its own, and under load a turn holds
   *   dozens of requests). A CLI import beside the server is searchable from the next turn.
   * - `own-writes`: only after this process's own writes (PostgreSQL, where a read is a round trip);
   *   other writers reach the index through the event tail (its poll, or at once via Redis).
   * In every mode a search waits for this process's own writes (`markStale`) and a catch-up under way.
   */
  constructor(private readonly catalog: CatalogStore, private readonly events: EventLogStore, private readonly opts: { head: HeadReads } = { head: 'search' }) {}

  /** This process committed events: the next search reads the head first. */
  markStale(): void {
    this.stale = true;
  }

  get state(): IndexState {
    return this.status;
  }

  get size(): number {
    return this.index.size;
  }

  /** Reads every listing into a fresh index; the old one (if any) serves until the new one is whole. */
  async build(): Promise<void> {
    this.status = this.status === 'ready' ? 'ready' : 'building';
    const index = new SearchIndex();
    const position = await this.events.lastId();
    let loaded = 0;
    for await (const doc of this.docs()) {
      if (!index.upsert(doc)) {
        // Ids beyond what the packed postings hold: the store's own search serves instead.
        this.status = 'unavailable';
        return;
      }
      if (++loaded % LOAD_CHUNK === 0) index.vocabulary.settle();
    }
    index.vocabulary.settle(true);
    this.index = index;
    this.position = position;
    this.status = 'ready';
    await this.catchUp();
  }

  /** Every listing's search columns, in chunks, with a turn of the event loop between them: the service answers while the index loads. */
  private async *docs(): AsyncIterable<IndexDoc> {
    for (let after = 0; ;) {
      const docs = await this.catalog.searchDocs(after, LOAD_CHUNK);
      yield* docs;
      if (docs.length < LOAD_CHUNK) return;
      after = docs[docs.length - 1].id;
      await new Promise((resolve) => setImmediate(resolve));
    }
  }

  /**
   * The index's answer, or null when the store must answer. `atHead`: the caller's request has
   * already brought the index to the log's head (`forgiving`), so the head is not read again.
   */
  async search(q: SearchQuery, atHead = false): Promise<IndexAnswer | null> {
    if (this.status !== 'ready' || q.filter.ids || q.filter.modifiedSince || q.filter.stockLevels) return null;
    if (!atHead && !(await this.current())) return null;
    this.forgetIfMoved();
    const key = JSON.stringify(q);
    let answer = this.answers.get(key);
    if (!answer) this.answers.set(key, (answer = this.index.search(q)));
    return answer;
  }

  /**
   * The text's forgiving form (`forgivingQuery`) against the index's vocabulary, brought up to the
   * log's head as `search` is: `{ terms }`, where terms is null when the text has no word. The
   * groups are shared between callers and must not be changed. null when the index cannot answer
   * (building, or too far behind), and then the store's vocabulary serves.
   */
  async forgiving(text: string): Promise<{ terms: TermGroup[] | null } | null> {
    if (this.status !== 'ready' || !(await this.current())) return null;
    this.forgetIfMoved();
    let terms = this.forgivingForms.get(text);
    if (terms === undefined) this.forgivingForms.set(text, (terms = forgivingQuery(text, this.index.vocabulary)));
    return { terms };
  }

  /** Empties the remembered answers and forms once the index has moved since they were made. */
  private forgetIfMoved(): void {
    if (this.answersAt?.index === this.index && this.answersAt.position === this.position) return;
    this.answers.clear();
    this.forgivingForms.clear();
    this.answersAt = { index: this.index, position: this.position };
  }

  /** The store's `categories` from the index; null when the store must answer (as for `search`). */
  async categories(): Promise<CategoryCount[] | null> {
    if (this.status !== 'ready') return null;
    return (await this.current()) ? this.index.categories() : null;
  }

  /** Brings the index up to the log's head; false when it is too far behind to wait for (it catches up meanwhile). */
  private async current(): Promise<boolean> {
    const { head: reads } = this.opts;
    let head = reads === 'turn' && !this.stale ? this.turnHead : null;
    if (head === null) {
      if (reads === 'own-writes' && !this.stale) {
        if (this.following) await this.following;
        return true;
      }
      this.stale = false;
      head = await this.events.lastId();
      if (reads === 'turn') this.keepForTurn(head);
    }
    if (head - this.position > INLINE_LAG) {
      void this.catchUp().catch(() => undefined);
      return false;
    }
    for (let tries = 0; this.position < head && tries < 3; tries++) await this.catchUp();
    return true;
  }

  /** Forgotten in the turn's check phase, after the requests the turn read were handled. */
  private keepForTurn(head: number): void {
    if (this.turnHead === null) {
      setImmediate(() => {
        this.turnHead = null;
      });
    }
    this.turnHead = head;
  }

  /** Applies every event after the index's position; one reader at a time, callers share it. */
  catchUp(): Promise<void> {
    if (this.status !== 'ready') return Promise.resolve();
    this.following ??= this.follow().finally(() => {
      this.following = null;
    });
    return this.following;
  }

  private async follow(): Promise<void> {
    for (;;) {
      const events = await this.events.readAfter(this.position, BATCH);
      if (!events.length) return;
      const listings = await this.catalog.getMany([...new Set(events.map((e) => e.listingId))]);
      for (const l of listings) this.index.upsert(docOf(l));
      this.position = events[events.length - 1].id;
      if (events.length < BATCH) return;
      // A long catch-up (a big import beside the server) yields between batches: requests keep flowing.
      await new Promise((resolve) => setImmediate(resolve));
    }
  }
}

export function docOf(l: Listing): IndexDoc {
  const d = derivedColumns(l);
  return {
    id: l.id, title: l.title, brand: l.brand, category: l.category,
    categoryText: l.categoryPath ? JSON.stringify(l.categoryPath) : (l.category ?? ''), categoryKey: d.categoryKey,
    categoryPathText: l.categoryPath ? JSON.stringify(l.categoryPath) : null,
    source: l.source, domain: d.domain, countryCode: l.countryCode, inStock: l.inStock, stockLevel: l.stockLevel,
    priceSgdMinor: d.priceSgdMinor, discountPct: d.discountPct, historyDiscountPct: d.historyDiscountPct,
    rating: l.rating === null ? null : Number(l.rating), reviewCount: l.reviewCount, updatedAt: Date.parse(l.updatedAt),
    accessory: d.accessory,
  };
}
