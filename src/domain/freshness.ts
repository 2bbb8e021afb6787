export type Freshness = 'fresh' | 'recent' | 'stale' | 'very_stale';

const HOUR = 3600_000;
const DAY = 24 * HOUR;

/** Freshness tier by age of data (spec 2.5). */
export function freshnessOf(observedAt: Date | string, now: Date): Freshness {
  const age = now.getTime() - new Date(observedAt).getTime();
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
