import type { Database, Statement } from 'better-sqlite3';
import type { NormalizedRecord } from '../../domain/ingest-record.js';
import type { Listing, PriceObservation } from '../../domain/listing.js';
import { offersOf, type GroupMember, type GroupOffers } from '../../domain/buybox.js';
import type { Currency } from '../../domain/currencies.js';
import {
  GROUP_MEMBERS_LIMIT, type BrandCount, type BulkFinish, type CatalogStore, type CategoryCount, type Facets, type FilterFacets, type GroupStats,
  type IngestBatchResult, type KnownLinesCapability, type ListingFilter, type ListingTitle, type LookupKey, type MerchantOffer, type SizedListing, type PageCursor, type PageResult, type PageSort, type SearchDoc, type SearchQuery, type SearchResult,
} from '../types.js';
import { orderOf, whereOf } from '../sql/filters.js';
import { priceMovesQuery, toPriceMove, type PriceMoveRow } from '../sql/price-moves.js';
import type { PriceMove } from '../../domain/trending.js';
import { AVAILABILITY_COUNTS, LOOKUP_COLUMN, brandCountsSql } from '../sql/lookups.js';
import { collectObservations, observationsForSql, type ObservationRow } from '../sql/signals.js';
import { ftsGroups, ftsQuery } from './fts-query.js';
import { SqliteIngestWriter } from './ingest.js';
import { groupSizeColumn, MERCHANT_COLUMNS, SEARCH_DOC_COLUMNS, toListing, toMerchantOffer, toSearchDoc, type MerchantRow, type SearchDocRow } from '../sql/listing-row.js';
import { IN_LIST_MAX, inList, lastCheckedAt, LISTING_COLUMN_COUNT, LISTING_COLUMN_NAMES, listingColumns, rowOf } from './listing-reads.js';
import { Statements } from './statements.js';
import { PRICE_FACET_RANGES, RATING_FACET_FLOORS, availabilityBuckets, facetLimit } from '../../domain/facets.js';

const RANK = 'bm25(listings_fts, 10.0, 4.0, 2.0)';
const COLS = listingColumns();
const SCAN_CHUNK = 500;
/** group_id, id, in_stock, price_sgd_minor, last_checked_at, price, currency. */
type GroupMemberRow = [number, number, number | null, number | null, string, string, Currency];

export class SqliteCatalog implements CatalogStore {
  private readonly writer: SqliteIngestWriter;
  private readonly s: Record<string, Statement>;

  /** `now`: the clock that stamps a written listing's change time (SqliteIngestWriter). */
  constructor(private readonly db: Database, now?: () => Date) {
    this.writer = new SqliteIngestWriter(db, now);
    this.s = {
      byId: db.prepare(`SELECT ${COLS} FROM listings WHERE id = ?`).raw(),
      byUuid: db.prepare(`SELECT ${COLS} FROM listings WHERE uuid = ?`).raw(),
      // The group's size as one more column: the row's group index entry is near, and a second statement costs its own lock and call.
      sized: db.prepare(`SELECT ${COLS}, ${groupSizeColumn()} FROM listings WHERE id = ?`).raw(),
      bySku: db.prepare(`SELECT ${COLS} FROM listings WHERE sku = ? ORDER BY updated_at DESC, id DESC LIMIT 50`).raw(),
      group: db.prepare(`SELECT ${COLS} FROM listings WHERE group_id = ? ORDER BY id LIMIT ${GROUP_MEMBERS_LIMIT}`).raw(),
      merchants: db.prepare(`SELECT ${MERCHANT_COLUMNS.join(', ')}, ${lastCheckedAt()} AS last_checked_at FROM listings
        WHERE group_id = ? ORDER BY id LIMIT ${GROUP_MEMBERS_LIMIT}`),
      groupSize: db.prepare('SELECT count(*) FROM listings WHERE group_id = ?').pluck(),
      groupMin: db.prepare('SELECT min(price_sgd_minor) FROM listings WHERE group_id = ?').pluck(),
      count: db.prepare("SELECT value FROM counters WHERE name = 'listings'").pluck(),
      bounds: db.prepare('SELECT min(id) AS lo, max(id) AS hi FROM listings'),
      searchDocs: db.prepare(`SELECT ${SEARCH_DOC_COLUMNS} FROM listings WHERE id > ? ORDER BY id LIMIT ?`),
    };
  }

