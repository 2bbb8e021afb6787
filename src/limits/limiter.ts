/**
 * Fixed-window counters shared by every instance that talks to the same backend. Windows are
 * aligned to the epoch (a day window therefore resets at midnight UTC), computed from the caller's
 * clock so tests drive them with a fake one. Adapters: `memory.ts` (one process), `redis.ts` (many).
 */
export type WindowName = 'minute' | 'hour' | 'day';

export const WINDOW_SECONDS: Record<WindowName, number> = { minute: 60, hour: 3600, day: 86400 };

export interface WindowCount {
  /** Hits counted in the window so far, this one included. */
  count: number;
  /** When the window ends and the count starts again from zero. */
  resetAt: Date;
}

export interface RateLimiter {
  /** Atomically adds `points` (default 1) to `key`'s counter of the window containing `now`; returns the new count. */
  hit(key: string, window: WindowName, now: Date, points?: number): Promise<WindowCount>;
  /** The count without adding to it. */
  peek(key: string, window: WindowName, now: Date): Promise<WindowCount>;
  /** The same as `hit` and `peek`, answered at once, where the counters live in this process. */
  hitNow?(key: string, window: WindowName, now: Date, points?: number): WindowCount;
  peekNow?(key: string, window: WindowName, now: Date): WindowCount;
}

/** The window containing `now`: its index (part of the counter's key) and its end. */
export function windowOf(window: WindowName, now: Date): { index: number; resetAt: Date } {
  const ms = WINDOW_SECONDS[window] * 1000;
  const index = Math.floor(now.getTime() / ms);
  return { index, resetAt: new Date((index + 1) * ms) };
}

/** The part of a rate-limiter-flexible store the windowed counters use. */
export interface CounterStore {
  consume(key: string, points?: number): Promise<{ consumedPoints: number }>;
  get(key: string): Promise<{ consumedPoints: number } | null>;
}

/**
 * Fixed-window counters over rate-limiter-flexible stores, one per window. The window index is
 * part of the key, so a fake clock moves to a fresh counter; the store's own expiry only frees
 * memory once a window is over. Points are never the limit here: the caller compares the count
 * with the tier's limit. Adapters differ only in the store they make.
 */
export class WindowedCounters implements RateLimiter {
  private readonly stores: Record<WindowName, CounterStore>;

  constructor(make: (window: WindowName, seconds: number) => CounterStore) {
    this.stores = { minute: make('minute', WINDOW_SECONDS.minute), hour: make('hour', WINDOW_SECONDS.hour), day: make('day', WINDOW_SECONDS.day) };
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
