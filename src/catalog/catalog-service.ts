import Big from 'big.js';
import { asksForAccessory } from '../domain/accessory.js';
import type { Currency } from '../domain/currencies.js';
import { highlightTitle } from '../domain/highlight.js';
import type { Listing } from '../domain/listing.js';
import { discountPct } from '../domain/money.js';
import { slugify } from '../domain/slug.js';
import { forgivingQuery, widened, type TermGroup } from '../domain/search-text.js';
import { titleWords } from '../domain/similarity.js';
import { rankTrending, TRENDING_WINDOW_DAYS, type Trend } from '../domain/trending.js';
import type { CatalogStore, Facets, FilterFacets, ListingFilter, MerchantOffer, PageCursor, PageSort, SearchQuery, SearchResult } from '../store/types.js';
import type { ListingView, ListingViews, Money } from './listing-views.js';
import { ReadCache } from './read-cache.js';
import type { IndexedSearch } from './search-index/indexed-search.js';
import { TopK } from './search-index/top-k.js';
import { checkedPage } from './deal-checks.js';
import type { DealCheck } from '../domain/honest-deal.js';
import { StoreVocabulary } from './search-vocabulary.js';
import { forgivingPage } from './forgiving-search.js';
import { SimilarLists, type CandidateList } from './similar-candidates.js';
import { withFields } from '../domain/with-fields.js';

export interface CategoryNode { name: string; slug: string; path: string[]; count: number; children: CategoryNode[] }

export interface SearchPage {
  items: ListingView[];
  total: number;
  facets?: Facets;
  /** Matched title with <em> markup, by listing id, when highlights were asked for a text query. */
  highlights?: Record<number, string>;
}

/** A brand with its slug and how many listings carry it. */
export interface BrandEntry { name: string; slug: string; count: number }

/** What a query's matches can be filtered by, with counts (`CatalogService.searchFilters`). */
export interface SearchFilters {
  total: number;
  /** Category, brand (and platform, rating, price band) buckets, as search facets count them. */
  facets: Facets;
  /** Domain, country and availability buckets. */
  filters: Omit<FilterFacets, 'cheapestId' | 'dearestId'>;
  /** The cheapest and the dearest match, each at its own price converted to the asked currency; null without matches. */
  priceRange: { min: Money; max: Money } | null;
}

export interface ListingPage {
  items: ListingView[];
  total: number;
  /** Where the next page starts; null at the end. */
  next: PageCursor | null;
}

export interface Deal {
  view: ListingView;
  /** The price the discount is measured against (see `deals`). */
  referencePrice: string | null;
  discountPct: number;
  /** The honest-deal check (domain/honest-deal.ts); null when the listing is not discounted against its original price. */
  check: DealCheck | null;
}

/** A discounted listing (surface B deals) with its honest-deal check. */
export interface CheckedListing { view: ListingView; check: DealCheck | null }

/** A trending listing and why it is trending (domain/trending.ts). */
export interface TrendingItem { view: ListingView; trend: Trend }

/** Undefined members dropped: a filter holds only what was asked. */
const clean = (f: ListingFilter): ListingFilter => Object.fromEntries(Object.entries(f).filter(([, v]) => v !== undefined)) as ListingFilter;

const CATEGORY_TTL_MS = 30_000;
/** Brand lists remembered at once (one per category filter asked; the unfiltered one among them). */
const BRAND_LISTS = 64;
/** Listings of a brand and category read to rank similar products from. */
const SIMILAR_CANDIDATES = 200;
/**
 * Candidate lists of similar products remembered per generation (up to two), each SIMILAR_CANDIDATES
 * listings' words (some 10 KB): a catalog of 1,000,000 demo listings has about 2,500 brand and
 * category pairs.
 */
const SIMILAR_LISTS = 2_000;
/** Trending reads every price change of the week: ranked at most once a minute per filter. */
const TRENDING_TTL_MS = 60_000;

/** Search, listing pages, best price, trending, deals and categories over the store; no HTTP, no wire shapes. */
export class CatalogService {
  private categoryCache: { at: number; tree: CategoryNode[] } | null = null;
  private readonly trendingCache = new Map<string, { at: number; ranked: Trend[] }>();
  private readonly brandCache = new Map<string, { at: number; brands: Promise<BrandEntry[]> }>();
  private readonly listings: ReadCache<Listing>;
  private readonly storeVocabulary: StoreVocabulary;
  /** The candidates of a brand or category (`similar`), as read: every listing of one shares them. */
  private similarLists = new SimilarLists(SIMILAR_LISTS);

