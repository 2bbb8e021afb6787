import Big from 'big.js';
import { decimalsOf, type Currency } from './currencies.js';
import type { PriceTrend } from './listing.js';
import { changePct, trendOf } from './money.js';

export interface PricePoint { price: string; at: string }
export interface PriceStats { min: string; max: string; avg: string; dataPoints: number }
export interface DailyPrices extends PriceStats { day: string }
/** How the price moved over a window: its first and last observations. */
export interface PriceChange { from: PricePoint; to: PricePoint; pct: number; direction: PriceTrend }

/** Min, max and mean of exact prices; the mean rounded half up to the currency's decimals. Null when there are none. */
export function priceStats(prices: string[], currency: Currency): PriceStats | null {
  if (!prices.length) return null;
  let min = new Big(prices[0]);
  let max = min;
  let sum = new Big(0);
  for (const p of prices) {
    const b = new Big(p);
    if (b.lt(min)) min = b;
    if (b.gt(max)) max = b;
    sum = sum.plus(b);
  }
  const places = decimalsOf(currency);
  return { min: min.toFixed(places), max: max.toFixed(places), avg: sum.div(prices.length).round(places, Big.roundHalfUp).toFixed(places), dataPoints: prices.length };
}

/** Observations grouped by UTC day, oldest day first, each with its stats. */
export function dailyPrices(points: PricePoint[], currency: Currency): DailyPrices[] {
  const byDay = new Map<string, string[]>();
  for (const p of points) {
    const day = p.at.slice(0, 10);
    const list = byDay.get(day);
    if (list) list.push(p.price);
    else byDay.set(day, [p.price]);
  }
  return [...byDay.keys()].sort().map((day) => ({ day, ...priceStats(byDay.get(day)!, currency)! }));
}

/** The earliest observation at the lowest price of the points; null when there are none. */
export function lowestPoint(points: PricePoint[]): PricePoint | null {
  let low: PricePoint | null = null;
  let lowPrice: Big | null = null;
  for (const p of points) {
    const b = new Big(p.price);
    if (!lowPrice || b.lt(lowPrice)) {
      low = p;
      lowPrice = b;
    }
  }
  return low;
}

/** From the first observation to the last (points oldest first), in percent and direction; null when there are none. */
export function priceChange(points: PricePoint[]): PriceChange | null {
  if (!points.length) return null;
  const from = points[0];
  const to = points[points.length - 1];
  return { from, to, pct: changePct(new Big(from.price), new Big(to.price)), direction: trendOf(from.price, to.price) };
}
