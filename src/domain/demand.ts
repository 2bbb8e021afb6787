/** The window over which searches and clicks count towards demand_score. */
export const DEMAND_WINDOW_DAYS = 30;

/**
 * The terms of demand_score. Each saturates as 1 - exp(-x / k): at x = k it reaches 0.63, at 3k
 * 0.95, so a few very popular listings do not flatten everyone else to 0. `weight` is the term's
 * share when every source is recorded.
 */
export const DEMAND = {
  /** Reviews are the lasting trace of past purchases. */
  reviews: { weight: 0.4, k: 200 },
  /** The rating, as rating / 5: what the buyers behind the reviews thought. */
  rating: { weight: 0.1 },
  /** Followed links (Surface B click_url) in the last 30 days. */
  clicks: { weight: 0.3, k: 20 },
  /** Searches whose results showed the listing in the last 30 days. */
  searches: { weight: 0.2, k: 100 },
} as const;

export interface DemandInputs {
  /** 0-5. */
  rating: number | null;
  reviewCount: number | null;
  /** Absent when the deployment records no clicks. */
  clicks?: number;
  /** Absent when the deployment records no searches per listing. */
  searches?: number;
}

const saturating = (x: number, k: number) => 1 - Math.exp(-Math.max(0, x) / k);

/**
 * How much shoppers want the listing, 0-1: the weighted mean of the terms of DEMAND over the
 * sources recorded (clicks and searches only where they are: without them reviews weigh 0.8 and
 * the rating 0.2). A listing's unknown rating or review count is no evidence and counts 0.
 * Null when nothing is known: no rating, no review count, and neither clicks nor searches recorded.
 */
export function demandScore(i: DemandInputs): number | null {
  const hasClicks = i.clicks !== undefined;
  const hasSearches = i.searches !== undefined;
  if (i.rating === null && i.reviewCount === null && !hasClicks && !hasSearches) return null;
  let sum = DEMAND.reviews.weight * (i.reviewCount === null ? 0 : saturating(i.reviewCount, DEMAND.reviews.k))
    + DEMAND.rating.weight * (i.rating === null ? 0 : Math.min(1, Math.max(0, i.rating / 5)));
  let weight = DEMAND.reviews.weight + DEMAND.rating.weight;
  if (hasClicks) {
    sum += DEMAND.clicks.weight * saturating(i.clicks!, DEMAND.clicks.k);
    weight += DEMAND.clicks.weight;
  }
  if (hasSearches) {
    sum += DEMAND.searches.weight * saturating(i.searches!, DEMAND.searches.k);
    weight += DEMAND.searches.weight;
  }
  return Math.round((sum / weight) * 100) / 100;
}
