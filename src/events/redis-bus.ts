import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import type { BusListener, BusMessage, EventBus } from './bus.js';

/**
 * Redis pub/sub between instances. Each instance tags what it sends and ignores its own
 * messages; the subscriber connection reconnects and resubscribes by itself (ioredis). A publish
 * while Redis is down fails quietly: the receivers' pollers catch up.
 */
export class RedisBus implements EventBus {
  private readonly origin = randomUUID();
  private readonly listeners = new Set<BusListener>();
  private readonly pub: Redis;
  private readonly sub: Redis;

  constructor(url: string, private readonly channel = 'catalog:bus', private readonly onError: (e: Error) => void = () => undefined) {
    // Publishes may wait for the connection (fire and forget, at most a second); the subscriber waits as long as it takes.
    const retryStrategy = (n: number) => Math.min(n * 200, 2000);
    this.pub = new Redis(url, { commandTimeout: 1000, maxRetriesPerRequest: 1, retryStrategy });
    this.sub = new Redis(url, { retryStrategy });
    this.pub.on('error', () => undefined);
    this.sub.on('error', () => undefined);
    this.sub.on('message', (_channel: string, text: string) => this.deliver(text));
  }

  /** Resolves once subscribed (or rejects if Redis cannot be reached now; it keeps retrying). */
  async start(): Promise<void> {
    await this.sub.subscribe(this.channel);
  }

  private deliver(text: string): void {
    let m: { origin: string; message: BusMessage };
    try {
      m = JSON.parse(text) as typeof m;
    } catch {
      return;
    }
    if (m.origin === this.origin) return;
    for (const fn of this.listeners) fn(m.message);
  }

  async publish(message: BusMessage): Promise<void> {
    try {
      await this.pub.publish(this.channel, JSON.stringify({ origin: this.origin, message }));
    } catch (e) {
      this.onError(e as Error);
    }
  }

  subscribe(fn: BusListener): () => void {
    this.listeners.add(fn);
    return () => void this.listeners.delete(fn);
  }

  /** Sends what is still queued (a CLI import's last "events" notice) before it disconnects. */
  async close(): Promise<void> {
    this.sub.disconnect();
    await this.pub.quit().catch(() => this.pub.disconnect());
  }
}
