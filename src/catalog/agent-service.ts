import { asksForAccessory } from '../domain/accessory.js';
import type { Currency } from '../domain/currencies.js';
import type { DecisionSignals } from '../domain/decision-signals.js';
import type { Listing, PriceObservation } from '../domain/listing.js';
import type { CatalogStore, ListingFilter, SortKey } from '../store/types.js';
import type { CatalogService } from './catalog-service.js';
import { byShownPrice, type CompareService, type ViewHighlights } from './compare-service.js';
import type { ListingView, ListingViews } from './listing-views.js';
import type { SignalsService } from './signals-service.js';
import { withFields } from '../domain/with-fields.js';

/** One observed price, in the asked currency. */
export interface PricePointView { price: string; currency: Currency; at: string }

/** A listing as agent records show it: its view, its decision signals, and its price history when asked. */
export interface AgentItem {
  view: ListingView;
  signals: DecisionSignals;
  /** Its prices over the last HISTORY_DAYS, oldest first; null when not asked. */
  history: PricePointView[] | null;
}

/** A page of listings for agents. */
export interface AgentPage {
  items: AgentItem[];
  total: number;
}

export interface AgentSearch {
  /** Words to search for; absent: every listing the filter lets through. */
  text?: string;
  filter: ListingFilter;
  sort: SortKey;
  /** Sources whose listings come first, every other one still listed after them. */
  preferred: string[];
  limit: number;
  offset: number;
  currency: Currency;
  history: boolean;
}

/** Days of prices `price_history` covers. */
export const HISTORY_DAYS = 30;
/** Observations of one listing `price_history` shows at most (the newest). */
export const HISTORY_POINTS = 100;
/** Trending listings grouped into categories (docs/api.md, V2 agent trending). */
export const TRENDING_POOL = 200;

export interface TrendingCategory { category: string | null; count: number; items: AgentItem[] }

/** bulk-compare: the best value among the listings compared (the highest value_score; ties go to the cheaper). */
export interface BestValue { item: AgentItem; valueScore: number }

/** The agent endpoints' use cases (spec 4.4) over search, comparison, sampling and trending. */
export class AgentService {
  constructor(
    private readonly catalog: CatalogService,
    private readonly compare: CompareService,
    private readonly views: ListingViews,
    private readonly signals: Pick<SignalsService, 'read'>,
    private readonly store: Pick<CatalogStore, 'sample'>,
    private readonly now: () => Date,
  ) {}

  /**
   * Search with preferred sources first: the matches from those sources in the asked order, then
   * the other matches in the same order, one page across both (two searches, no more).
   */
  async search(q: AgentSearch): Promise<AgentPage> {
    const run = (filter: ListingFilter, limit: number, offset: number) =>
      this.catalog.search({ text: q.text, filter, sort: q.sort, limit, offset }, { currency: q.currency });
    if (!q.preferred.length) {
      const r = await run(q.filter, q.limit, q.offset);
      return this.page(r.items, r.total, q.currency, q.history);
    }
    const preferred = q.filter.sources ? q.filter.sources.filter((s) => q.preferred.includes(s)) : q.preferred;
    const first = preferred.length ? await run(withFields(q.filter, { sources: preferred }), q.limit, q.offset) : { items: [], total: 0 };
    const rest = await run(
      withFields(q.filter, { excludeSources: [...new Set([...(q.filter.excludeSources ?? []), ...preferred])] }),
      // a page that the preferred listings fill still needs the others' total: one listing read for it
      Math.max(1, q.limit - first.items.length), Math.max(0, q.offset - first.total),
    );
    return this.page([...first.items, ...rest.items].slice(0, q.limit), first.total + rest.total, q.currency, q.history);
  }

  /** A reproducible random page: the listings `offset` to `offset + limit` of the seed's draw. */
  async explore(filter: ListingFilter, limit: number, offset: number, seed: number, currency: Currency): Promise<AgentPage & { drawn: number }> {
    const r = await this.store.sample(filter, offset + limit, seed);
    const page = await this.page(await this.views.of(r.listings.slice(offset, offset + limit), { currency }), r.total, currency, false);
    return withFields(page, { drawn: r.listings.length });
  }

