import { freshnessOf, type Freshness } from './freshness.js';
import type { Listing } from './listing.js';

export type AvailabilityPrediction = 'in_stock' | 'low_stock' | 'out_of_stock' | 'unknown';

/** What a shopper will likely find: unknown once the data is very stale, else from stock flags. */
export function availabilityPrediction(l: Pick<Listing, 'inStock' | 'stockLevel' | 'lastCheckedAt'>, now: Date): AvailabilityPrediction {
  if (freshnessOf(l.lastCheckedAt, now) === 'very_stale') return 'unknown';
  if (l.inStock === false) return 'out_of_stock';
  if (l.stockLevel === 'low' || l.stockLevel === 'low_stock') return 'low_stock';
  return l.inStock === true ? 'in_stock' : 'unknown';
}

const FRESHNESS_CONFIDENCE: Record<Freshness, number> = { fresh: 0.95, recent: 0.85, stale: 0.65, very_stale: 0.3 };

/** How far data of this freshness is trusted, 0-1: the base of confidence_score and buybox_confidence. */
export const freshnessWeight = (tier: Freshness): number => FRESHNESS_CONFIDENCE[tier];

/**
 * How far an agent can trust the record: freshness first (spec bands: 0.90+ high, 0.70+ medium,
 * 0.50+ lower, below minimal), less for records without an identifier or an image.
 */
export function confidenceScore(l: Pick<Listing, 'lastCheckedAt' | 'gtin' | 'brand' | 'imageUrl'>, now: Date): number {
  let score = FRESHNESS_CONFIDENCE[freshnessOf(l.lastCheckedAt, now)];
  if (!l.gtin && !l.brand) score -= 0.05;
  if (!l.imageUrl) score -= 0.02;
  return Math.max(0, Math.round(score * 100) / 100);
}

export type ConfidenceBand = 'high' | 'medium' | 'lower' | 'minimal';

/** The spec's bands (4.4): 0.90-1.00 high, 0.70-0.89 medium, 0.50-0.69 lower, below 0.50 minimal. */
export function confidenceBand(score: number): ConfidenceBand {
  if (score >= 0.9) return 'high';
  if (score >= 0.7) return 'medium';
  if (score >= 0.5) return 'lower';
  return 'minimal';
}

/** When the platform was last observed, and the spec 2.5 tier of that age. */
export interface DataFreshness {
  checkedAt: string;
  tier: Freshness;
}

export function dataFreshness(l: Pick<Listing, 'lastCheckedAt'>, now: Date): DataFreshness {
  return { checkedAt: l.lastCheckedAt, tier: freshnessOf(l.lastCheckedAt, now) };
}
