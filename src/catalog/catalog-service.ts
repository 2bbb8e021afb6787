import Big from 'big.js';
import type { Currency } from '../domain/currencies.js';
import { DomainError, notFound } from '../domain/errors.js';
import { highlightTitle } from '../domain/highlight.js';
import type { Listing } from '../domain/listing.js';
import { toMinor } from '../domain/money.js';
import { slugify } from '../domain/slug.js';
import type { CatalogStore, GroupStats, ListingFilter, PageCursor, SearchQuery, SearchResult } from '../store/types.js';
import type { FxService } from './fx-service.js';
import { ReadCache } from './read-cache.js';
import type { IndexedSearch } from './search-index/indexed-search.js';

export interface CategoryNode { name: string; slug: string; path: string[]; count: number; children: CategoryNode[] }

const CATEGORY_TTL_MS = 30_000;

/** Search, detail, listing, categories, deals and trending over the store; no HTTP, no wire shapes. */
export class CatalogService {
  private categoryCache: { at: number; tree: CategoryNode[] } | null = null;
  private readonly listings: ReadCache<Listing>;
  private readonly groups: ReadCache<GroupStats>;

  constructor(
    private readonly store: CatalogStore,
    private readonly fx: FxService,
    private readonly now: () => Date,
    private readonly index: IndexedSearch | null = null,
  ) {
    this.listings = new ReadCache(now);
    this.groups = new ReadCache(now);
  }

  /** A price bound in `currency` as SGD cents, the unit the store filters on; exact until the final rounding. */
  boundToSgdMinor(amount: number | string | undefined, currency: Currency = 'SGD'): number | undefined {
    if (amount === undefined) return undefined;
    return toMinor(this.fx.convert(new Big(amount), currency, 'SGD'), 'SGD');
  }

  checkRange(min: number | undefined, max: number | undefined, names: [string, string], code: 'INVALID_PRICE_RANGE' | 'VALIDATION_ERROR' = 'VALIDATION_ERROR'): void {
    if (min === undefined || max === undefined || min <= max) return;
    const message = `${names[0]} (${min}) must not be greater than ${names[1]} (${max})`;
    if (code === 'INVALID_PRICE_RANGE') throw new DomainError('INVALID_PRICE_RANGE', message, { [names[0]]: min, [names[1]]: max });
    throw new DomainError('VALIDATION_ERROR', message, undefined, [{ loc: ['query', names[0]], msg: message, type: 'value_error' }]);
  }

  async search(q: SearchQuery, highlight = false): Promise<SearchResult> {
    const result = await this.find(q);
    if (highlight && q.text) {
      result.highlights = Object.fromEntries(result.listings.map((l) => [l.id, highlightTitle(l.title, q.text!)]));
    }
    return result;
  }

  async get(id: number): Promise<Listing> {
    const l = await this.store.getById(id);
    if (!l) throw notFound(`product ${id}`, { product_id: id });
    return l;
  }

  async findById(id: number): Promise<Listing | null> {
    return this.store.getById(id);
  }

  async findBySku(sku: string): Promise<Listing[]> {
    return this.store.getBySku(sku);
  }

  async getMany(ids: number[]): Promise<Listing[]> {
    return this.store.getMany(ids);
  }

  async groupMembers(l: Listing): Promise<Listing[]> {
    return this.store.groupMembers(l.groupId);
  }

  async groupStats(listings: Listing[]): Promise<Map<number, GroupStats>> {
    return this.groups.getMany([...new Set(listings.map((l) => l.groupId))], (ids) => this.store.groupStats(ids));
  }

  async page(filter: ListingFilter, sort: 'newest' | 'price_asc' | 'price_desc', cursor: PageCursor | null, limit: number, offset: number) {
    return this.store.page(filter, sort, cursor, limit, offset);
  }

  /** The cheapest listing matching a query; 404 when nothing matches. */
  async bestPrice(text: string, filter: ListingFilter): Promise<Listing> {
    const r = await this.find({ text, filter, sort: 'price_asc', limit: 1, offset: 0 });
    if (!r.listings.length) throw notFound(`no product matching "${text}"`, { q: text });
    return r.listings[0];
  }

  /** Recently updated products: changed within the last 7 days, newest first. */
  async trending(filter: ListingFilter, limit: number) {
    const since = new Date(this.now().getTime() - 7 * 86400_000).toISOString();
    return this.find({ filter: { ...filter, checkedSince: since }, sort: 'newest', limit, offset: 0 });
  }

  /** Listings priced at least `minPct` below the median of their own last 90 days, biggest drop first. */
  async deals(filter: ListingFilter, minPct: number, limit: number, offset: number) {
    return this.find({ filter: { ...filter, minHistoryDiscountPct: minPct }, sort: 'deal_desc', limit, offset });
  }

  /** The in-memory index when it can answer (built, and holding every filter asked), else the store. */
  private async find(q: SearchQuery): Promise<SearchResult> {
    const hit = await this.index?.search(q);
    if (!hit) return this.store.search(q);
    const byId = await this.listings.getMany(hit.ids, async (ids) => new Map((await this.store.getMany(ids)).map((l) => [l.id, l])));
    const listings = hit.ids.map((id) => byId.get(id)).filter((l): l is Listing => l !== undefined);
    return { listings, total: hit.total, facets: hit.facets };
  }

  scan(filter: ListingFilter, limit: number, offset: number) {
    return this.store.scan(filter, limit, offset);
  }

  /** The category tree with counts at every level; cached briefly, it is a full scan on a big catalog. */
  async categoryTree(): Promise<CategoryNode[]> {
    const at = this.now().getTime();
    if (this.categoryCache && at - this.categoryCache.at < CATEGORY_TTL_MS) return this.categoryCache.tree;
    const roots: CategoryNode[] = [];
    for (const { path, count } of await this.store.categories()) {
      let level = roots;
      path.forEach((name, i) => {
        let node = level.find((n) => n.name === name);
        if (!node) {
          node = { name, slug: slugify(name), path: path.slice(0, i + 1), count: 0, children: [] };
          level.push(node);
        }
        node.count += count;
        level = node.children;
      });
    }
    const sort = (nodes: CategoryNode[]) => { nodes.sort((a, b) => b.count - a.count || a.name.localeCompare(b.name)); nodes.forEach((n) => sort(n.children)); };
    sort(roots);
    this.categoryCache = { at, tree: roots };
    return roots;
  }

  /** After any catalog change: what is derived from listings is read again. */
  invalidate(): void {
    this.categoryCache = null;
    this.listings.clear();
    this.groups.clear();
  }
}