  async ingestBatch(records: NormalizedRecord[]): Promise<IngestBatchResult> {
    return this.writer.write(records);
  }

  /** A store in a file can take known lines: the parse workers read its line hashes (KnownLinesCapability). */
  knownLines(): KnownLinesCapability | null {
    return this.db.memory ? null : { file: this.db.name, ingest: async (items) => this.writer.write(items) };
  }

  /** An import session (SqliteIngestWriter.startImport): WAL checkpoints off the writer's thread until endImport. */
  startImport(opts?: Parameters<SqliteIngestWriter['startImport']>[0]): void {
    this.writer.startImport(opts);
  }

  endImport(): Promise<void> {
    return this.writer.endImport();
  }

  /** A bulk load into an empty store (SqliteIngestWriter.startBulk); false when the store holds listings. */
  startBulkLoad(opts?: Parameters<SqliteIngestWriter['startBulk']>[0]): boolean {
    return this.writer.startBulk(opts);
  }

  /** Ends a bulk load: its listings matched, its indexes built (see SqliteIngestWriter.finishBulk). */
  finishBulkLoad(opts?: Parameters<SqliteIngestWriter['finishBulk']>[0]): Promise<BulkFinish> {
    return this.writer.finishBulk(opts);
  }

  private statements?: Statements;
  private get q(): Statements {
    return (this.statements ??= new Statements(this.db));
  }

  async getById(id: number): Promise<Listing | null> {
    const row = this.s.byId.get(id) as unknown[] | undefined;
    return row ? toListing(rowOf(row)) : null;
  }

  async getByUuid(uuid: string): Promise<Listing | null> {
    const row = this.s.byUuid.get(uuid) as unknown[] | undefined;
    return row ? toListing(rowOf(row)) : null;
  }

  async getSized(id: number): Promise<SizedListing | null> {
    const row = this.s.sized.get(id) as unknown[] | undefined;
    return row ? { listing: toListing(rowOf(row)), groupSize: row[LISTING_COLUMN_COUNT] as number } : null;
  }

  async getBySku(sku: string): Promise<Listing[]> {
    return (this.s.bySku.all(sku) as unknown[][]).map((r) => toListing(rowOf(r)));
  }

  async getMany(ids: number[]): Promise<Listing[]> {
    if (!ids.length) return [];
    const byId = new Map<number, unknown[]>();
    for (let i = 0; i < ids.length; i += IN_LIST_MAX) {
      const { params, marks } = inList(ids.slice(i, i + IN_LIST_MAX));
      for (const r of this.q.get(`SELECT ${COLS} FROM listings WHERE id IN (${marks})`, true).all(...params) as unknown[][]) byId.set(r[0] as number, r);
    }
    const out: Listing[] = [];
    for (const id of ids) {
      const r = byId.get(id);
      if (r) out.push(toListing(rowOf(r)));
    }
    return out;
  }

  async titles(ids: number[]): Promise<ListingTitle[]> {
    const byId = new Map<number, ListingTitle>();
    for (let i = 0; i < ids.length; i += IN_LIST_MAX) {
      const { params, marks } = inList(ids.slice(i, i + IN_LIST_MAX));
      for (const [id, groupId, brand, title] of this.q.get(`SELECT id, group_id, brand, title FROM listings WHERE id IN (${marks})`, true).all(...params) as Array<[number, number, string | null, string]>) {
        byId.set(id, { id, groupId, brand, title });
      }
    }
    return ids.flatMap((id) => byId.get(id) ?? []);
  }

