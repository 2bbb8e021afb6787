import type { Listing, PriceObservation } from '../domain/listing.js';
import { dailyPrices, lowestPoint, priceChange, priceStats, type DailyPrices, type PriceChange, type PricePoint, type PriceStats } from '../domain/price-stats.js';
import type { CatalogStore } from '../store/types.js';

/** Observations one window reads at most (a listing is observed a few times a day). */
const WINDOW_POINTS = 10_000;

/** A listing's prices over a window: each observation oldest first, by day, and the stats of the window. */
export interface PriceWindow {
  listing: Listing;
  days: number;
  points: PricePoint[];
  daily: DailyPrices[];
  stats: PriceStats | null;
  /** The earliest observation at the window's lowest price. */
  lowest: PricePoint | null;
  /** From the window's first observation to its last. */
  change: PriceChange | null;
}

/** Price history over a window of days ending now. */
export class HistoryService {
  constructor(private readonly store: CatalogStore, private readonly now: () => Date) {}

  since(days: number): string {
    return new Date(this.now().getTime() - days * 86400_000).toISOString();
  }

  /** Raw observations in the window, newest first (surface A price-history). */
  async raw(listing: Listing, days: number, opts: { platform?: string; limit: number; offset: number }) {
    return this.store.observations(listing.id, this.since(days), opts);
  }

  /**
   * Each listing's prices as a step line over the window, oldest first, in its own currency: the
   * price in force when the window opens (dated at its start) and every change since. One read for
   * all of them; a listing with no observation is absent.
   */
  async steps(listings: Listing[], days: number): Promise<Map<number, PricePoint[]>> {
    const since = this.since(days);
    const read = listings.length ? await this.store.observationsFor(listings.map((l) => l.id), since) : new Map<number, PriceObservation[]>();
    const out = new Map<number, PricePoint[]>();
    for (const l of listings) {
      const points = (read.get(l.id) ?? []).filter((o) => o.currency === l.currency).map((o) => ({ price: o.price, at: o.observedAt < since ? since : o.observedAt }));
      if (points.length) out.set(l.id, points);
    }
    return out;
  }

  /** The window's observations in the listing's currency, with daily and overall stats (surface B). */
  async window(listing: Listing, days: number): Promise<PriceWindow> {
    const { entries } = await this.store.observations(listing.id, this.since(days), { limit: WINDOW_POINTS, offset: 0 });
    const points = entries.filter((e) => e.currency === listing.currency).map((e) => ({ price: e.price, at: e.observedAt })).reverse();
    return {
      listing, days, points, daily: dailyPrices(points, listing.currency),
      stats: priceStats(points.map((p) => p.price), listing.currency),
      lowest: lowestPoint(points), change: priceChange(points),
    };
  }
}