  constructor(
    private readonly store: CatalogStore,
    private readonly views: ListingViews,
    private readonly now: () => Date,
    private readonly index: IndexedSearch | null = null,
  ) {
    this.listings = new ReadCache(now);
    this.storeVocabulary = new StoreVocabulary(store, () => now().getTime());
  }

  /** A text query that names a product ranks it above its accessories (docs/ranking.md). */
  async search(q: SearchQuery, opts: { currency?: Currency; highlight?: boolean; exact?: boolean } = {}): Promise<SearchPage> {
    // A shopper's text is forgiving (docs/search.md); `exact` for text the service wrote itself.
    let atHead = false;
    if (q.text && !q.terms && !opts.exact) {
      const forgiving = await this.forgivingForm(q.text);
      q = withFields(q, { terms: forgiving.terms });
      atHead = forgiving.atHead;
    }
    const r = await this.find(q.text && q.sort === 'relevance' && !asksForAccessory(q.text) ? withFields(q, { productsFirst: true }) : q, atHead);
    const page: SearchPage = { items: await this.views.of(r.listings, { currency: opts.currency }), total: r.total, facets: r.facets };
    if (opts.highlight && q.text) page.highlights = Object.fromEntries(r.listings.map((l) => [l.id, highlightTitle(l.title, q.text!)]));
    return page;
  }

  async findById(id: number): Promise<Listing | null> {
    return this.store.getById(id);
  }

  /** Every listing with this SKU (one per platform that uses it), most recently updated first. */
  async findBySku(sku: string): Promise<Listing[]> {
    return this.store.getBySku(sku);
  }

  async getMany(ids: number[]): Promise<Listing[]> {
    return this.store.getMany(ids);
  }

  async groupMembers(l: Listing): Promise<Listing[]> {
    return this.store.groupMembers(l.groupId);
  }

  /** The members of a listing's group as merchant offers (what SKU detail lists). */
  async groupMerchants(l: Listing): Promise<MerchantOffer[]> {
    return this.store.groupMerchants(l.groupId);
  }

  /** A page of listings in a stable order; `cursor` continues where the last page ended. */
  async page(filter: ListingFilter, sort: PageSort, cursor: PageCursor | null, limit: number, offset: number, currency?: Currency): Promise<ListingPage> {
    const p = await this.store.page(filter, sort, cursor, limit, offset);
    return { items: await this.views.of(p.listings, { currency }), total: p.total, next: p.next };
  }

  /**
   * The cheapest listing matching a query; null when nothing matches. Accessories are left out
   * unless the query asks for one or nothing else matches (docs/ranking.md): "galaxy s24" is
   * answered by a phone, "galaxy s24 case" and "otterbox defender" by a case.
   */
  async bestPrice(text: string, filter: ListingFilter): Promise<ListingView | null> {
    const cheapest = (f: ListingFilter) => this.find({ text, filter: f, sort: 'price_asc', limit: 1, offset: 0 });
    let r = asksForAccessory(text) ? null : await cheapest(withFields(filter, { excludeAccessories: true }));
    if (!r?.listings.length) r = await cheapest(filter);
    if (!r.listings.length) {
      // Nothing matches the words as written: the cheapest match of the forgiving query (docs/search.md).
      const terms = await this.forgiving(text);
      const forgiven = (f: ListingFilter) => this.find({ text, terms, filter: f, sort: 'price_asc', limit: 1, offset: 0 });
      r = asksForAccessory(text) ? null : await forgiven(withFields(filter, { excludeAccessories: true }));
      if (!r?.listings.length) r = await forgiven(filter);
    }
    return r.listings.length ? this.views.one(r.listings[0]) : null;
  }

  /** The text's forgiving form against the index's vocabulary, else the store's (docs/search.md). */
  private async forgiving(text: string): Promise<TermGroup[] | undefined> {
    return (await this.forgivingForm(text)).terms;
  }

