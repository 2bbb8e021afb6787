import type pg from 'pg';
import type { NormalizedRecord } from '../../domain/ingest-record.js';
import type { Listing, PriceObservation } from '../../domain/listing.js';
import type { GroupOffers } from '../../domain/buybox.js';
import type { Currency } from '../../domain/currencies.js';
import {
  GROUP_MEMBERS_LIMIT, type BrandCount, type CatalogStore, type CategoryCount, type Facets, type FilterFacets, type GroupStats, type IngestBatchResult,
  type ListingFilter, type ListingTitle, type LookupKey, type MerchantOffer, type PageCursor, type SizedListing, type PageResult, type PageSort, type SearchDoc, type SearchQuery, type SearchResult,
} from '../types.js';
import { PRICE_FACET_RANGES, RATING_FACET_FLOORS, availabilityBuckets, facetLimit } from '../../domain/facets.js';
import { orderOf, whereOf } from '../sql/filters.js';
import { priceMovesQuery, toPriceMove, type PriceMoveRow } from '../sql/price-moves.js';
import type { PriceMove } from '../../domain/trending.js';
import { AVAILABILITY_COUNTS, LOOKUP_COLUMN, brandCountsSql } from '../sql/lookups.js';
import { collectObservations, groupOffersSql, observationsForSql, toGroupOffers, type GroupOffersRow, type ObservationRow } from '../sql/signals.js';
import { groupSizeColumn, MERCHANT_COLUMNS, SEARCH_DOC_COLUMNS, toListing, toMerchantOffer, toSearchDoc, type ListingRow, type MerchantRow, type SearchDocRow } from '../sql/listing-row.js';
import { LISTING_COLUMNS } from './columns.js';
import { PgIngestWriter } from './ingest.js';
import { batchReads, rowsPerKey } from './batch.js';
import { cond, one, rows } from './sql.js';
import { RANK_WEIGHTS, tsqueryGroups, tsqueryLiteral } from './text-search.js';

const SCAN_CHUNK = 500;
const SELECT = `SELECT ${LISTING_COLUMNS}`;

/** The catalog on PostgreSQL: the same filters, orders, facet buckets and keysets as the SQLite adapter. */
export class PgCatalog implements CatalogStore {
  private readonly writer: PgIngestWriter;

  /** `now`: the clock that stamps a written listing's change time (PgIngestWriter). */
  constructor(private readonly pool: pg.Pool, writerPool: pg.Pool = pool, now?: () => Date) {
    this.writer = new PgIngestWriter(writerPool, now);
  }

  async ingestBatch(records: NormalizedRecord[]): Promise<IngestBatchResult> {
    return this.writer.write(records);
  }

  /**
   * `prepare`: a fixed text, parsed and planned once per connection (point reads are most of the
   * request path). Never for texts built from a filter: a generic plan cannot see a LIKE pattern.
   */
  private async listings(sql: string, params: unknown[], prepare = false): Promise<Listing[]> {
    return (await rows<ListingRow>(this.pool, sql, params, prepare)).map(toListing);
  }

  private readonly byId = batchReads<number, Listing | null>(async (ids) => {
    const found = new Map((await this.listings(`${SELECT} FROM listings l WHERE l.id = ANY(?::bigint[])`, [ids], true)).map((l) => [l.id, l]));
    return ids.map((id) => found.get(id) ?? null);
  });

  async getById(id: number): Promise<Listing | null> {
    return this.byId.load(id);
  }

  private readonly sizedById = batchReads<number, SizedListing | null>(async (ids) => {
    const found = await rows<ListingRow & { group_size: number }>(this.pool, `${SELECT}, ${groupSizeColumn('l')}::int AS group_size
      FROM listings l WHERE l.id = ANY(?::bigint[])`, [ids], true);
    const byId = new Map(found.map((r) => [r.id, { listing: toListing(r), groupSize: r.group_size }]));
    return ids.map((id) => byId.get(id) ?? null);
  });

  async getSized(id: number): Promise<SizedListing | null> {
    return this.sizedById.load(id);
  }

  async getByUuid(uuid: string): Promise<Listing | null> {
    return (await this.listings(`${SELECT} FROM listings l WHERE l.uuid = ?`, [uuid], true))[0] ?? null;
  }

