import { randomUUID } from 'node:crypto';
import type { Redis } from 'ioredis';
import { MemorySlots, type ConcurrencySlots, type SlotLease } from './slots.js';

// Redis time, not the instances' clocks: leases compare across machines.
const NOW = "local t = redis.call('TIME') local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)";

/** KEYS[1] the key's set; ARGV member, max, lease ms. Expired leases go first, then the count decides. */
const ACQUIRE = `${NOW}
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now)
if redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[2]) then return 0 end
redis.call('ZADD', KEYS[1], now + tonumber(ARGV[3]), ARGV[1])
redis.call('PEXPIRE', KEYS[1], tonumber(ARGV[3]) * 2)
return 1`;

/** KEYS the sets of held leases; ARGV[1] lease ms, then one member per key. A lease lost in an outage is put back. */
const RENEW = `${NOW}
local lease = tonumber(ARGV[1])
for i, k in ipairs(KEYS) do
  redis.call('ZADD', k, now + lease, ARGV[i + 1])
  redis.call('PEXPIRE', k, lease * 2)
end
return #KEYS`;

const RENEW_CHUNK = 500;

const COUNT = `${NOW}
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now)
return redis.call('ZCARD', KEYS[1])`;

/**
 * Slots counted across every instance: one sorted set per key in Redis, a member per held slot
 * scored with its lease's end. The instance renews its leases every third of the lease; the
 * slots of an instance that dies free themselves when their leases run out. While Redis cannot be
 * reached a slot is taken from this process's own count instead (scope `local`), so streams keep
 * opening, each instance then holding the limit on its own; `onError` is told.
 */
export class RedisSlots implements ConcurrencySlots {
  private readonly leases = new Map<string, string>(); // member -> set key
  private readonly local = new MemorySlots();
  private readonly timer: NodeJS.Timeout;

  constructor(
    private readonly redis: Redis,
    private readonly prefix: string,
    private readonly leaseMs = 30_000,
    private readonly onError: (e: Error) => void = () => undefined,
  ) {
    this.timer = setInterval(() => void this.renew(), Math.max(100, Math.floor(leaseMs / 3)));
    this.timer.unref();
  }

  private setKey(key: string): string {
    return `${this.prefix}:${key}`;
  }

  async acquire(key: string, max: number): Promise<SlotLease | null> {
    const set = this.setKey(key);
    const member = randomUUID();
    let ok: number;
    try {
      ok = (await this.redis.eval(ACQUIRE, 1, set, member, max, this.leaseMs)) as number;
    } catch (e) {
      this.onError(e as Error);
      return this.local.take(key, max);
    }
    if (!ok) return null;
    this.leases.set(member, set);
    let released = false;
    return {
      scope: 'shared',
      release: () => {
        if (released) return;
        released = true;
        this.leases.delete(member);
        // Unreachable now: the lease runs out by itself.
        this.redis.zrem(set, member).catch((e: Error) => this.onError(e));
      },
    };
  }

  async held(key: string): Promise<number> {
    return (await this.redis.eval(COUNT, 1, this.setKey(key))) as number;
  }

  private async renew(): Promise<void> {
    const all = [...this.leases.entries()];
    for (let i = 0; i < all.length; i += RENEW_CHUNK) {
      const chunk = all.slice(i, i + RENEW_CHUNK);
      try {
        await this.redis.eval(RENEW, chunk.length, ...chunk.map(([, set]) => set), this.leaseMs, ...chunk.map(([m]) => m));
      } catch (e) {
        this.onError(e as Error);
        return;
      }
      // A slot released while the renewal was on its way was put back by it: take it out again (after it, same connection).
      for (const [m, set] of chunk) if (!this.leases.has(m)) this.redis.zrem(set, m).catch((e: Error) => this.onError(e));
    }
  }

  async close(): Promise<void> {
    clearInterval(this.timer);
    const members = [...this.leases.entries()];
    this.leases.clear();
    if (members.length) await Promise.all(members.map(([m, set]) => this.redis.zrem(set, m))).catch(() => undefined);
    this.redis.disconnect();
  }
}