  /** `forgiving`, and whether the index answered it (it was then brought to the log's head: `find` need not read the head again). */
  private async forgivingForm(text: string): Promise<{ terms: TermGroup[] | undefined; atHead: boolean }> {
    const indexed = await this.index?.forgiving(text);
    if (indexed) return { terms: indexed.terms ?? undefined, atHead: true };
    return { terms: forgivingQuery(text, await this.storeVocabulary.lookup()) ?? undefined, atHead: false };
  }

  /**
   * The listings whose price fell over the trending window, ranked by TRENDING_RULE (docs/ranking.md):
   * at most `limit` of them; `total` is how many qualify.
   */
  async trending(filter: ListingFilter, limit: number): Promise<{ items: TrendingItem[]; total: number }> {
    const at = this.now().getTime();
    const key = JSON.stringify(filter);
    let hit = this.trendingCache.get(key);
    if (!hit || at - hit.at >= TRENDING_TTL_MS) {
      const since = new Date(at - TRENDING_WINDOW_DAYS * 86400_000).toISOString();
      hit = { at, ranked: rankTrending(await this.store.priceMoves(since, filter)) };
      // Filters are the category text a client sends: the cache keeps the latest hundred.
      if (this.trendingCache.size >= 100) this.trendingCache.delete(this.trendingCache.keys().next().value!);
      this.trendingCache.set(key, hit);
    }
    const { ranked } = hit;
    const top = ranked.slice(0, limit);
    const byId = new Map((await this.store.getMany(top.map((t) => t.id))).map((l) => [l.id, l]));
    const shown = top.filter((t) => byId.has(t.id));
    const views = await this.views.of(shown.map((t) => byId.get(t.id)!));
    return { items: shown.map((trend, i) => ({ view: views[i], trend })), total: ranked.length };
  }

  /**
   * Listings priced at least `minPct` below the median of their own last 90 days, biggest drop
   * first, each with its honest-deal check; `excludeFlagged` leaves out the deals whose original
   * price was not charged in the last 90 days (see deal-checks.ts checkedPage for offset and total).
   */
  async deals(filter: ListingFilter, minPct: number, limit: number, offset: number, opts: { excludeFlagged?: boolean } = {}): Promise<{ items: Deal[]; total: number }> {
    const r = await checkedPage(this.store, (n, o) => this.find({ filter: withFields(filter, { minHistoryDiscountPct: minPct }), sort: 'deal_desc', limit: n, offset: o }),
      limit, offset, opts.excludeFlagged ?? false, this.now());
    const views = await this.views.of(r.listings);
    return {
      total: r.total,
      items: views.map((view) => {
        const ref = view.listing.referencePrice;
        return { view, referencePrice: ref, discountPct: discountPct(new Big(view.listing.price), ref ? new Big(ref) : null), check: r.checks.get(view.listing.id) ?? null };
      }),
    };
  }

  /** Listings at least `minPct` below their original price, biggest discount first, each with its honest-deal check (as `deals`). */
  async discounted(filter: ListingFilter, minPct: number, limit: number, offset: number, opts: { currency?: Currency; excludeFlagged?: boolean } = {}): Promise<{ items: CheckedListing[]; total: number }> {
    const r = await checkedPage(this.store, (n, o) => this.find({ filter: withFields(filter, { minDiscountPct: minPct }), sort: 'discount_desc', limit: n, offset: o }),
      limit, offset, opts.excludeFlagged ?? false, this.now());
    const views = await this.views.of(r.listings, { currency: opts.currency });
    return { total: r.total, items: views.map((view) => ({ view, check: r.checks.get(view.listing.id) ?? null })) };
  }

