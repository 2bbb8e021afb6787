import type { Listing } from '../domain/listing.js';
import type { CatalogStore } from '../store/types.js';

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
}