  async latestBy(key: LookupKey, values: string[]): Promise<Map<string, Listing>> {
    const col = LOOKUP_COLUMN[key];
    const unique = [...new Set(values)];
    const out = new Map<string, Listing>();
    for (let i = 0; i < unique.length; i += IN_LIST_MAX) {
      const { params, marks } = inList(unique.slice(i, i + IN_LIST_MAX));
      // Each value's rows from the column's index, the most recently updated kept (getBySku's first).
      const rows = this.q.get(`SELECT ${LISTING_COLUMN_NAMES} FROM (SELECT ${COLS}, row_number() OVER (PARTITION BY ${col} ORDER BY updated_at DESC, id DESC) AS rn
        FROM listings WHERE ${col} IN (${marks})) WHERE rn = 1`, true).all(...params) as unknown[][];
      for (const r of rows) {
        const l = toListing(rowOf(r));
        out.set(l[key] as string, l);
      }
    }
    return out;
  }

  async groupMembers(groupId: number): Promise<Listing[]> {
    return (this.s.group.all(groupId) as unknown[][]).map((r) => toListing(rowOf(r)));
  }

  async groupMerchants(groupId: number): Promise<MerchantOffer[]> {
    return (this.s.merchants.all(groupId) as MerchantRow[]).map(toMerchantOffer);
  }

  async count(): Promise<number> {
    return this.s.count.get() as number;
  }

  async groupStats(groupIds: number[]): Promise<Map<number, GroupStats>> {
    const ids = [...new Set(groupIds)];
    const out = new Map<number, GroupStats>();
    // Sizes come from the group index alone. The cheapest price needs every member's row (costly
    // on cold pages), and the presenters only show sizes: it is read if and when it is asked for.
    // (An index on (group_id, price_sgd_minor) would make both index-only.)
    const min = this.s.groupMin;
    const stats = (g: number, size: number): GroupStats => ({ size, get minPriceSgdMinor() { return min.get(g) as number; } });
    if (ids.length === 1) {
      const size = this.s.groupSize.get(ids[0]) as number;
      if (size) out.set(ids[0], stats(ids[0], size));
      return out;
    }
    for (let i = 0; i < ids.length; i += IN_LIST_MAX) {
      const { params, marks } = inList(ids.slice(i, i + IN_LIST_MAX));
      const rows = this.q.get(`SELECT group_id, count(*) FROM listings WHERE group_id IN (${marks}) GROUP BY group_id`, true).all(...params) as Array<[number, number]>;
      for (const [g, size] of rows) out.set(g, stats(g, size));
    }
    return out;
  }

  /**
   * Every member of the groups from the group index (it holds what the buy box reads) and the later
   * checks beside it, folded by the domain's own offer rule: no listing row is read, where an
   * aggregate in SQL read each member's row twice and the cheapest's a third time.
   */
  async groupOffers(groupIds: number[], offeredSince: string): Promise<Map<number, GroupOffers>> {
    const ids = [...new Set(groupIds)];
    const members = new Map<number, GroupMember[]>();
    for (let i = 0; i < ids.length; i += IN_LIST_MAX) {
      const { params, marks } = inList(ids.slice(i, i + IN_LIST_MAX));
      const rows = this.q.get(`SELECT group_id, id, in_stock, price_sgd_minor, ${lastCheckedAt()}, price, currency FROM listings
        WHERE group_id IN (${marks})`, true).all(...params) as GroupMemberRow[];
      for (const [g, id, inStock, minor, checked, price, currency] of rows) {
        const m: GroupMember = { listingId: id, inStock: inStock === null ? null : inStock !== 0, priceSgdMinor: minor ?? 0, lastCheckedAt: checked, price, currency };
        const list = members.get(g);
        if (list) list.push(m);
        else members.set(g, [m]);
      }
    }
    const out = new Map<number, GroupOffers>();
    for (const [g, list] of members) out.set(g, offersOf(list, offeredSince));
    return out;
  }

  async observationsFor(listingIds: number[], since: string): Promise<Map<number, PriceObservation[]>> {
    const ids = [...new Set(listingIds)];
    const out = new Map<number, PriceObservation[]>();
    for (let i = 0; i < ids.length; i += IN_LIST_MAX) {
      const { params, marks } = inList(ids.slice(i, i + IN_LIST_MAX));
      collectObservations(this.q.get(observationsForSql(`listing_id IN (${marks})`)).all(...params, since, ...params, since) as ObservationRow[], out);
    }
    return out;
  }

