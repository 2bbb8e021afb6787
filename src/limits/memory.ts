import { RateLimiterMemory } from 'rate-limiter-flexible';
import { WindowedCounters } from './limiter.js';

/** One process's counters (rate-limiter-flexible's memory store: an increment is atomic within the event loop). */
export class MemoryRateLimiter extends WindowedCounters {
  constructor() {
    super((w, seconds) => new RateLimiterMemory({ points: Number.MAX_SAFE_INTEGER, duration: seconds, keyPrefix: w }));
  }
}