  /**
   * Other products like this listing (docs/api.md, Similar): listings of the same brand and
   * category, then of the category alone when those are too few, ranked by the words their titles
   * share with its title. Listings of its own match group (the same product elsewhere) are left out.
   */
  async similar(listing: Listing, limit: number): Promise<ListingView[]> {
    const own = titleWords(listing.title);
    const category = listing.categoryPath?.at(-1) ?? listing.category ?? undefined;
    // The brand's or the category's own words narrow the candidates to their term lists (every
    // listing of the brand or category has them in its indexed text), not a scan of the catalog.
    const tries: Array<{ text: string; filter: ListingFilter }> = [];
    if (listing.brand) tries.push({ text: listing.brand, filter: clean({ brandExact: listing.brand, categoryExact: category }) });
    if (category) tries.push({ text: category, filter: { categoryExact: category } });
    if (!tries.length) return [];
    const seen = new Set<number>();
    // The best `limit` by score, then the lower id: no object nor sort over every candidate.
    const ranked = new TopK(limit, true);
    for (const { text, filter } of tries) {
      const list = await this.similarCandidates(text, filter);
      const mine = list.numbersOf(own);
      for (let i = 0; i < list.length; i++) {
        const id = list.ids[i];
        if (list.groups[i] === listing.groupId || seen.has(id)) continue;
        seen.add(id);
        const brand = list.brands[i];
        ranked.push(list.similarity(i, mine) + (brand && brand === listing.brand ? 1 : 0), id);
      }
      if (seen.size >= limit) break;
    }
    const ids = ranked.sorted();
    const byId = await this.listings.getMany(ids, async (missing) => new Map((await this.store.getMany(missing)).map((l) => [l.id, l])));
    return this.views.of(ids.map((id) => byId.get(id)).filter((l): l is Listing => l !== undefined));
  }

  /**
   * The newest SIMILAR_CANDIDATES listings of a brand or category with the words of their titles,
   * remembered until the catalog changes: the listings of one brand and category all rank the same
   * candidates, which cost a read of every candidate's row. Unlike the read caches, no time bounds
   * them: a list holds ids, groups, brands and titles, which only changes that clear it move (a
   * re-import that changes nothing moves only last_checked_at).
   */
  private async similarCandidates(text: string, filter: ListingFilter): Promise<CandidateList> {
    const key = JSON.stringify([text, filter]);
    const hit = this.similarLists.get(key);
    if (hit) return hit;
    const lists = this.similarLists;
    const q: SearchQuery = { text, filter, sort: 'newest', limit: SIMILAR_CANDIDATES, offset: 0 };
    // From the index, only the columns ranked are read: a whole row per candidate cost most of a cold pair.
    const indexed = await this.index?.search(q);
    const found = indexed ? await this.store.titles(indexed.ids) : (await this.store.search(q)).listings;
    // A list read across a catalog change (invalidate replaced the cache) is not remembered.
    return lists === this.similarLists ? lists.add(key, found) : SimilarLists.single(found);
  }

  /**
   * The in-memory index when it can answer (built, and holding every filter asked), else the store.
   * `atHead`: this request has brought the index to the log's head already (IndexedSearch.search).
   */
  private async find(q: SearchQuery, atHead = false): Promise<SearchResult> {
    if (q.terms && widened(q.terms) && q.sort === 'relevance' && q.afterId === undefined && !q.exceptExact) {
      const { items, ...rest } = await forgivingPage(q, q.terms, async (one) => {
        const { listings, ...r } = await this.engine(one, atHead);
        return { items: listings, ...r };
      });
      return { listings: items, ...rest };
    }
    return this.engine(q, atHead);
  }

  private async engine(q: SearchQuery, atHead = false): Promise<SearchResult> {
    const hit = await this.index?.search(q, atHead);
    if (!hit) return this.store.search(q);
    const byId = await this.listings.getMany(hit.ids, async (ids) => new Map((await this.store.getMany(ids)).map((l) => [l.id, l])));
    const listings = hit.ids.map((id) => byId.get(id)).filter((l): l is Listing => l !== undefined);
    return { listings, total: hit.total, facets: hit.facets, ...(hit.filterFacets ? { filterFacets: hit.filterFacets } : {}) };
  }

  /**
   * What the matches of a query can be filtered by, with counts: the search facets, the filter
   * facets, and the price range in `currency` (the cheapest and dearest match by SGD price, each
   * converted from its own price). The same engine as search answers: the index, else the store.
   */
  async searchFilters(text: string, filter: ListingFilter, currency: Currency): Promise<SearchFilters> {
    const r = await this.find({ text, terms: await this.forgiving(text), filter, sort: 'relevance', limit: 1, offset: 0, facets: true, filterFacets: true });
    const { cheapestId, dearestId, ...filters } = r.filterFacets!;
    let priceRange: SearchFilters['priceRange'] = null;
    if (cheapestId !== null && dearestId !== null) {
      const ends = new Map((await this.store.getMany([cheapestId, dearestId])).map((l) => [l.id, l]));
      const [lo, hi] = [ends.get(cheapestId), ends.get(dearestId)];
      // Both were matched a moment ago; a listing gone since leaves the range unknown rather than wrong.
      if (lo && hi) priceRange = { min: this.views.convert(lo.price, lo.currency, currency), max: this.views.convert(hi.price, hi.currency, currency) };
    }
    return { total: r.total, facets: r.facets!, filters, priceRange };
  }

