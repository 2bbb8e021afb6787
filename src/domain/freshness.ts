import { TwoGenerationCache } from './id-caches.js';

export type Freshness = 'fresh' | 'recent' | 'stale' | 'very_stale';

const HOUR = 3600_000;
const DAY = 24 * HOUR;

const parsed = new TwoGenerationCache<string, number>(25_000);

/**
 * A stored timestamp in ms, remembered: a presented listing asks for its freshness four times and
 * the same listings come back request after request, so the ISO text is parsed once.
 */
function timeOf(at: Date | string): number {
  if (typeof at !== 'string') return at.getTime();
  let t = parsed.get(at);
  if (t === undefined) {
    t = new Date(at).getTime();
    parsed.set(at, t);
  }
  return t;
}

/** Freshness tier by age of data (spec 2.5). */
export function freshnessOf(observedAt: Date | string, now: Date): Freshness {
  const age = now.getTime() - timeOf(observedAt);
  if (age < DAY) return 'fresh';
  if (age <= 7 * DAY) return 'recent';
  if (age <= 30 * DAY) return 'stale';
  return 'very_stale';
}

/** A very stale listing is presented as unavailable whatever its last stock flag said. */
export function isAvailable(inStock: boolean | null, observedAt: Date | string, now: Date): boolean {
  if (freshnessOf(observedAt, now) === 'very_stale') return false;
  return inStock !== false;
}
