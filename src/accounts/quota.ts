import type { RateLimiter, WindowCount, WindowName } from '../limits/limiter.js';
import type { Tier } from '../domain/tier.js';
import type { Clock } from './keys.js';
import type { TierLimits } from '../domain/tier.js';

/** One window as a client sees it; `limit` null = unlimited. */
export interface WindowState {
  limit: number | null;
  used: number;
  remaining: number | null;
  resetAt: Date;
  /** Seconds until the window resets (at least 1). */
  retryAfter: number;
}

export type QuotaDecision =
  | { ok: true; minute: WindowState; day: WindowState }
  | { ok: false; reason: 'minute' | 'day'; minute: WindowState; day: WindowState };

export type FixedDecision = { ok: boolean; state: WindowState };

/**
 * Tier limits over the shared counters. The minute counter is checked first; a request it refuses
 * does not spend the daily quota. Counters belong to the account, so rotating a key does not reset them.
 */
export class QuotaService {
  constructor(
    private readonly limiter: RateLimiter,
    private readonly limits: Readonly<Record<Tier, TierLimits>>,
    private readonly clock: Clock,
  ) {}

  limitsOf(tier: Tier): TierLimits {
    return this.limits[tier];
  }

  /** Counts one request of `account` and decides. */
  async consume(account: string, tier: Tier): Promise<QuotaDecision> {
    const now = this.clock.now();
    const key = `rl:${account}`;
    const minute = await this.limiter.hit(key, 'minute', now);
    const over = minute.count > this.limits[tier].perMinute;
    return this.decide(tier, minute, over ? await this.limiter.peek(key, 'day', now) : await this.limiter.hit(key, 'day', now), over, now);
  }

  /** `consume` decided at once, where the counters live in this process; null where they do not (Redis). */
  consumeNow(account: string, tier: Tier): QuotaDecision | null {
    const { hitNow, peekNow } = this.limiter;
    if (!hitNow || !peekNow) return null;
    const now = this.clock.now();
    const key = `rl:${account}`;
    const minute = hitNow.call(this.limiter, key, 'minute', now);
    const over = minute.count > this.limits[tier].perMinute;
    return this.decide(tier, minute, over ? peekNow.call(this.limiter, key, 'day', now) : hitNow.call(this.limiter, key, 'day', now), over, now);
  }

  /** The minute counter is checked first; a request it refuses only peeks at the day (`minuteOver`). */
  private decide(tier: Tier, minuteCount: WindowCount, dayCount: WindowCount, minuteOver: boolean, now: Date): QuotaDecision {
    const { perMinute, perDay } = this.limits[tier];
    const minute = this.state(perMinute, minuteCount, now);
    const day = this.state(perDay, dayCount, now);
    if (minuteOver) return { ok: false, reason: 'minute', minute, day };
    if (perDay !== null && day.used > perDay) return { ok: false, reason: 'day', minute, day };
    return { ok: true, minute, day };
  }

  /** Current usage without counting (GET /v1/auth/me reports it after its own request was counted). */
  async usage(account: string, tier: Tier): Promise<{ minute: WindowState; day: WindowState }> {
    const now = this.clock.now();
    const { perMinute, perDay } = this.limits[tier];
    return {
      minute: this.state(perMinute, await this.limiter.peek(`rl:${account}`, 'minute', now), now),
      day: this.state(perDay, await this.limiter.peek(`rl:${account}`, 'day', now), now),
    };
  }

  /** A plain fixed-window limit on any bucket (registrations per IP, per day). */
  async fixed(bucket: string, window: WindowName, limit: number): Promise<FixedDecision> {
    const now = this.clock.now();
    const state = this.state(limit, await this.limiter.hit(bucket, window, now), now);
    return { ok: state.used <= limit, state };
  }

  /** The fixed window's state without counting. */
  async peekFixed(bucket: string, window: WindowName, limit: number): Promise<FixedDecision> {
    const now = this.clock.now();
    const state = this.state(limit, await this.limiter.peek(bucket, window, now), now);
    return { ok: state.used < limit, state };
  }

  private state(limit: number | null, c: { count: number; resetAt: Date }, now: Date): WindowState {
    return {
      limit, used: c.count, remaining: limit === null ? null : Math.max(0, limit - c.count), resetAt: c.resetAt,
      retryAfter: Math.max(1, Math.ceil((c.resetAt.getTime() - now.getTime()) / 1000)),
    };
  }
}