  async search(q: SearchQuery): Promise<SearchResult> {
    const groups = q.text && q.terms?.length ? q.terms : null;
    const match = groups ? ftsGroups(groups) : q.text ? ftsQuery(q.text) : null;
    if (q.text && !match) return { listings: [], total: 0, facets: q.facets ? emptyFacets() : undefined, ...(q.filterFacets ? { filterFacets: emptyFilterFacets() } : {}) };
    const w = whereOf(q.filter);
    // The second tier of a forgiving search: not the listings matching every token exactly.
    const except = groups && q.exceptExact ? ftsGroups(groups, true) : null;
    const from = match
      ? `listings_fts JOIN listings l ON l.id = listings_fts.rowid WHERE listings_fts MATCH ? AND ${except ? 'l.id NOT IN (SELECT rowid FROM listings_fts WHERE listings_fts MATCH ?) AND ' : ''}`
      : 'listings l WHERE ';
    const base = match ? [match, ...(except ? [except] : []), ...w.params] : w.params;
    let keyset = '';
    const keyParams: unknown[] = [];
    // Products first (accessories after them, each by rank) when the query names a product.
    const productsFirst = !!(match && q.sort === 'relevance' && q.productsFirst);
    let order = match && q.sort === 'relevance' ? `${productsFirst ? 'l.accessory, ' : ''}${RANK}, l.id DESC` : orderOf(q.sort, false);
    if (q.afterId !== undefined) {
      // Deep paging by id: keyset on (sort value, id) for price sorts, on id alone otherwise.
      if (q.sort === 'price_asc' || q.sort === 'price_desc') {
        const op = q.sort === 'price_asc' ? '>' : '<';
        keyset = ` AND (l.price_sgd_minor, l.id) ${op} (SELECT price_sgd_minor, id FROM listings WHERE id = ?)`;
      } else {
        keyset = ' AND l.id > ?';
        order = 'l.id ASC';
      }
      keyParams.push(q.afterId);
    }
    // Count and rank over the FTS index alone when there is no filter: no listing row is touched.
    const bare = match && w.sql === '1' && !except;
    const total = !match && w.sql === '1' && !keyset
      ? await this.count()
      : bare
        ? (this.db.prepare('SELECT count(*) FROM listings_fts WHERE listings_fts MATCH ?').pluck().get(match) as number)
        : (this.db.prepare(`SELECT count(*) FROM ${from}${w.sql}`).pluck().get(...base) as number);
    // Sort ids only, then read the page's rows: sorting whole rows of every match makes common words slow.
    const ids = bare && !keyset && q.sort === 'relevance' && !productsFirst
      ? (this.db.prepare(`SELECT rowid FROM listings_fts WHERE listings_fts MATCH ? ORDER BY ${RANK}, rowid DESC LIMIT ? OFFSET ?`).pluck()
        .all(match, q.limit, q.offset) as number[])
      : (this.db.prepare(`SELECT l.id FROM ${from}${w.sql}${keyset} ORDER BY ${order} LIMIT ? OFFSET ?`).pluck()
        .all(...base, ...keyParams, q.limit, q.afterId !== undefined ? 0 : q.offset) as number[]);
    const listings = await this.getMany(ids);
    return {
      listings, total, facets: q.facets ? this.facets(from, w.sql, base) : undefined,
      ...(q.filterFacets ? { filterFacets: this.filterFacets(from, w.sql, base) } : {}),
    };
  }

  private filterFacets(from: string, where: string, params: unknown[]): FilterFacets {
    const group = (expr: string) =>
      (this.db.prepare(`SELECT ${expr} AS value, count(*) AS count FROM ${from}${where} AND ${expr} IS NOT NULL
        GROUP BY 1 ORDER BY 2 DESC, 1 LIMIT ${facetLimit}`).all(...params) as Array<{ value: string; count: number }>);
    const first = (order: string) => (this.db.prepare(`SELECT l.id FROM ${from}${where} ORDER BY ${order} LIMIT 1`).pluck().get(...params) as number | undefined) ?? null;
    return {
      domain: group('l.domain'), country: group('l.country_code'),
      availability: availabilityBuckets(this.db.prepare(`SELECT ${AVAILABILITY_COUNTS} FROM ${from}${where}`).get(...params) as Record<string, number>),
      cheapestId: first(orderOf('price_asc', false)), dearestId: first(orderOf('price_desc', false)),
    };
  }