  /**
   * Brands with their listing counts, most listings first (then by name): only those whose name
   * starts with `prefix` (case-insensitive), counted over the listings of `category` (a partial,
   * case-insensitive match on the category or its path) when given. Each list is a full scan,
   * remembered for 30 seconds and until the catalog changes; the prefix and the page cut it.
   */
  async brands(opts: { prefix?: string; category?: string; limit: number; offset: number }): Promise<{ items: BrandEntry[]; total: number }> {
    const all = await this.brandList(opts.category?.trim() || undefined);
    const prefix = opts.prefix?.trim().toLowerCase();
    const matching = prefix ? all.filter((b) => b.name.toLowerCase().startsWith(prefix)) : all;
    return { items: matching.slice(opts.offset, opts.offset + opts.limit), total: matching.length };
  }

  /** The brands of a category filter; requests that arrive while it is read share the one scan. */
  private brandList(category: string | undefined): Promise<BrandEntry[]> {
    const key = category?.toLowerCase() ?? '';
    const at = this.now().getTime();
    const hit = this.brandCache.get(key);
    if (hit && at - hit.at < CATEGORY_TTL_MS) return hit.brands;
    const brands = this.store.brandCounts(category ? { categoryLike: category } : {})
      .then((list) => list.map((b) => ({ name: b.name, slug: slugify(b.name), count: b.count })));
    this.brandCache.delete(key);
    if (this.brandCache.size >= BRAND_LISTS) this.brandCache.delete(this.brandCache.keys().next().value as string);
    const entry = { at, brands };
    this.brandCache.set(key, entry);
    // A failed read is not remembered (unless a newer one took its place already).
    brands.catch(() => { if (this.brandCache.get(key) === entry) this.brandCache.delete(key); });
    return brands;
  }

  /** Listings in id order, read in chunks, never all at once. */
  scan(filter: ListingFilter, limit: number, offset: number): AsyncIterable<Listing> {
    return this.store.scan(filter, limit, offset);
  }

  /** The category tree with counts at every level; cached briefly, it is a full scan on a big catalog. */
  async categoryTree(): Promise<CategoryNode[]> {
    const at = this.now().getTime();
    if (this.categoryCache && at - this.categoryCache.at < CATEGORY_TTL_MS) return this.categoryCache.tree;
    const roots: CategoryNode[] = [];
    // The index counts them from its columns; the store scans every listing.
    for (const { path, count } of (await this.index?.categories()) ?? (await this.store.categories())) {
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

  /** The category whose slug this is, at any level of the tree (the first in tree order); null when none. */
  async categoryBySlug(slug: string): Promise<CategoryNode | null> {
    const find = (nodes: CategoryNode[]): CategoryNode | null => {
      for (const n of nodes) {
        if (n.slug === slug) return n;
        const below = find(n.children);
        if (below) return below;
      }
      return null;
    };
    return find(await this.categoryTree());
  }

  /**
   * The listings of a category (any level below it), newest first. Its name's words narrow the
   * search to their term lists: every listing of the category has them in its indexed category text.
   */
  async inCategory(node: CategoryNode, limit: number, offset: number, currency?: Currency): Promise<SearchPage> {
    return this.search({ text: node.name, filter: { categoryExact: node.slug }, sort: 'newest', limit, offset }, { currency, exact: true });
  }

  /** After any catalog change: what is derived from listings is read again. */
  invalidate(): void {
    this.categoryCache = null;
    this.trendingCache.clear();
    this.brandCache.clear();
    this.similarLists = new SimilarLists(SIMILAR_LISTS);
    this.listings.clear();
    this.views.invalidate();
    this.storeVocabulary.invalidate();
  }
}