  private readonly bySku = batchReads<string, Listing[]>(async (skus) => {
    // The SKUs' rows first, then their order: without statistics (a fresh import, autovacuum off)
    // the planner may walk listings_updated to the end looking for one SKU.
    const found = await this.listings(`WITH m AS MATERIALIZED (${SELECT} FROM listings l WHERE l.sku = ANY(?::text[]))
      SELECT * FROM m ORDER BY m.updated_at DESC, m.id DESC`, [[...new Set(skus)]], true);
    return rowsPerKey(skus, found, (l) => l.sku, 50);
  });

  async getBySku(sku: string): Promise<Listing[]> {
    return this.bySku.load(sku);
  }

  async getMany(ids: number[]): Promise<Listing[]> {
    if (!ids.length) return [];
    const byId = new Map((await this.listings(`${SELECT} FROM listings l WHERE l.id = ANY(?::bigint[])`, [ids], true)).map((l) => [l.id, l]));
    return ids.flatMap((id) => (byId.has(id) ? [byId.get(id)!] : []));
  }

  async titles(ids: number[]): Promise<ListingTitle[]> {
    if (!ids.length) return [];
    const found = await rows<{ id: string | number; group_id: string | number; brand: string | null; title: string }>(
      this.pool, 'SELECT id, group_id, brand, title FROM listings WHERE id = ANY(?::bigint[])', [ids], true);
    const byId = new Map(found.map((r) => [Number(r.id), { id: Number(r.id), groupId: Number(r.group_id), brand: r.brand, title: r.title }]));
    return ids.flatMap((id) => byId.get(id) ?? []);
  }

  async latestBy(key: LookupKey, values: string[]): Promise<Map<string, Listing>> {
    const col = LOOKUP_COLUMN[key];
    if (!values.length) return new Map();
    // One query for every value: the values' rows first, from the column's index (as bySku, so no
    // plan walks an ordered index instead), then the most recently updated of each value.
    const found = await this.listings(`WITH m AS MATERIALIZED (${SELECT} FROM listings l WHERE l.${col} = ANY(?::text[]))
      SELECT DISTINCT ON (m.${col}) * FROM m ORDER BY m.${col}, m.updated_at DESC, m.id DESC`, [[...new Set(values)]], true);
    return new Map(found.map((l) => [l[key] as string, l]));
  }

  private readonly membersOf = batchReads<number, Listing[]>(async (groupIds) => {
    const found = await this.listings(`SELECT m.* FROM unnest(?::bigint[]) AS g(id)
      CROSS JOIN LATERAL (${SELECT} FROM listings l WHERE l.group_id = g.id ORDER BY l.id LIMIT ${GROUP_MEMBERS_LIMIT}) m ORDER BY m.id`, [[...new Set(groupIds)]], true);
    return rowsPerKey(groupIds, found, (l) => l.groupId);
  });

  /** The first 200 members by id, read in one query with the other groups asked for at the same time. */
  async groupMembers(groupId: number): Promise<Listing[]> {
    return this.membersOf.load(groupId);
  }

  private readonly merchantsOf = batchReads<number, MerchantOffer[]>(async (groupIds) => {
    const found = await rows<MerchantRow & { group_id: number }>(this.pool, `SELECT m.* FROM unnest(?::bigint[]) AS g(id) CROSS JOIN LATERAL (SELECT l.group_id,
      ${MERCHANT_COLUMNS.map((c) => `l.${c}`).join(', ')}, l.last_checked_at FROM listings l WHERE l.group_id = g.id ORDER BY l.id LIMIT ${GROUP_MEMBERS_LIMIT}) m
      ORDER BY m.id`, [[...new Set(groupIds)]], true);
    return rowsPerKey(groupIds, found, (r) => r.group_id).map((rs) => rs.map(toMerchantOffer));
  });

  async groupMerchants(groupId: number): Promise<MerchantOffer[]> {
    return this.merchantsOf.load(groupId);
  }

  async count(): Promise<number> {
    return (await one<{ value: number }>(this.pool, "SELECT value FROM counters WHERE name = 'listings'", [], true))?.value ?? 0;
  }

  private async countWhere(from: string, params: unknown[]): Promise<number> {
    return (await one<{ n: number }>(this.pool, `SELECT count(*) AS n FROM ${from}`, params))!.n;
  }

