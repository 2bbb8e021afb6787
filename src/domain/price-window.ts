import Big from 'big.js';
import { changePct, divHalfUp, pow10, scaledText } from './money.js';
import type { PriceTrend } from './listing.js';
import type { PricePoint } from './price-stats.js';

const DAY = 86_400_000;

/**
 * A listing's price history as a step function: an observation is stored when the price changes
 * (and when the listing is first seen), and the price holds until the next one. Built once per
 * listing from its points in its own currency, starting with the one in force at the start of the
 * window when the history reaches back that far (CatalogStore.observationsFor reads so).
 */
export class PriceSeries {
  /** Epoch ms of each point, oldest first. */
  readonly at: number[];
  readonly prices: string[];
  private exact?: { units: bigint[]; places: number };

  private constructor(points: PricePoint[]) {
    const ps = points.slice().sort((a, b) => (a.at < b.at ? -1 : a.at > b.at ? 1 : 0));
    this.at = ps.map((p) => Date.parse(p.at));
    this.prices = ps.map((p) => p.price);
  }

  static of(points: PricePoint[]): PriceSeries {
    return new PriceSeries(points);
  }

  get length(): number {
    return this.at.length;
  }

  /** The prices as integers in units of 10^-places, one number of places for all. */
  get units(): { units: bigint[]; places: number } {
    if (!this.exact) {
      const scaled = this.prices.map(scaledText);
      const places = Math.max(0, ...scaled.map((x) => x[1]));
      this.exact = { units: scaled.map(([u, p]) => u * pow10(places - p)), places };
    }
    return this.exact;
  }

  /**
   * The integral of the step function over [from, to] (epoch ms), in units x ms, and the time it
   * covers: the price before the first point is unknown, so it starts at the later of `from` and
   * the first point. Integers throughout: exact, and far cheaper than decimals.
   */
  integral(from: number, to: number): { sum: bigint; ms: number } {
    const { units } = this.units;
    let sum = 0n;
    let ms = 0;
    for (let i = 0; i < this.at.length; i++) {
      const a = Math.max(this.at[i], from);
      const b = Math.min(i + 1 < this.at.length ? this.at[i + 1] : to, to);
      if (b <= a) continue;
      sum += units[i] * BigInt(b - a);
      ms += b - a;
    }
    return { sum, ms };
  }
}

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

/**
 * The change from the price at the window's start (or at the first observation, when the history
 * starts inside the window) to `current`: `up` when the rounded percentage is above 0, `down`
 * when below, `stable` at 0. Null without observations, or with less than a day of history.
 */
export function priceChange(series: PriceSeries, current: string, now: Date, windowDays = TREND_WINDOW_DAYS): PriceChange | null {
  if (!series.length) return null;
  const start = now.getTime() - windowDays * DAY;
  let base = 0;
  for (let i = 1; i < series.length && series.at[i] <= start; i++) base = i;
  const spanMs = now.getTime() - Math.max(start, series.at[base]);
  if (spanMs < MIN_TREND_HISTORY_DAYS * DAY) return null;
  const before = new Big(series.prices[base]);
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

/** The time-weighted mean of the step function over [from, to] (ISO times): each price weighs the time it held. Null when no time is covered. */
export function timeWeightedMean(series: PriceSeries, from: string, to: string): Big | null {
  if (!series.length) return null;
  const { sum, ms } = series.integral(Date.parse(from), Date.parse(to));
  return ms > 0 ? new Big(sum.toString()).div(ms).div(new Big(10).pow(series.units.places)) : null;
}

/**
 * How the listing's price over the last 30 days compares with its own usual price: the
 * time-weighted mean over the last 30 days divided by the time-weighted mean over the last year
 * (365 days, or since the first observation), rounded half up to 3 decimals. Above 1 the listing
 * costs more now than it usually does, below 1 less. Null with less than 180 days of history or a
 * usual price of 0. One year of data cannot tell a season from a trend; the factor says where the
 * price sits.
 */
export function seasonalFactor(series: PriceSeries, now: Date): number | null {
  const end = now.getTime();
  if (!series.length || end - series.at[0] < MIN_SEASON_HISTORY_DAYS * DAY) return null;
  const year = series.integral(end - SEASON_YEAR_DAYS * DAY, end);
  const recent = series.integral(end - SEASON_RECENT_DAYS * DAY, end);
  if (year.sum <= 0n || recent.ms === 0) return null;
  // (recent.sum / recent.ms) / (year.sum / year.ms), in thousandths.
  return Number(divHalfUp(recent.sum * BigInt(year.ms) * 1000n, year.sum * BigInt(recent.ms))) / 1000;
}
