import { windowOf, type RateLimiter, type WindowCount, type WindowName } from './limiter.js';

interface Counter { index: number; count: number }

/**
 * One process's counters, counted synchronously: a request is decided without a promise (the
 * tier limit runs on every request; see bench/RESULTS.md). A counter remembers its window's index
 * and starts again at zero in the next one; counters of past windows are dropped when a new
 * window of that name is first counted, so memory holds only the keys active in the current one.
 */
export class MemoryRateLimiter implements RateLimiter {
  private readonly counters: Record<WindowName, Map<string, Counter>> = { minute: new Map(), hour: new Map(), day: new Map() };
  private readonly newest: Record<WindowName, number> = { minute: -1, hour: -1, day: -1 };

  hitNow(key: string, window: WindowName, now: Date, points = 1): WindowCount {
    const w = windowOf(window, now);
    const counters = this.counters[window];
    if (w.index > this.newest[window]) {
      this.newest[window] = w.index;
      for (const [k, c] of counters) if (c.index < w.index) counters.delete(k);
    }
    const c = counters.get(key);
    if (c && c.index === w.index) {
      c.count += points;
      return { count: c.count, resetAt: w.resetAt };
    }
    counters.set(key, { index: w.index, count: points });
    return { count: points, resetAt: w.resetAt };
  }

  peekNow(key: string, window: WindowName, now: Date): WindowCount {
    const w = windowOf(window, now);
    const c = this.counters[window].get(key);
    return { count: c && c.index === w.index ? c.count : 0, resetAt: w.resetAt };
  }

  async hit(key: string, window: WindowName, now: Date, points = 1): Promise<WindowCount> {
    return this.hitNow(key, window, now, points);
  }

  async peek(key: string, window: WindowName, now: Date): Promise<WindowCount> {
    return this.peekNow(key, window, now);
  }
}