  private readonly groupsById = batchReads<number, GroupStats | null>(async (groupIds) => {
    const found = await rows<{ g: number; size: number; min_minor: number }>(this.pool, `SELECT group_id AS g, count(*) AS size,
      min(price_sgd_minor) AS min_minor FROM listings WHERE group_id = ANY(?::bigint[]) GROUP BY group_id`, [[...new Set(groupIds)]], true);
    const byGroup = new Map(found.map((r) => [r.g, { size: r.size, minPriceSgdMinor: r.min_minor }]));
    return groupIds.map((g) => byGroup.get(g) ?? null);
  });

  async groupStats(groupIds: number[]): Promise<Map<number, GroupStats>> {
    const ids = [...new Set(groupIds)];
    const out = new Map<number, GroupStats>();
    const stats = await this.groupsById.loadMany(ids);
    ids.forEach((g, i) => {
      const s = stats[i];
      if (s instanceof Error) throw s;
      if (s) out.set(g, s);
    });
    return out;
  }

  async groupOffers(groupIds: number[], offeredSince: string): Promise<Map<number, GroupOffers>> {
    const ids = [...new Set(groupIds)];
    if (!ids.length) return new Map();
    const found = await rows<GroupOffersRow>(this.pool, groupOffersSql('group_id = ANY(?::bigint[])'), [offeredSince, ids, offeredSince], true);
    return new Map(found.map((r) => [Number(r.group_id), toGroupOffers(r)]));
  }

  async observationsFor(listingIds: number[], since: string): Promise<Map<number, PriceObservation[]>> {
    const ids = [...new Set(listingIds)];
    if (!ids.length) return new Map();
    return collectObservations(await rows<ObservationRow>(this.pool, observationsForSql('listing_id = ANY(?::bigint[])'), [ids, since, ids, since], true));
  }

  async search(q: SearchQuery): Promise<SearchResult> {
    const groups = q.text && q.terms?.length ? q.terms : null;
    const match = groups ? tsqueryGroups(groups) : q.text ? tsqueryLiteral(q.text) : null;
    if (q.text && !match) return { listings: [], total: 0, facets: q.facets ? emptyFacets() : undefined, ...(q.filterFacets ? { filterFacets: emptyFilterFacets() } : {}) };
    const w = whereOf(q.filter);
    // The tsquery is bound once and named `fq.q` for the match and the rank.
    // The second tier of a forgiving search: not the listings matching every token exactly.
    const except = groups && q.exceptExact ? tsqueryGroups(groups, true) : null;
    const from = match
      ? `listings l CROSS JOIN (SELECT ?::tsquery AS q) fq WHERE l.tsv @@ fq.q AND ${except ? 'NOT (l.tsv @@ ?::tsquery) AND ' : ''}${cond(w.sql)}`
      : `listings l WHERE ${cond(w.sql)}`;
    const base = match ? [match, ...(except ? [except] : []), ...w.params] : w.params;
    let keyset = '';
    const keyParams: unknown[] = [];
    // Products first (accessories after them, each by rank) when the query names a product.
    const first = match && q.sort === 'relevance' && q.productsFirst ? 'l.accessory, ' : '';
    let order = match && q.sort === 'relevance' ? `${first}ts_rank_cd(${RANK_WEIGHTS}, l.tsv, fq.q) DESC, l.id DESC` : orderOf(q.sort, false);
    if (q.afterId !== undefined) {
      if (q.sort === 'price_asc' || q.sort === 'price_desc') {
        const op = q.sort === 'price_asc' ? '>' : '<';
        keyset = ` AND (l.price_sgd_minor, l.id) ${op} (SELECT price_sgd_minor, id FROM listings WHERE id = ?)`;
      } else {
        keyset = ' AND l.id > ?';
        order = 'l.id ASC';
      }
      keyParams.push(q.afterId);
    }
    const [total, listings, facets, filterFacets] = await Promise.all([
      !match && w.sql === '1' ? this.count() : this.countWhere(from, base),
      this.listings(`${SELECT} FROM ${from}${keyset} ORDER BY ${order} LIMIT ? OFFSET ?`,
        [...base, ...keyParams, q.limit, q.afterId !== undefined ? 0 : q.offset]),
      q.facets ? this.facets(from, base) : Promise.resolve(undefined),
      q.filterFacets ? this.filterFacets(from, base) : Promise.resolve(undefined),
    ]);
    return { listings, total, facets, ...(filterFacets ? { filterFacets } : {}) };
  }

