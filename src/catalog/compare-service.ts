import Big from 'big.js';
import { profileOfListing } from '../domain/listing-profile.js';
import { compareProfiles, type MatchClass, type MatchEvidence } from '../domain/matching/index.js';
import type { Listing } from '../domain/listing.js';
import type { Currency } from '../domain/currencies.js';
import type { ListingView, ListingViews } from './listing-views.js';

export interface CompareMatch {
  listing: Listing;
  matchScore: number;
  matchClass: MatchClass;
  evidence: MatchEvidence;
}

/** A match as presenters show it. */
export interface MatchView extends Omit<CompareMatch, 'listing'> {
  view: ListingView;
  /** Listed at a price of zero (spec 2.5 zero_price). */
  zeroPrice: boolean;
}

export interface Highlights {
  cheapest: Listing | null;
  bestRated: Listing | null;
  fastestShipping: Listing | null;
}

/** One listing's cross-platform matches, cheapest first, and what stands out among them. */
export interface Comparison {
  source: Listing;
  matches: MatchView[];
  highlights: Highlights;
}

/** Fields a diff lays side by side, by their domain names. */
export const DIFF_FIELDS = [
  'title', 'brand', 'source', 'price', 'currency', 'priceSgd', 'category', 'rating', 'reviewCount', 'inStock', 'stockLevel',
  'shippingDays', 'gtin', 'region', 'specs',
] as const satisfies ReadonlyArray<keyof Listing>;
export type DiffField = (typeof DIFF_FIELDS)[number];

export interface FieldDiff { field: DiffField; values: unknown[]; allIdentical: boolean }

export interface Diff {
  products: Array<{ view: ListingView; priceRank: number }>;
  fieldDiffs: FieldDiff[];
  identicalFields: DiffField[];
  cheapestId: number;
  mostExpensiveId: number;
  /** Dearest minus cheapest price as shown (in `spreadCurrency`), exact. */
  priceSpread: Big;
  spreadCurrency: Currency;
  /** The spread as a percentage of the cheapest price, 2 decimals; null when that price is zero or unknown. */
  priceSpreadPct: number | null;
  /** The listings share one image URL: the only image evidence there is (images are not fetched). */
  sameImageUrl: boolean;
}

export interface PriceBounds { minSgdMinor?: number; maxSgdMinor?: number }

const sgd = (l: Pick<Listing, 'priceSgd'>) => (l.priceSgd === null ? null : new Big(l.priceSgd));

/** The price a view shows: in the currency it was asked in, else the SGD price; null when unknown. */
export function shownPrice(v: ListingView): Big | null {
  return v.converted ? new Big(v.converted.amount) : sgd(v.listing);
}

/** Views in the order of the prices they show, unknown prices last, ties by id. */
export function byShownPrice(a: ListingView, b: ListingView): number {
  const pa = shownPrice(a);
  const pb = shownPrice(b);
  if (!pa || !pb) return pa ? -1 : pb ? 1 : a.listing.id - b.listing.id;
  return pa.cmp(pb) || a.listing.id - b.listing.id;
}

/** What stands out among views, by the prices they show (V2 comparisons); each null when nothing qualifies. */
export interface ViewHighlights {
  cheapest: ListingView | null;
  bestRated: ListingView | null;
  fastestShipping: ListingView | null;
}

/** Price order with listings whose price is unknown last. */
export function byPrice(a: Pick<Listing, 'id' | 'priceSgd'>, b: Pick<Listing, 'id' | 'priceSgd'>): number {
  const pa = sgd(a);
  const pb = sgd(b);
  if (!pa || !pb) return pa ? -1 : pb ? 1 : a.id - b.id;
  return pa.cmp(pb) || a.id - b.id;
}

/**
 * The one notion of "same product" every endpoint reads: a listing's match group, each member
 * scored against it with evidence. Only `exact` members count unless other classes are asked for.
 */
export class CompareService {
  constructor(
    private readonly catalog: { groupMembers(l: Listing): Promise<Listing[]>; getMany(ids: number[]): Promise<Listing[]> },
    private readonly views: ListingViews,
  ) {}

  async matchesFor(source: Listing, opts: { classes?: MatchClass[] } & PriceBounds = {}): Promise<CompareMatch[]> {
    const classes = opts.classes ?? ['exact'];
    const members = (await this.catalog.groupMembers(source)).filter((m) => m.id !== source.id);
    const p = profileOfListing(source);
    const matches = members.map((m) => {
      const r = compareProfiles(p, profileOfListing(m));
      return { listing: m, matchScore: r.score, matchClass: r.matchClass, evidence: r.evidence };
    });
    return matches
      .filter((m) => classes.includes(m.matchClass) || (m.matchClass === 'different' && classes.includes('exact')))
      .filter((m) => inRange(m.listing, opts.minSgdMinor, opts.maxSgdMinor))
      .sort((a, b) => byPrice(a.listing, b.listing));
  }

  /** A listing's matches within the bounds, presented in `currency` when asked, with highlights. */
  async comparison(source: Listing, bounds: PriceBounds = {}, currency?: Currency): Promise<Comparison> {
    const matches = await this.matchesFor(source, bounds);
    const views = await this.views.of(matches.map((m) => m.listing), { currency });
    return {
      source,
      matches: matches.map((m, i) => ({
        view: views[i], matchScore: m.matchScore, matchClass: m.matchClass, evidence: m.evidence, zeroPrice: new Big(m.listing.price).eq(0),
      })),
      highlights: this.highlights(matches.map((m) => m.listing)),
    };
  }

