import { offeredSince } from '../domain/buybox.js';
import type { Currency } from '../domain/currencies.js';
import { decisionSignals, type DecisionSignals } from '../domain/decision-signals.js';
import { DEMAND_WINDOW_DAYS } from '../domain/demand.js';
import type { Listing, PriceObservation } from '../domain/listing.js';
import { SEASON_YEAR_DAYS } from '../domain/price-window.js';
import type { CatalogStore } from '../store/types.js';
import type { FxService } from './fx-service.js';

const DAY = 86_400_000;

/**
 * What shoppers did with the listings, counted per listing over a window: demand_score reads it
 * where the deployment records it. A listing without any may be absent from a map.
 */
export interface DemandCounts {
  /** Followed links (Surface B click_url) to each listing at or after `since`. */
  clicksFor(listingIds: number[], since: string): Promise<Map<number, number>>;
  /** Searches whose results showed each listing at or after `since`; absent where searches are not recorded per listing. */
  searchesFor?(listingIds: number[], since: string): Promise<Map<number, number>>;
}

/**
 * The decision signals of a page of listings (docs/signals.md), with a fixed number of reads
 * whatever the page's size: one of its match groups' offers, one of its price histories, and one
 * of each demand count the deployment records. Nothing is remembered between calls: the signals
 * move with the clock.
 */
export class SignalsService {
  constructor(
    private readonly store: Pick<CatalogStore, 'groupOffers' | 'observationsFor'>,
    private readonly fx: Pick<FxService, 'convertText'>,
    private readonly now: () => Date,
    private readonly demand?: DemandCounts,
  ) {}

  /** The signals of each listing, in the order given, with prices in `currency`. */
  async of(listings: Listing[], currency: Currency): Promise<DecisionSignals[]> {
    return (await this.read(listings, currency)).signals;
  }

  /**
   * The signals and the observations they were derived from: each listing's last SEASON_YEAR_DAYS
   * and the one in force at their start (CatalogStore.observationsFor), for a caller that shows
   * part of that history without reading it again.
   */
  async read(listings: Listing[], currency: Currency): Promise<{ signals: DecisionSignals[]; observations: Map<number, PriceObservation[]> }> {
    if (!listings.length) return { signals: [], observations: new Map() };
    const now = this.now();
    const ids = [...new Set(listings.map((l) => l.id))];
    const demandSince = new Date(now.getTime() - DEMAND_WINDOW_DAYS * DAY).toISOString();
    const [groups, history, clicks, searches] = await Promise.all([
      this.store.groupOffers([...new Set(listings.map((l) => l.groupId))], offeredSince(now)),
      this.store.observationsFor(ids, new Date(now.getTime() - SEASON_YEAR_DAYS * DAY).toISOString()),
      this.demand?.clicksFor(ids, demandSince),
      this.demand?.searchesFor?.(ids, demandSince),
    ]);
    const convert = (amount: string, from: Currency) => this.fx.convertText(amount, from, currency);
    const signals = listings.map((l) => decisionSignals({
      listing: l,
      group: groups.get(l.groupId) ?? null,
      observations: history.get(l.id) ?? [],
      activity: Object.assign({}, clicks ? { clicks: clicks.get(l.id) ?? 0 } : {}, searches ? { searches: searches.get(l.id) ?? 0 } : {}),
      currency, convert, now,
    }));
    return { signals, observations: history };
  }

  async one(listing: Listing, currency: Currency): Promise<DecisionSignals> {
    return (await this.of([listing], currency))[0];
  }
}
