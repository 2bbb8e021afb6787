import Big from 'big.js';
import type { Currency } from './currencies.js';
import type { PriceObservation } from './listing.js';

const DAY = 86_400_000;

/** The Omnibus window: the lowest price in force this many days before the discount began. */
export const PRIOR_LOW_DAYS = 30;
/** The "was" price must have been charged at some time in this many days, or the discount is flagged. */
export const WAS_PRICE_DAYS = 90;
/** How far back a deal's history is read: a discount running longer than this has no known start. */
export const DEAL_HISTORY_DAYS = 365;

/** What the rule reads of a listing. */
export interface DealListing {
  price: string;
  currency: Currency;
  originalPrice: string | null;
  lastCheckedAt: string;
}

/**
 * How honest a listing's discount is (docs/deals.md). Prices are in the listing's own currency,
 * exact decimal text as observed.
 */
export interface DealCheck {
  /** When the current uninterrupted run of prices below original_price began; null when it began before the history. */
  discountStartedAt: string | null;
  /** The lowest price in force in the PRIOR_LOW_DAYS before discountStartedAt; null when the history does not cover them. */
  priorLow: string | null;
  /**
   * True when original_price is above every price in force in the last WAS_PRICE_DAYS; false when
   * some price in them reached it; null when none did but the history covers less than the window.
   */
  originalNeverCharged: boolean | null;
  /** The highest price in force in the last WAS_PRICE_DAYS (or the part of them the history covers); null without history. */
  highestRecent: string | null;
}

/** A listing is discounted when its original price is above its price. */
export const isDiscounted = (l: Pick<DealListing, 'price' | 'originalPrice'>): boolean =>
  l.originalPrice !== null && new Big(l.originalPrice).gt(l.price);

interface Point { at: number; price: Big; text: string }

/**
 * The listing's history as a step function in its current currency: observations at or before
 * `now`, oldest first, from the last change of currency on (an older price in another currency
 * says nothing of this one), ending with the current price at its last check when the last
 * observation differs from it.
 */
function historyOf(l: DealListing, observations: PriceObservation[], now: number): Point[] {
  const sorted = observations
    .map((o) => ({ at: Date.parse(o.observedAt), o }))
    .filter((x) => x.at <= now)
    .sort((a, b) => a.at - b.at);
  let from = 0;
  sorted.forEach((x, i) => { if (x.o.currency !== l.currency) from = i + 1; });
  const points = sorted.slice(from).map(({ at, o }) => ({ at, price: new Big(o.price), text: o.price }));
  const current = new Big(l.price);
  const checked = Math.min(Date.parse(l.lastCheckedAt), now);
  const last = points.at(-1);
  if (last && !last.price.eq(current) && checked > last.at) points.push({ at: checked, price: current, text: l.price });
  return points;
}

/** The index of the point in force at `t`: the last one at or before it, or -1 when the history starts later. */
function inForce(points: Point[], t: number): number {
  let k = -1;
  for (let i = 0; i < points.length && points[i].at <= t; i++) k = i;
  return k;
}

/**
 * The Omnibus lowest price and the "was price that never was" flag of a discounted listing (one
 * whose original_price is above its price); null for a listing that is not discounted.
 * `observations` are its price observations since DEAL_HISTORY_DAYS before `now` with the one in
 * force then (CatalogStore.observationsFor), in any currency and order.
 *
 * - The discount began at the first point of the run of points below original_price that ends
 *   with the current price. When the run reaches back to the first point known, the start is
 *   unknown (null): the listing was discounted when first seen, or before the history read.
 * - priorLow: the lowest price in force during [start - 30 days, start); null when the start is
 *   unknown or the history begins after start - 30 days.
 * - originalNeverCharged: every price in force during [now - 90 days, now] is below
 *   original_price (true); one reached it (false); none did but the history begins after
 *   now - 90 days (null: too little history to say).
 */
export function checkDeal(l: DealListing, observations: PriceObservation[], now: Date): DealCheck | null {
  if (!isDiscounted(l)) return null;
  const original = new Big(l.originalPrice!);
  const t = now.getTime();
  const points = historyOf(l, observations, t);
  if (!points.length) return { discountStartedAt: null, priorLow: null, originalNeverCharged: null, highestRecent: null };

  let s = points.length - 1;
  while (s > 0 && points[s - 1].price.lt(original)) s--;
  let discountStartedAt: string | null = null;
  let priorLow: string | null = null;
  if (s > 0) {
    const start = points[s].at;
    discountStartedAt = new Date(start).toISOString();
    const from = inForce(points, start - PRIOR_LOW_DAYS * DAY);
    if (from >= 0) {
      let low = points[from];
      for (let i = from + 1; i < s; i++) if (points[i].price.lt(low.price)) low = points[i];
      priorLow = low.text;
    }
  }

  const windowStart = t - WAS_PRICE_DAYS * DAY;
  const covered = inForce(points, windowStart);
  let high: Point | null = null;
  for (let i = Math.max(covered, 0); i < points.length; i++) if (!high || points[i].price.gt(high.price)) high = points[i];
  const reached = high !== null && high.price.gte(original);
  return {
    discountStartedAt,
    priorLow,
    originalNeverCharged: reached ? false : covered >= 0 ? true : null,
    highestRecent: high ? high.text : null,
  };
}