  /** Comparisons of several listings by id; ids no listing has are listed, not dropped. */
  async compareMany(ids: number[], bounds: PriceBounds = {}): Promise<{ comparisons: Comparison[]; notFound: number[] }> {
    const found = await this.catalog.getMany([...new Set(ids)]);
    const comparisons: Comparison[] = [];
    for (const l of found) comparisons.push(await this.comparison(l, bounds));
    const known = new Set(found.map((l) => l.id));
    return { comparisons, notFound: ids.filter((id) => !known.has(id)) };
  }

  highlights(listings: Listing[]): Highlights {
    const priced = listings.filter((l) => l.priceSgd !== null);
    const rated = listings.filter((l) => l.rating !== null);
    const shipped = listings.filter((l) => l.shippingDays !== null);
    return {
      cheapest: priced.length ? [...priced].sort(byPrice)[0] : null,
      bestRated: rated.length ? [...rated].sort((a, b) => new Big(b.rating!).cmp(new Big(a.rating!)) || (b.reviewCount ?? 0) - (a.reviewCount ?? 0))[0] : null,
      fastestShipping: shipped.length ? [...shipped].sort((a, b) => a.shippingDays! - b.shippingDays! || byPrice(a, b))[0] : null,
    };
  }

  /** highlights over views: the cheapest by shown price; ties of rating go to more reviews, then the cheaper. */
  viewHighlights(views: ListingView[]): ViewHighlights {
    const ordered = [...views].sort(byShownPrice);
    const rated = ordered.filter((v) => v.listing.rating !== null);
    const shipped = ordered.filter((v) => v.listing.shippingDays !== null);
    const rating = (v: ListingView) => new Big(v.listing.rating!);
    return {
      cheapest: ordered.find((v) => shownPrice(v) !== null) ?? null,
      bestRated: rated.length ? [...rated].sort((a, b) => rating(b).cmp(rating(a)) || (b.listing.reviewCount ?? 0) - (a.listing.reviewCount ?? 0))[0] : null,
      fastestShipping: shipped.length ? [...shipped].sort((a, b) => a.listing.shippingDays! - b.listing.shippingDays!)[0] : null,
    };
  }

  /**
   * Several listings by id side by side (V2 bulk compare): in `currency`, by the price they show,
   * with the cheapest and best rated among them; ids no listing has are listed, not dropped.
   */
  async bulk(ids: number[], currency: Currency): Promise<{ views: ListingView[]; notFound: number[]; highlights: ViewHighlights }> {
    const listings = await this.catalog.getMany([...new Set(ids)]);
    const known = new Set(listings.map((l) => l.id));
    const views = (await this.views.of(listings, { currency })).sort(byShownPrice);
    return { views, notFound: [...new Set(ids)].filter((id) => !known.has(id)), highlights: this.viewHighlights(views) };
  }

  /**
   * Side-by-side field differences of the listings `ids` name; null when fewer than 2 of them exist.
   * Ranked by the price shown: in `currency` when one is asked (V2, current rates), else SGD.
   */
  async diff(ids: number[], opts: { currency?: Currency } = {}): Promise<{ diff: Diff | null; notFound: number[] }> {
    const listings = await this.catalog.getMany([...new Set(ids)]);
    const known = new Set(listings.map((l) => l.id));
    const notFound = ids.filter((id) => !known.has(id));
    if (listings.length < 2) return { diff: null, notFound };
    const views = await this.views.of(listings, { currency: opts.currency });
    const ranked = [...views].sort(byShownPrice);
    const rank = new Map(ranked.map((v, i) => [v.listing.id, i + 1]));
    const fieldDiffs = DIFF_FIELDS.map((field) => {
      const values = listings.map((l) => l[field]);
      const first = JSON.stringify(values[0] ?? null);
      return { field, values, allIdentical: values.every((v) => JSON.stringify(v ?? null) === first) };
    });
    const cheapest = ranked[0];
    const dearest = ranked[ranked.length - 1];
    const lo = shownPrice(cheapest);
    const hi = shownPrice(dearest) ?? lo;
    const spread = lo && hi ? hi.minus(lo) : new Big(0);
    return {
      notFound,
      diff: {
        products: views.map((view) => ({ view, priceRank: rank.get(view.listing.id)! })),
        fieldDiffs: fieldDiffs.filter((f) => !f.allIdentical),
        identicalFields: fieldDiffs.filter((f) => f.allIdentical).map((f) => f.field),
        cheapestId: cheapest.listing.id,
        mostExpensiveId: dearest.listing.id,
        priceSpread: spread,
        spreadCurrency: opts.currency ?? 'SGD',
        priceSpreadPct: !lo || lo.eq(0) ? null : Number(spread.div(lo).times(100).round(2).toFixed(2)),
        sameImageUrl: new Set(listings.map((l) => l.imageUrl)).size === 1,
      },
    };
  }
}

function inRange(l: Listing, min?: number, max?: number): boolean {
  if (min === undefined && max === undefined) return true;
  if (l.priceSgd === null) return false;
  const cents = Number(new Big(l.priceSgd).times(100).toFixed(0));
  return (min === undefined || cents >= min) && (max === undefined || cents <= max);
}
