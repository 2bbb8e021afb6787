import Big from 'big.js';
import { changePct } from './money.js';
import type { PriceTrend } from './listing.js';
import type { PricePoint } from './price-stats.js';

const DAY = 86_400_000;

/**
 * A listing's price history is a step function: an observation is stored when the price changes
 * (and when the listing is first seen), and the price holds until the next one. The functions here
 * take the points oldest first, in the listing's currency, starting with the one in force at the
 * start of the window when the history reaches back that far (CatalogStore.observationsFor reads so).
 */

/** The window of price_trend and price_change_percentage. */
export const TREND_WINDOW_DAYS = 30;
/** Less history than this says nothing of a trend. */
export const MIN_TREND_HISTORY_DAYS = 1;

export interface PriceChange {
  trend: PriceTrend;
  /** (current - start) / start x 100, rounded to 2 decimals; null when the start price is 0. */
  percentage: number | null;
  /** The days the change spans: the window, or less when the history starts inside it. */
  days: number;
}

const byTime = (a: PricePoint, b: PricePoint) => (a.at < b.at ? -1 : a.at > b.at ? 1 : 0);
const sorted = (points: PricePoint[]) => points.slice().sort(byTime);

/**
 * The change from the price at the window's start (or at the first observation, when the history
 * starts inside the window) to `current`: `up` when the rounded percentage is above 0, `down`
 * when below, `stable` at 0. Null without observations, or with less than a day of history.
 */
export function priceChange(points: PricePoint[], current: string, now: Date, windowDays = TREND_WINDOW_DAYS): PriceChange | null {
  if (!points.length) return null;
  const ps = sorted(points);
  const start = new Date(now.getTime() - windowDays * DAY).toISOString();
  let base = ps[0];
  for (const p of ps) if (p.at <= start) base = p;
  const from = base.at <= start ? start : base.at;
  const spanMs = now.getTime() - Date.parse(from);
  if (spanMs < MIN_TREND_HISTORY_DAYS * DAY) return null;
  const before = new Big(base.price);
  const after = new Big(current);
  const percentage = before.eq(0) ? null : changePct(before, after);
  const sign = percentage === null ? after.cmp(before) : Math.sign(percentage);
  return { trend: sign > 0 ? 'up' : sign < 0 ? 'down' : 'stable', percentage, days: Math.round(spanMs / DAY) };
}

/** The window seasonal_factor compares with the year. */
export const SEASON_RECENT_DAYS = 30;
/** The year it is compared with: up to this many days... */
export const SEASON_YEAR_DAYS = 365;
/** ...and at least this many: with less history, the "usual" price is no more than a recent one. */
export const MIN_SEASON_HISTORY_DAYS = 180;

/**
 * The time-weighted mean of the step function over [from, to] (ISO times): each price weighs the
 * time it held. The price before the first point is unknown, so the mean starts at the later of
 * `from` and the first point. Null when that leaves no time.
 */
export function timeWeightedMean(points: PricePoint[], from: string, to: string): Big | null {
  const ps = sorted(points);
  const end = Date.parse(to);
  let total = new Big(0);
  let weight = 0;
  for (let i = 0; i < ps.length; i++) {
    const a = Math.max(Date.parse(ps[i].at), Date.parse(from));
    const b = Math.min(i + 1 < ps.length ? Date.parse(ps[i + 1].at) : end, end);
    if (b <= a) continue;
    total = total.plus(new Big(ps[i].price).times(b - a));
    weight += b - a;
  }
  return weight > 0 ? total.div(weight) : null;
}

/**
 * How the listing's price over the last 30 days compares with its own usual price: the
 * time-weighted mean over the last 30 days divided by the time-weighted mean over the last year
 * (365 days, or since the first observation), rounded to 3 decimals. Above 1 the listing costs more
 * now than it usually does, below 1 less. Null with less than 180 days of history or a usual price
 * of 0. One year of data cannot tell a season from a trend; the factor says where the price sits.
 */
export function seasonalFactor(points: PricePoint[], now: Date): number | null {
  if (!points.length) return null;
  const first = Date.parse(sorted(points)[0].at);
  if (now.getTime() - first < MIN_SEASON_HISTORY_DAYS * DAY) return null;
  const to = now.toISOString();
  const year = timeWeightedMean(points, new Date(now.getTime() - SEASON_YEAR_DAYS * DAY).toISOString(), to);
  const recent = timeWeightedMean(points, new Date(now.getTime() - SEASON_RECENT_DAYS * DAY).toISOString(), to);
  if (!year || !recent || year.eq(0)) return null;
  return Number(recent.div(year).round(3, Big.roundHalfUp).toFixed(3));
}
