import Big from 'big.js';
import type { Currency } from '../domain/currencies.js';
import type { Listing, PriceObservation } from '../domain/listing.js';
import type { CatalogStore } from '../store/types.js';

export interface DailyEntry { day: string; currency: Currency; min: Big; max: Big; avg: Big; dataPoints: number }
export interface PriceStats { min: Big | null; max: Big | null; avg: Big | null; dataPoints: number }

const MAX_POINTS = 100_000;

/** Price history: raw observations (surface A), daily aggregates and granular points (surface B). */
export class HistoryService {
  constructor(private readonly store: CatalogStore, private readonly now: () => Date) {}

  since(days: number): string {
    return new Date(this.now().getTime() - days * 86400_000).toISOString();
  }

  async raw(listing: Listing, days: number, opts: { platform?: string; limit: number; offset: number }) {
    return this.store.observations(listing.id, this.since(days), opts);
  }

  async all(listing: Listing, days: number): Promise<PriceObservation[]> {
    const { entries } = await this.store.observations(listing.id, this.since(days), { limit: MAX_POINTS, offset: 0 });
    return entries.reverse();
  }

  daily(points: PriceObservation[]): DailyEntry[] {
    const days = new Map<string, Big[]>();
    for (const p of points) {
      const day = p.observedAt.slice(0, 10);
      days.set(day, [...(days.get(day) ?? []), new Big(p.price)]);
    }
    return [...days.entries()].map(([day, prices]) => ({
      day, currency: points[0].currency, dataPoints: prices.length,
      min: prices.reduce((a, b) => (b.lt(a) ? b : a)), max: prices.reduce((a, b) => (b.gt(a) ? b : a)),
      avg: prices.reduce((a, b) => a.plus(b), new Big(0)).div(prices.length),
    }));
  }

  stats(points: PriceObservation[]): PriceStats {
    if (!points.length) return { min: null, max: null, avg: null, dataPoints: 0 };
    const prices = points.map((p) => new Big(p.price));
    return {
      min: prices.reduce((a, b) => (b.lt(a) ? b : a)), max: prices.reduce((a, b) => (b.gt(a) ? b : a)),
      avg: prices.reduce((a, b) => a.plus(b), new Big(0)).div(prices.length), dataPoints: prices.length,
    };
  }
}
