import Big from 'big.js';
import { decimalsOf, type Currency } from './currencies.js';

export interface PricePoint { price: string; at: string }
export interface PriceStats { min: string; max: string; avg: string; dataPoints: number }
export interface DailyPrices extends PriceStats { day: string }

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