  private async filterFacets(from: string, params: unknown[]): Promise<FilterFacets> {
    // Ties in code-point order (COLLATE "C"), as SQLite and the search index order them.
    const group = (expr: string) => rows<{ value: string; count: number }>(this.pool, `SELECT ${expr} AS value, count(*)::bigint AS count
      FROM ${from} AND ${expr} IS NOT NULL GROUP BY 1 ORDER BY 2 DESC, ${expr} COLLATE "C" LIMIT ${facetLimit}`, params);
    const first = async (order: string) => (await one<{ id: number }>(this.pool, `SELECT l.id FROM ${from} ORDER BY ${order} LIMIT 1`, params))?.id ?? null;
    const [domain, country, availability, cheapestId, dearestId] = await Promise.all([
      group('l.domain'), group('l.country_code'),
      one<Record<string, number>>(this.pool, `SELECT ${AVAILABILITY_COUNTS} FROM ${from}`, params),
      first(orderOf('price_asc', false)), first(orderOf('price_desc', false)),
    ]);
    return { domain, country, availability: availabilityBuckets(availability ?? {}), cheapestId, dearestId };
  }

  private async facets(from: string, params: unknown[]): Promise<Facets> {
    const group = (expr: string) => rows<{ value: string; count: number }>(this.pool, `SELECT ${expr} AS value, count(*)::bigint AS count
      FROM ${from} AND ${expr} IS NOT NULL GROUP BY 1 ORDER BY 2 DESC, 1 LIMIT ${facetLimit}`, params);
    const ratingCases = RATING_FACET_FLOORS.map((f, i) => `count(*) FILTER (WHERE CAST(l.rating AS REAL) >= ${f}) AS r${i}`);
    const priceCases = PRICE_FACET_RANGES.map((r, i) => {
      const parts = [r.minMinor === null ? null : `l.price_sgd_minor >= ${r.minMinor}`, r.maxMinor === null ? null : `l.price_sgd_minor < ${r.maxMinor}`];
      return `count(*) FILTER (WHERE ${parts.filter(Boolean).join(' AND ') || 'TRUE'}) AS p${i}`;
    });
    const [category, platform, brand, bands] = await Promise.all([
      group('l.category'), group('l.source'), group('l.brand'),
      one<Record<string, number>>(this.pool, `SELECT ${[...ratingCases, ...priceCases].join(', ')} FROM ${from}`, params),
    ]);
    return {
      category, platform, brand,
      rating: RATING_FACET_FLOORS.map((f, i) => ({ value: `${f}+`, count: bands?.[`r${i}`] ?? 0 })),
      price: PRICE_FACET_RANGES.map((r, i) => ({ range: r.label, min: r.min, max: r.max, count: bands?.[`p${i}`] ?? 0 })),
    };
  }

  async page(filter: ListingFilter, sort: PageSort, cursor: PageCursor | null, limit: number, offset: number): Promise<PageResult> {
    const w = whereOf(filter);
    const col = sort === 'changed' ? 'l.changed_at' : sort === 'newest' ? 'l.updated_at' : 'l.price_sgd_minor';
    const op = sort === 'price_asc' || sort === 'changed' ? '>' : '<';
    const keyset = cursor ? ` AND (${col}, l.id) ${op} (?, ?)` : '';
    const params = cursor ? [...w.params, cursor.value, cursor.id] : w.params;
    // The page's ids first, from the sort's index alone (an offset skips index entries, not rows), then its rows.
    const ids = `SELECT l.id FROM listings l WHERE ${cond(w.sql)}${keyset} ORDER BY ${orderOf(sort, false)} LIMIT ? OFFSET ?`;
    const [total, found] = await Promise.all([
      w.sql === '1' ? this.count() : this.countWhere(`listings l WHERE ${w.sql}`, w.params),
      rows<ListingRow & { v: string | number }>(this.pool, `${SELECT}, ${col} AS v FROM (${ids}) k JOIN listings l ON l.id = k.id
        ORDER BY ${orderOf(sort, false)}`, [...params, limit + 1, cursor ? 0 : offset], w.sql === '1'),
    ]);
    const more = found.length > limit;
    const listings = found.slice(0, limit).map(toListing);
    const last = listings[listings.length - 1];
    const next: PageCursor | null = more && last
      ? { sort, value: found[limit - 1].v, id: last.id }
      : null;
    return { listings, total, next };
  }