  private facets(from: string, where: string, params: unknown[]): Facets {
    const group = (expr: string, limit: number) =>
      (this.db.prepare(`SELECT ${expr} AS value, count(*) AS count FROM ${from}${where} AND ${expr} IS NOT NULL
        GROUP BY 1 ORDER BY 2 DESC, 1 LIMIT ${limit}`).all(...params) as Array<{ value: string; count: number }>);
    const bands = (cases: string[]) => this.db.prepare(`SELECT ${cases.join(', ')} FROM ${from}${where}`).get(...params) as Record<string, number>;
    const ratings = bands(RATING_FACET_FLOORS.map((f, i) => `sum(CAST(l.rating AS REAL) >= ${f}) AS r${i}`));
    const prices = bands(PRICE_FACET_RANGES.map((r, i) =>
      `sum(${r.minMinor === null ? '1' : `l.price_sgd_minor >= ${r.minMinor}`} AND ${r.maxMinor === null ? '1' : `l.price_sgd_minor < ${r.maxMinor}`}) AS p${i}`));
    return {
      category: group('l.category', facetLimit),
      platform: group('l.source', facetLimit),
      brand: group('l.brand', facetLimit),
      rating: RATING_FACET_FLOORS.map((f, i) => ({ value: `${f}+`, count: ratings[`r${i}`] ?? 0 })),
      price: PRICE_FACET_RANGES.map((r, i) => ({ range: r.label, min: r.min, max: r.max, count: prices[`p${i}`] ?? 0 })),
    };
  }

  async page(filter: ListingFilter, sort: PageSort, cursor: PageCursor | null, limit: number, offset: number): Promise<PageResult> {
    const w = whereOf(filter);
    const total = w.sql === '1' ? await this.count() : (this.q.get(`SELECT count(*) FROM listings l WHERE ${w.sql}`).pluck().get(...w.params) as number);
    const col = sort === 'changed' ? 'l.changed_at' : sort === 'newest' ? 'l.updated_at' : 'l.price_sgd_minor';
    const op = sort === 'price_asc' || sort === 'changed' ? '>' : '<';
    const keyset = cursor ? ` AND (${col}, l.id) ${op} (?, ?)` : '';
    const params = cursor ? [...w.params, cursor.value, cursor.id] : w.params;
    // Ids and sort values first (from the sort's index alone when there is no filter), rows after:
    // an OFFSET over whole rows read and dropped every skipped row.
    const keys = this.q.get(`SELECT l.id AS id, ${col} AS v FROM listings l WHERE ${w.sql}${keyset} ORDER BY ${orderOf(sort, false)} LIMIT ? OFFSET ?`)
      .all(...params, limit + 1, cursor ? 0 : offset) as Array<{ id: number; v: string | number }>;
    const more = keys.length > limit;
    const shown = keys.slice(0, limit);
    const listings = await this.getMany(shown.map((k) => k.id));
    const last = shown[shown.length - 1];
    const next: PageCursor | null = more && last ? { sort, value: last.v, id: last.id } : null;
    return { listings, total, next };
  }

  async *scan(filter: ListingFilter, limit: number, offset: number): AsyncIterable<Listing> {
    const w = whereOf(filter);
    const first = this.db.prepare(`SELECT l.id FROM listings l WHERE ${w.sql} ORDER BY l.id LIMIT 1 OFFSET ?`).pluck().get(...w.params, offset) as number | undefined;
    if (first === undefined) return;
    const chunk = this.db.prepare(`SELECT ${listingColumns('l')} FROM listings l WHERE ${w.sql} AND l.id >= ? ORDER BY l.id LIMIT ?`).raw();
    let from = first;
    let left = limit;
    while (left > 0) {
      // Chunks by id, never one long-lived cursor: other requests may write between two chunks.
      const rows = chunk.all(...w.params, from, Math.min(SCAN_CHUNK, left)) as unknown[][];
      for (const r of rows) yield toListing(rowOf(r));
      left -= rows.length;
      if (rows.length < SCAN_CHUNK) return;
      from = (rows[rows.length - 1][0] as number) + 1;
      await new Promise((resolve) => setImmediate(resolve));
    }
  }

