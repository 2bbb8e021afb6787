import type { Currency } from '../domain/currencies.js';
import { freshnessOf, isAvailable, type Freshness } from '../domain/freshness.js';
import type { Listing } from '../domain/listing.js';
import { availabilityPrediction, confidenceScore, type AvailabilityPrediction } from '../domain/signals.js';
import type { CatalogStore, GroupStats } from '../store/types.js';
import type { FxService } from './fx-service.js';
import { ReadCache } from './read-cache.js';

export interface Money {
  /** Exact decimal text in the currency's own decimals. */
  amount: string;
  currency: Currency;
}

/**
 * A listing with everything a presenter needs resolved: its group's size, its price in the
 * requested currency, and what follows from the time of the request. Presenters read nothing else.
 */
export class ListingView {
  constructor(
    readonly listing: Listing,
    /** Other listings of its match group; null when the group was not read. */
    readonly competitorCount: number | null,
    /** Its price in the requested currency, when one was asked. */
    readonly converted: Money | null,
    private readonly now: Date,
  ) {}

  get freshness(): Freshness {
    return freshnessOf(this.listing.lastCheckedAt, this.now);
  }

  /** A very stale listing is unavailable whatever its last stock flag said. */
  get available(): boolean {
    return isAvailable(this.listing.inStock, this.listing.lastCheckedAt, this.now);
  }

  get availabilityPrediction(): AvailabilityPrediction {
    return availabilityPrediction(this.listing, this.now);
  }

  get confidence(): number {
    return confidenceScore(this.listing, this.now);
  }

  /**
   * Everything a presenter reads besides the listing itself, as one string: two views of one
   * listing object with equal stamps present equally (api/record-bytes.ts). Every getter above
   * that depends on the time follows from the freshness tier. A field added to the view belongs
   * here too.
   */
  get stamp(): string {
    const c = this.converted;
    return `${this.competitorCount}|${c ? `${c.amount} ${c.currency}` : ''}|${this.freshness}`;
  }
}

export interface ViewOptions {
  /** Convert prices to this currency. */
  currency?: Currency;
  /** Group sizes already at hand (skips the read). */
  groups?: Map<number, Pick<GroupStats, 'size'>>;
}

/** Builds listing views: one read of the group sizes for a whole page, conversions remembered per rate table. */
export class ListingViews {
  private readonly groups: ReadCache<GroupStats>;

  constructor(
    private readonly fx: FxService,
    private readonly store: Pick<CatalogStore, 'groupStats'>,
    private readonly now: () => Date,
  ) {
    this.groups = new ReadCache(now);
  }

  /** Size and cheapest price of each listing's group, remembered until the catalog changes. */
  async groupStats(listings: Listing[]): Promise<Map<number, GroupStats>> {
    return this.groups.getMany([...new Set(listings.map((l) => l.groupId))], (ids) => this.store.groupStats(ids));
  }

  /** After any catalog change. */
  invalidate(): void {
    this.groups.clear();
  }

  async of(listings: Listing[], opts: ViewOptions = {}): Promise<ListingView[]> {
    const groups = opts.groups ?? (listings.length ? await this.groupStats(listings) : new Map<number, GroupStats>());
    return this.with(listings, groups, opts.currency);
  }

  async one(listing: Listing, opts: ViewOptions = {}): Promise<ListingView> {
    return (await this.of([listing], opts))[0];
  }

  /** One listing's view over its group's size read with it; null: the size is not shown, so not read (competitorCount null). */
  sized(listing: Listing, size: number | null, currency?: Currency): ListingView {
    return this.with([listing], size === null ? new Map() : new Map([[listing.groupId, { size }]]), currency)[0];
  }

  /** Views over group sizes already read. */
  with(listings: Listing[], groups: Map<number, Pick<GroupStats, 'size'>>, currency?: Currency): ListingView[] {
    const now = this.now();
    return listings.map((l) => {
      const group = groups.get(l.groupId);
      return new ListingView(l, group ? group.size - 1 : null, currency ? this.convert(l.price, l.currency, currency) : null, now);
    });
  }

  convert(amount: string, from: Currency, to: Currency): Money {
    return { amount: this.fx.convertText(amount, from, to), currency: to };
  }
}