  async *scan(filter: ListingFilter, limit: number, offset: number): AsyncIterable<Listing> {
    const w = whereOf(filter);
    const first = await one<{ id: number }>(this.pool, `SELECT l.id FROM listings l WHERE ${cond(w.sql)} ORDER BY l.id LIMIT 1 OFFSET ?`, [...w.params, offset]);
    if (!first) return;
    let from = first.id;
    let left = limit;
    while (left > 0) {
      // Chunks by id, never one long-lived cursor holding a pooled connection.
      const chunk = await this.listings(`${SELECT} FROM listings l WHERE ${cond(w.sql)} AND l.id >= ? ORDER BY l.id LIMIT ?`,
        [...w.params, from, Math.min(SCAN_CHUNK, left)]);
      for (const l of chunk) yield l;
      left -= chunk.length;
      if (chunk.length < SCAN_CHUNK) return;
      from = chunk[chunk.length - 1].id + 1;
    }
  }

  async priceMoves(since: string, filter: ListingFilter): Promise<PriceMove[]> {
    const { sql, params } = priceMovesQuery(since, filter);
    return (await rows<PriceMoveRow>(this.pool, sql, params)).map(toPriceMove);
  }

  async searchTerms(): Promise<Array<[string, number]>> {
    const found = await rows<{ word: string; ndoc: number }>(this.pool, "SELECT word, ndoc FROM ts_stat('SELECT tsv FROM listings')");
    return found.map((r) => [r.word, Number(r.ndoc)]);
  }

  async searchDocs(afterId: number, limit: number): Promise<SearchDoc[]> {
    return (await rows<SearchDocRow>(this.pool, `SELECT ${SEARCH_DOC_COLUMNS} FROM listings WHERE id > ? ORDER BY id LIMIT ?`, [afterId, limit], true))
      .map(toSearchDoc);
  }

  async observations(listingId: number, since: string, o: { platform?: string; limit: number; offset: number }) {
    const where = `listing_id = ? AND observed_at >= ?${o.platform ? ' AND source = ?' : ''}`;
    const params = o.platform ? [listingId, since, o.platform] : [listingId, since];
    const [total, found] = await Promise.all([
      this.countWhere(`observations WHERE ${where}`, params),
      rows<Record<string, string>>(this.pool, `SELECT observed_at, price, currency, source FROM observations WHERE ${where}
        ORDER BY observed_at DESC LIMIT ? OFFSET ?`, [...params, o.limit, o.offset]),
    ]);
    const entries: PriceObservation[] = found.map((r) => ({
      listingId, price: r.price, currency: r.currency as Currency, source: r.source, observedAt: r.observed_at,
    }));
    return { entries, total };
  }

  async categories(): Promise<CategoryCount[]> {
    const found = await rows<{ path: string | null; category: string; count: number }>(this.pool, `SELECT category_path AS path, category,
      count(*)::bigint AS count FROM listings WHERE category IS NOT NULL GROUP BY category_path, category ORDER BY category_path, category`);
    return found.map((r) => ({ path: r.path ? (JSON.parse(r.path) as string[]) : [r.category], count: r.count }));
  }

  async brandCounts(filter: ListingFilter): Promise<BrandCount[]> {
    const w = whereOf(filter);
    return rows<BrandCount>(this.pool, brandCountsSql(cond(w.sql)), w.params);
  }

  async sample(filter: ListingFilter, limit: number, seed: number) {
    const w = whereOf(filter);
    const [total, bounds] = await Promise.all([
      w.sql === '1' ? this.count() : this.countWhere(`listings l WHERE ${w.sql}`, w.params),
      one<{ lo: number | null; hi: number | null }>(this.pool, 'SELECT min(id) AS lo, max(id) AS hi FROM listings'),
    ]);
    const lo = bounds?.lo ?? null;
    const hi = bounds?.hi ?? null;
    if (!total || lo === null || hi === null) return { listings: [], total };
    const seek = async (from: number) =>
      (await this.listings(`${SELECT} FROM listings l WHERE ${cond(w.sql)} AND l.id >= ? ORDER BY l.id LIMIT 1`, [...w.params, from]))[0];
    const seen = new Map<number, Listing>();
    let state = seed >>> 0 || 1;
    for (let tries = 0; seen.size < Math.min(limit, total) && tries < limit * 4; tries++) {
      state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
      const found = (await seek(lo + (state % (hi - lo + 1)))) ?? (await seek(lo));
      if (found) seen.set(found.id, found);
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
