/** Account tiers (spec 3, 8.2), lowest first. */
export type Tier = 'unverified' | 'free' | 'basic' | 'pro' | 'enterprise';
export const TIERS: Tier[] = ['unverified', 'free', 'basic', 'pro', 'enterprise'];

/** Requests a tier may make per minute and per UTC day (null: unlimited). */
export interface TierLimits { perMinute: number; perDay: number | null }

const RANK: Record<Tier, number> = { unverified: 0, free: 1, basic: 2, pro: 3, enterprise: 4 };

export function tierRank(t: Tier): number {
  return RANK[t];
}

/** The lowest tier that may open event streams (docs/realtime.md): a verified key. */
export const STREAM_MIN_TIER: Tier = 'free';

export function tierAtLeast(tier: Tier, min: Tier): boolean {
  return RANK[tier] >= RANK[min];
}
