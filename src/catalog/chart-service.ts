import Big from 'big.js';
import type { Currency } from '../domain/currencies.js';
import type { Listing } from '../domain/listing.js';
import type { PricePoint } from '../domain/price-stats.js';
import type { CompareService } from './compare-service.js';
import type { FxService } from './fx-service.js';
import type { HistoryService } from './history-service.js';

/** Lines one chart draws at most: the listing and its cheapest matches. */
export const MAX_CHART_OFFERS = 8;

/** One offer's line: its prices in the chart's currency, exact decimal text, oldest first, ending now at its current price. */
export interface ChartLine {
  listing: Listing;
  points: PricePoint[];
  /** The current price in the chart's currency. */
  current: string;
  /** The listing the chart was asked for (the others are its matches). */
  asked: boolean;
}

/** A price chart as a view model: what a renderer draws, every price exact. */
export interface PriceChart {
  listing: Listing;
  currency: Currency;
  days: number;
  from: string;
  to: string;
  /** Cheapest current price first. */
  lines: ChartLine[];
  /** The line with the lowest current price: the offer to buy now. */
  lowest: ChartLine;
}

/**
 * A listing's price over a window, alone or with the offers of its match group (CompareService's
 * notion of "the same product"), every price converted to one currency by the rate table in force.
 */
export class ChartService {
  constructor(
    private readonly history: HistoryService,
    private readonly compare: Pick<CompareService, 'matchesFor'>,
    private readonly fx: FxService,
    private readonly now: () => Date,
  ) {}

  async chart(listing: Listing, opts: { days: number; offers: boolean; currency?: Currency }): Promise<PriceChart> {
    const currency = opts.currency ?? listing.currency;
    const matches = opts.offers ? (await this.compare.matchesFor(listing)).map((m) => m.listing).slice(0, MAX_CHART_OFFERS - 1) : [];
    const listings = [listing, ...matches];
    const steps = await this.history.steps(listings, opts.days);
    const to = this.now().toISOString();
    const from = this.history.since(opts.days);
    const lines = listings.map((l): ChartLine => {
      const inCurrency = (price: string) => this.fx.convertText(price, l.currency, currency);
      const current = inCurrency(l.price);
      const history = (steps.get(l.id) ?? [{ price: l.price, at: from }]).map((p) => ({ price: inCurrency(p.price), at: p.at }));
      return { listing: l, points: [...history, { price: current, at: to }], current, asked: l.id === listing.id };
    });
    lines.sort((a, b) => new Big(a.current).cmp(b.current) || a.listing.id - b.listing.id);
    return { listing, currency, days: opts.days, from, to, lines, lowest: lines[0] };
  }
}
