import { RateLimiterMemory } from 'rate-limiter-flexible';
import { WINDOW_SECONDS, windowOf, type RateLimiter, type WindowCount, type WindowName } from './limiter.js';

/**
 * One process's counters (rate-limiter-flexible's memory store: an increment is atomic within the
 * event loop). The window index is part of the key, so a fake clock moves to a fresh counter; the
 * library's own expiry only frees memory once a window is over.
 */
export class MemoryRateLimiter implements RateLimiter {
  private readonly stores: Record<WindowName, RateLimiterMemory>;

  constructor() {
    // Points are never the limit here: the caller compares the count with the tier's limit.
    const make = (w: WindowName) => new RateLimiterMemory({ points: Number.MAX_SAFE_INTEGER, duration: WINDOW_SECONDS[w], keyPrefix: w });
    this.stores = { minute: make('minute'), hour: make('hour'), day: make('day') };
  }

  async hit(key: string, window: WindowName, now: Date, points = 1): Promise<WindowCount> {
    const w = windowOf(window, now);
    const res = await this.stores[window].consume(`${key}:${w.index}`, points);
    return { count: res.consumedPoints, resetAt: w.resetAt };
  }

  async peek(key: string, window: WindowName, now: Date): Promise<WindowCount> {
    const w = windowOf(window, now);
    const res = await this.stores[window].get(`${key}:${w.index}`);
    return { count: res?.consumedPoints ?? 0, resetAt: w.resetAt };
  }
}
