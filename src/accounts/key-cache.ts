import { performance } from 'node:perf_hooks';
import type { ApiKeyRecord } from '../store/types.js';

/**
 * Active keys by the SHA-256 of the key (never by the key itself), and what else a request's
 * credential is checked with (an access token's record, its owner key by id), so a request does
 * not read them from the store every time. Whatever this process hears about clears it at once:
 * a rotation here or, through the bus, on another instance, a tier change or a verification here.
 * An entry lives at most `ttlMs` of real time, which bounds a change this process cannot hear
 * about (the CLI, or another instance without REDIS_URL). A lookup that began before a clear is
 * not stored, so a store read racing a rotation cannot bring the old key back.
 */
export class KeyCache<V = ApiKeyRecord> {
  private readonly entries = new Map<string, { key: V; until: number }>();
  private gen = 0;

  constructor(
    private readonly ttlMs = 250,
    private readonly maxEntries = 10_000,
    private readonly monotonic: () => number = () => performance.now(),
  ) {}

  /** Pass to `set` the value read before the store lookup began. */
  get generation(): number {
    return this.gen;
  }

  get(hash: string): V | null {
    const e = this.entries.get(hash);
    if (!e) return null;
    if (e.until <= this.monotonic()) {
      this.entries.delete(hash);
      return null;
    }
    return e.key;
  }

  set(hash: string, key: V, generation: number): void {
    if (generation !== this.gen) return;
    if (this.entries.size >= this.maxEntries && !this.entries.has(hash)) this.entries.delete(this.entries.keys().next().value as string);
    this.entries.set(hash, { key, until: this.monotonic() + this.ttlMs });
  }

  clear(): void {
    this.gen++;
    this.entries.clear();
  }

  private changes = -1;

  /** The store's key change count as just read: a count past the one the entries were read at clears them. */
  observeChanges(count: number): void {
    if (count <= this.changes) return;
    if (this.changes !== -1) this.clear();
    this.changes = count;
  }

  get size(): number {
    return this.entries.size;
  }
}

/**
 * A value read by a read that began after the caller asked. One read at a time: callers arriving
 * while a read is out share the next one, so under load one store round trip serves a whole batch
 * of requests, and none of them is answered from a read older than itself.
 */
export class FreshRead<T> {
  private current: Promise<T> | null = null;
  private next: Promise<T> | null = null;

  constructor(private readonly read: () => Promise<T>) {}

  get(): Promise<T> {
    if (!this.current) return this.start();
    this.next ??= this.current.then(() => undefined, () => undefined).then(() => {
      this.next = null;
      return this.start();
    });
    return this.next;
  }

  private start(): Promise<T> {
    const p = this.read().finally(() => {
      if (this.current === p) this.current = null;
    });
    this.current = p;
    return p;
  }
}
