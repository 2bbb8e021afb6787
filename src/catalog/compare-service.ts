import Big from 'big.js';
import { profileOfListing } from '../domain/listing-profile.js';
import { compareProfiles, type MatchClass, type MatchEvidence } from '../domain/matching/index.js';
import type { Listing } from '../domain/listing.js';
import { DomainError } from '../domain/errors.js';
import type { CatalogService } from './catalog-service.js';

export interface CompareMatch {
  listing: Listing;
  matchScore: number;
  matchClass: MatchClass;
  evidence: MatchEvidence;
}

export interface Highlights {
  cheapest: Listing | null;
  bestRated: Listing | null;
  fastestShipping: Listing | null;
}

export interface FieldDiff { field: string; values: unknown[]; allIdentical: boolean }

export interface DiffResult {
  products: Array<{ listing: Listing; priceRank: number }>;
  fieldDiffs: FieldDiff[];
  identicalFields: string[];
  cheapestId: number;
  mostExpensiveId: number;
  /** In SGD, exact. */
  priceSpread: Big;
  priceSpreadPct: number;
}

const profileOf = profileOfListing;
const sgd = (l: Listing) => (l.priceSgd === null ? null : new Big(l.priceSgd));

/** Price order with listings whose price is unknown last. */
export function byPrice(a: Listing, b: Listing): number {
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
  constructor(private readonly catalog: CatalogService) {}

  async matchesFor(source: Listing, opts: { classes?: MatchClass[]; minSgdMinor?: number; maxSgdMinor?: number } = {}): Promise<CompareMatch[]> {
    const classes = opts.classes ?? ['exact'];
    const members = (await this.catalog.groupMembers(source)).filter((m) => m.id !== source.id);
    const p = profileOf(source);
    const matches = members.map((m) => {
      const r = compareProfiles(p, profileOf(m));
      return { listing: m, matchScore: r.score, matchClass: r.matchClass, evidence: r.evidence };
    });
    return matches
      .filter((m) => classes.includes(m.matchClass) || (m.matchClass === 'different' && classes.includes('exact')))
      .filter((m) => inRange(m.listing, opts.minSgdMinor, opts.maxSgdMinor))
      .sort((a, b) => byPrice(a.listing, b.listing));
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

  /** Side-by-side field differences of 2+ listings (compare diff, compare matrix). */
  diff(listings: Listing[], fields: Array<{ name: string; get: (l: Listing) => unknown }>): DiffResult {
    if (listings.length < 2) throw new DomainError('VALIDATION_ERROR', 'at least 2 products are needed', undefined, [{ loc: ['body', 'product_ids'], msg: 'at least 2 known products are needed', type: 'too_short' }]);
    const ranked = [...listings].sort(byPrice);
    const rank = new Map(ranked.map((l, i) => [l.id, i + 1]));
    const fieldDiffs = fields.map(({ name, get }) => {
      const values = listings.map(get);
      const first = JSON.stringify(values[0] ?? null);
      return { field: name, values, allIdentical: values.every((v) => JSON.stringify(v ?? null) === first) };
    });
    const cheapest = ranked[0];
    const dearest = ranked[ranked.length - 1];
    const lo = sgd(cheapest) ?? new Big(0);
    const hi = sgd(dearest) ?? lo;
    const spread = hi.minus(lo);
    return {
      products: listings.map((l) => ({ listing: l, priceRank: rank.get(l.id)! })),
      fieldDiffs: fieldDiffs.filter((f) => !f.allIdentical),
      identicalFields: fieldDiffs.filter((f) => f.allIdentical).map((f) => f.field),
      cheapestId: cheapest.id,
      mostExpensiveId: dearest.id,
      priceSpread: spread,
      priceSpreadPct: lo.eq(0) ? 0 : Number(spread.div(lo).times(100).round(2).toFixed(2)),
    };
  }
}

function inRange(l: Listing, min?: number, max?: number): boolean {
  if (min === undefined && max === undefined) return true;
  if (l.priceSgd === null) return false;
  const cents = Number(new Big(l.priceSgd).times(100).toFixed(0));
  return (min === undefined || cents >= min) && (max === undefined || cents <= max);
}
