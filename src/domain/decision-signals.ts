import { buyboxOf, offerOfListing, valueScore, type GroupOffers } from './buybox.js';
import type { Currency } from './currencies.js';
import { demandScore } from './demand.js';
import { checkDeal } from './honest-deal.js';
import type { Listing, PriceObservation, PriceTrend } from './listing.js';
import { PriceSeries, priceChange, seasonalFactor } from './price-window.js';
import { recommendationReason } from './recommendation.js';
import {
  availabilityPrediction, confidenceBand, confidenceScore, dataFreshness, type AvailabilityPrediction, type ConfidenceBand, type DataFreshness,
} from './signals.js';

/** Everything the decision signals of one listing are derived from; docs/signals.md has the rules. */
export interface SignalInputs {
  listing: Listing;
  /** Its match group's offers; null when the group was not found (it then counts as a group of one). */
  group: GroupOffers | null;
  /**
   * Its price observations over the last SEASON_YEAR_DAYS, with the one in force at their start
   * (CatalogStore.observationsFor); those in another currency than the listing's are not read.
   */
  observations: PriceObservation[];
  /** Clicks and searches of the listing over the last DEMAND_WINDOW_DAYS, where the deployment records them. */
  activity: { clicks?: number; searches?: number };
  /** The currency of buybox_price and of the prices recommendation_reason cites. */
  currency: Currency;
  /** An amount in `from` in `currency`, formatted in its decimals (FxService.convertText). */
  convert: (amount: string, from: Currency) => string;
  now: Date;
}

export interface AgentInsights {
  buyboxWinner: boolean;
  /** 0-1; null when there is no buy-box price. */
  valueScore: number | null;
  recommendationReason: string;
  /** The honest-deal flag (honest-deal.ts originalNeverCharged); null when not discounted or the history is too short. */
  fakeDiscount: boolean | null;
  /** The lowest price in the 30 days before the discount began, in `currency`; null when unknown or not discounted. */
  priorLow: string | null;
}

/** The decision signals of spec 2.2, computed once for every surface. */
export interface DecisionSignals {
  /** 0-1. */
  confidenceScore: number;
  confidenceBand: ConfidenceBand;
  availabilityPrediction: AvailabilityPrediction;
  /** Other listings of its match group. */
  competitorCount: number;
  /** The lowest price among its group's offers, in `currency`; null when the group has no offer. */
  buyboxPrice: string | null;
  /** 0-1; null with buyboxPrice. */
  buyboxConfidence: number | null;
  currency: Currency;
  priceTrend: PriceTrend | null;
  /** Float, 2 decimals; null with priceTrend or when the start price was 0. */
  priceChangePercentage: number | null;
  /** The days priceTrend spans (the 30-day window, less for a younger listing). */
  priceChangeDays: number | null;
  /** 0-1. */
  demandScore: number | null;
  seasonalFactor: number | null;
  dataFreshness: DataFreshness;
  agentInsights: AgentInsights;
}

const ratingOf = (text: string | null) => (text === null ? null : Number(text));

export function decisionSignals(i: SignalInputs): DecisionSignals {
  const { listing: l, now } = i;
  const confidence = confidenceScore(l, now);
  const box = buyboxOf(l, i.group, now);
  const points = PriceSeries.of(i.observations.filter((o) => o.currency === l.currency).map((o) => ({ price: o.price, at: o.observedAt })));
  const change = priceChange(points, l.price, now);
  const rating = ratingOf(l.rating);
  const value = valueScore(offerOfListing(l).priceSgdMinor, box.offer?.priceSgdMinor ?? null, rating, l.reviewCount);
  const buyboxPrice = box.offer ? i.convert(box.offer.price, box.offer.currency) : null;
  const deal = checkDeal(l, i.observations, now);
  const priorLow = deal?.priorLow == null ? null : i.convert(deal.priorLow, l.currency);
  const reason = recommendationReason({
    currency: i.currency, price: i.convert(l.price, l.currency), offer: box.offered, inStock: l.inStock,
    lastCheckedAt: l.lastCheckedAt, buyboxPrice, buyboxWinner: box.winner, offers: box.offers, rating: l.rating,
    reviewCount: l.reviewCount, change, valueScore: value, now,
    fakeDiscount: deal?.originalNeverCharged && deal.highestRecent !== null
      ? { original: i.convert(l.originalPrice!, l.currency), highest: i.convert(deal.highestRecent, l.currency), priorLow }
      : null,
  });
  return {
    confidenceScore: confidence,
    confidenceBand: confidenceBand(confidence),
    availabilityPrediction: availabilityPrediction(l, now),
    competitorCount: Math.max(0, (i.group?.size ?? 1) - 1),
    buyboxPrice,
    buyboxConfidence: box.confidence,
    currency: i.currency,
    priceTrend: change?.trend ?? null,
    priceChangePercentage: change?.percentage ?? null,
    priceChangeDays: change?.days ?? null,
    demandScore: demandScore({ rating, reviewCount: l.reviewCount, ...i.activity }),
    seasonalFactor: seasonalFactor(points, now),
    dataFreshness: dataFreshness(l, now),
    agentInsights: { buyboxWinner: box.winner, valueScore: value, recommendationReason: reason, fakeDiscount: deal?.originalNeverCharged ?? null, priorLow },
  };
}
