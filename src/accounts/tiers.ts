import { TIERS, type Tier, type TierLimits } from '../domain/tier.js';

/**
 * Defaults: the spec's "registration rules" table (8.2), the one that names the unverified tier
 * self-registration starts in. It has no basic tier; basic sits near the geometric mean of free and
 * pro (134/min, 3,162/day), rounded to 120/min and 3,000/day. `TIERS_FILE` overrides any of them.
 */
export const DEFAULT_TIER_LIMITS: Readonly<Record<Tier, TierLimits>> = Object.freeze({
  unverified: { perMinute: 5, perDay: 50 },
  free: { perMinute: 60, perDay: 1_000 },
  basic: { perMinute: 120, perDay: 3_000 },
  pro: { perMinute: 300, perDay: 10_000 },
  enterprise: { perMinute: 1_000, perDay: 100_000 },
});

/** The one place limits come from: defaults merged with `TIERS_FILE`. An unknown tier or a bad number fails at start. */
export function tierLimits(overrides: Readonly<Record<string, Partial<TierLimits>>>): Readonly<Record<Tier, TierLimits>> {
  const out = { ...DEFAULT_TIER_LIMITS };
  for (const [name, o] of Object.entries(overrides)) {
    if (!TIERS.includes(name as Tier)) throw new Error(`TIERS_FILE: unknown tier "${name}" (one of ${TIERS.join(', ')})`);
    const merged = Object.assign({}, out[name as Tier], o);
    if (!Number.isInteger(merged.perMinute) || merged.perMinute < 1) throw new Error(`TIERS_FILE: ${name}.per_minute must be a positive integer`);
    if (merged.perDay !== null && (!Number.isInteger(merged.perDay) || merged.perDay < 1)) {
      throw new Error(`TIERS_FILE: ${name}.per_day must be a positive integer or null (unlimited)`);
    }
    out[name as Tier] = merged;
  }
  return Object.freeze(out);
}

/** Billing cycles are calendar months in UTC: a downgrade takes effect at 00:00Z on the 1st of the next month. */
export function billingCycleEnd(now: Date): Date {
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1));
}

/**
 * Active price and stock alerts a key (account) may have at once (docs/alerts.md): armed or
 * waiting to re-arm, not expired. Unverified keys have none; fired-for-good and expired alerts
 * do not count.
 */
export const ALERT_LIMITS: Readonly<Record<Tier, number>> = Object.freeze({
  unverified: 0,
  free: 10,
  basic: 100,
  pro: 1_000,
  enterprise: 10_000,
});