  /**
   * The cheapest listings matching a name (price comparison, best price): the `limit` cheapest by
   * the SGD price stored, ordered by the price they show in `currency`, with their highlights.
   */
  async cheapest(text: string, filter: ListingFilter, limit: number, currency: Currency): Promise<AgentPage & { highlights: ViewHighlights }> {
    // As best-price (docs/ranking.md): a product's name is answered with products, not the cases
    // and chargers that are cheaper, unless it names an accessory or only accessories match.
    const query = { text, sort: 'price_asc' as const, limit, offset: 0 };
    let r = asksForAccessory(text) ? null : await this.catalog.search(withFields(query, { filter: withFields(filter, { excludeAccessories: true }) }), { currency });
    if (!r || r.total === 0) r = await this.catalog.search(withFields(query, { filter }), { currency });
    const views = [...r.items].sort(byShownPrice);
    return withFields(await this.page(views, r.total, currency, false), { highlights: this.compare.viewHighlights(views) });
  }

  /** Listings by id in the order asked (each once); ids no listing has are listed. */
  async lookup(ids: number[], currency: Currency, history: boolean): Promise<AgentPage & { notFound: number[] }> {
    const unique = [...new Set(ids)];
    const found = new Map((await this.catalog.getMany(unique)).map((l) => [l.id, l]));
    const listings = unique.map((id) => found.get(id)).filter((l): l is Listing => l !== undefined);
    const page = await this.page(await this.views.of(listings, { currency }), listings.length, currency, history);
    return withFields(page, { notFound: unique.filter((id) => !found.has(id)) });
  }

  /**
   * Listings by id side by side (bulk-compare): by the price they show in `currency`, with the
   * cheapest, the best rated and the best value among them; ids no listing has are listed.
   */
  async bulk(ids: number[], currency: Currency): Promise<AgentPage & { notFound: number[]; highlights: ViewHighlights; bestValue: BestValue | null }> {
    const r = await this.compare.bulk(ids, currency);
    const page = await this.page(r.views, r.views.length, currency, false);
    let bestValue: BestValue | null = null;
    for (const item of page.items) {
      const score = item.signals.agentInsights.valueScore;
      if (score !== null && (!bestValue || score > bestValue.valueScore)) bestValue = { item, valueScore: score };
    }
    return withFields(page, { notFound: r.notFound, highlights: r.highlights, bestValue });
  }

  /**
   * Trending listings by category: the first TRENDING_POOL listings of the trending rule
   * (CatalogService.trending), grouped by their category; categories with more of them first,
   * then by name; each keeps its listings in trending order, at most `perCategory`.
   */
  async trendingByCategory(filter: ListingFilter, perCategory: number, categories: number, currency: Currency): Promise<{ total: number; groups: TrendingCategory[] }> {
    const r = await this.catalog.trending(filter, TRENDING_POOL);
    const byCategory = new Map<string | null, Listing[]>();
    for (const { view } of r.items) {
      const key = view.listing.category;
      const list = byCategory.get(key);
      if (list) list.push(view.listing);
      else byCategory.set(key, [view.listing]);
    }
    const chosen = [...byCategory.entries()]
      .sort(([a, la], [b, lb]) => lb.length - la.length || (a ?? '\uffff').localeCompare(b ?? '\uffff'))
      .slice(0, categories);
    const page = await this.page(await this.views.of(chosen.flatMap(([, list]) => list.slice(0, perCategory)), { currency }), 0, currency, false);
    const byId = new Map(page.items.map((item) => [item.view.listing.id, item]));
    return {
      total: r.total,
      groups: chosen.map(([category, list]) => ({ category, count: list.length, items: list.slice(0, perCategory).map((l) => byId.get(l.id)!) })),
    };
  }

  /** Views with their signals and, when asked, their price history (from the observations the signals read: one batch of reads for the page). */
  private async page(views: ListingView[], total: number, currency: Currency, history: boolean): Promise<AgentPage> {
    const { signals, observations } = await this.signals.read(views.map((v) => v.listing), currency);
    const prices = history ? this.history(observations, currency) : null;
    return { total, items: views.map((view, i) => ({ view, signals: signals[i], history: prices ? (prices.get(view.listing.id) ?? []) : null })) };
  }

  /**
   * The last HISTORY_DAYS of each listing's observed prices (the newest HISTORY_POINTS), in
   * `currency`, oldest first, out of the signals' longer read (HISTORY_DAYS is within it).
   */
  private history(read: Map<number, PriceObservation[]>, currency: Currency): Map<number, PricePointView[]> {
    const since = new Date(this.now().getTime() - HISTORY_DAYS * 86400_000).toISOString();
    const out = new Map<number, PricePointView[]>();
    for (const [id, entries] of read) {
      out.set(id, entries.filter((e) => e.observedAt >= since).slice(-HISTORY_POINTS).map((e) => {
        const shown = this.views.convert(e.price, e.currency, currency);
        return { price: shown.amount, currency: shown.currency, at: e.observedAt };
      }));
    }
    return out;
  }
}