  async priceMoves(since: string, filter: ListingFilter): Promise<PriceMove[]> {
    const { sql, params } = priceMovesQuery(since, filter);
    return (this.db.prepare(sql).all(...params) as PriceMoveRow[]).map(toPriceMove);
  }

  async searchTerms(): Promise<Array<[string, number]>> {
    // fts5vocab over the FTS index, in this connection's temp schema: a view, nothing stored.
    this.db.exec('CREATE VIRTUAL TABLE IF NOT EXISTS temp.listings_fts_terms USING fts5vocab(main, listings_fts, row)');
    return this.db.prepare('SELECT term, doc FROM temp.listings_fts_terms').raw().all() as Array<[string, number]>;
  }

  async searchDocs(afterId: number, limit: number): Promise<SearchDoc[]> {
    return (this.s.searchDocs.all(afterId, limit) as SearchDocRow[]).map(toSearchDoc);
  }

  async observations(listingId: number, since: string, o: { platform?: string; limit: number; offset: number }) {
    const cond = `listing_id = ? AND observed_at >= ?${o.platform ? ' AND source = ?' : ''}`;
    const params = o.platform ? [listingId, since, o.platform] : [listingId, since];
    const total = this.db.prepare(`SELECT count(*) FROM observations WHERE ${cond}`).pluck().get(...params) as number;
    const rows = this.db.prepare(`SELECT listing_id, observed_at, price, currency, source FROM observations WHERE ${cond}
      ORDER BY observed_at DESC LIMIT ? OFFSET ?`).all(...params, o.limit, o.offset) as Array<Record<string, string>>;
    const entries: PriceObservation[] = rows.map((r) => ({
      listingId, price: r.price, currency: r.currency as Currency, source: r.source, observedAt: r.observed_at,
    }));
    return { entries, total };
  }

  async categories(): Promise<CategoryCount[]> {
    const rows = this.db.prepare(`SELECT category_path AS path, category, count(*) AS count FROM listings
      WHERE category IS NOT NULL GROUP BY category_path, category`).all() as Array<{ path: string | null; category: string; count: number }>;
    return rows.map((r) => ({ path: r.path ? (JSON.parse(r.path) as string[]) : [r.category], count: r.count }));
  }

  async brandCounts(filter: ListingFilter): Promise<BrandCount[]> {
    const w = whereOf(filter);
    return this.db.prepare(brandCountsSql(w.sql)).all(...w.params) as BrandCount[];
  }

  async sample(filter: ListingFilter, limit: number, seed: number) {
    const w = whereOf(filter);
    const total = w.sql === '1' ? await this.count() : (this.db.prepare(`SELECT count(*) FROM listings l WHERE ${w.sql}`).pluck().get(...w.params) as number);
    const { lo, hi } = this.s.bounds.get() as { lo: number | null; hi: number | null };
    if (!total || lo === null || hi === null) return { listings: [], total };
    const seek = this.db.prepare(`SELECT ${listingColumns('l')} FROM listings l WHERE ${w.sql} AND l.id >= ? ORDER BY l.id LIMIT 1`).raw();
    const seen = new Map<number, Listing>();
    let state = seed >>> 0 || 1;
    for (let tries = 0; seen.size < Math.min(limit, total) && tries < limit * 4; tries++) {
      state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
      const row = (seek.get(...w.params, lo + (state % (hi - lo + 1))) ?? seek.get(...w.params, lo)) as unknown[] | undefined;
      if (row) seen.set(row[0] as number, toListing(rowOf(row)));
    }
    return { listings: [...seen.values()], total };
  }
}

function emptyFacets(): Facets {
  return { category: [], platform: [], brand: [], rating: [], price: [] };
}

function emptyFilterFacets(): FilterFacets {
  return { domain: [], country: [], availability: [], cheapestId: null, dearestId: null };
}
