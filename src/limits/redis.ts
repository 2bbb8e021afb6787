import { Redis } from 'ioredis';
import { RateLimiterRedis } from 'rate-limiter-flexible';
import { WindowedCounters } from './limiter.js';

/**
 * A Redis connection for request-path work: no offline queue and a short command timeout, so
 * while Redis is down a call fails within milliseconds instead of waiting for a reconnect. The
 * caller decides what a failure means (http/rate-limit.ts: admit, log a warning; never a 500).
 */
export function requestPathRedis(url: string): Redis {
  const redis = new Redis(url, {
    enableOfflineQueue: false,
    commandTimeout: 500,
    maxRetriesPerRequest: 1,
    connectTimeout: 2000,
    // Keep reconnecting in the background, at most every 2 s: the limiter recovers by itself.
    retryStrategy: (times) => Math.min(times * 200, 2000),
  });
  redis.on('error', () => undefined); // reported per call by the caller; never an unhandled 'error'
  return redis;
}

/**
 * Counters shared by every instance (rate-limiter-flexible over Redis: INCRBY + PEXPIRE in one
 * MULTI, so N concurrent hits on N instances count exactly N). The window index is part of the
 * key, like the memory adapter; the TTL only frees the counter once its window is over.
 */
export class RedisRateLimiter extends WindowedCounters {
  constructor(private readonly redis: Redis, keyPrefix = 'catalog:rl') {
    super((w, seconds) => new RateLimiterRedis({
      storeClient: redis, points: Number.MAX_SAFE_INTEGER, duration: seconds, keyPrefix: `${keyPrefix}:${w}`,
    }));
  }

  async close(): Promise<void> {
    this.redis.disconnect();
  }
}
