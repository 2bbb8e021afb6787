import type { Tier } from '../domain/tier.js';
import type { ApiKeyRecord, KeyStore } from '../store/types.js';
import { generateApiKey, hashSecret, keyPrefix, looksLikeApiKey } from './api-key.js';
import { FreshRead, KeyCache } from './key-cache.js';
import type { KeyEvents } from './key-events.js';
import { withFields } from '../domain/with-fields.js';

export type KeyCheck =
  | { ok: true; key: ApiKeyRecord }
  | { ok: false; reason: 'malformed' | 'unknown' | 'revoked' };

export interface Clock { now(): Date }
export const systemClock: Clock = { now: () => new Date() };

/** A key's entry by id in the key cache (the others are by hash: hex, never starting with '#'). */
const byId = (id: number) => `#${id}`;

export class KeyService {
  private cache: KeyCache | null = null;

  constructor(private readonly keys: KeyStore, private readonly clock: Clock = systemClock) {}

  /**
   * Serve `check` from memory (see KeyCache), cleared by every change `events` reports: rotations
   * here and, through the bus, on other instances, tier changes and verifications here.
   */
  cacheActiveKeys(events: KeyEvents, cache = new KeyCache()): void {
    if (this.cache) return;
    this.cache = cache;
    events.onAnyChanged(() => cache.clear());
  }

  private changes: FreshRead<number> | null = null;

  /**
   * Many instances on one store: a bus message about a rotation can arrive after the next request,
   * so a cached key is used only while the store's key change count, read after the request
   * arrived, is still the one it was read at. Under load one count read serves a batch of requests
   * instead of one key read each.
   */
  cacheWhileUnchanged(events: KeyEvents, cache = new KeyCache(60_000)): void {
    this.cacheActiveKeys(events, cache);
    this.changes = new FreshRead(() => this.keys.changeCount());
  }

  /** After a change to a key made outside KeyAdmin (verification). */
  forget(): void {
    this.cache?.clear();
  }

  async create(opts: { tier: Tier; name?: string | null; email?: string | null; verified?: boolean }): Promise<{ apiKey: string; record: ApiKeyRecord }> {
    const apiKey = generateApiKey();
    const record = await this.keys.create({
      prefix: keyPrefix(apiKey), hash: hashSecret(apiKey), name: opts.name ?? null, tier: opts.tier,
      pendingTier: null, pendingTierAt: null, email: opts.email ?? null, verified: opts.verified ?? false,
    }, this.clock.now().toISOString());
    return { apiKey, record };
  }

  /** An expected outcome, not an exception: a wrong key is a value the auth hook turns into 401. */
  async check(apiKey: string): Promise<KeyCheck> {
    if (!looksLikeApiKey(apiKey)) return { ok: false, reason: 'malformed' };
    const hash = hashSecret(apiKey);
    if (!this.cache) return this.lookUp(hash, 0);
    if (this.changes) {
      this.cache.observeChanges(await this.changes.get());
      const key = this.usable(this.cache.get(hash));
      if (key) return { ok: true, key };
    }
    // When a cached key expires, the requests already read with it share one store lookup.
    const generation = this.cache.generation;
    const pending = this.pending.get(hash);
    if (pending && pending.generation === generation) return pending.check;
    const check = this.lookUp(hash, generation).finally(() => {
      if (this.pending.get(hash)?.check === check) this.pending.delete(hash);
    });
    this.pending.set(hash, { check, generation });
    return check;
  }

  private readonly pending = new Map<string, { check: Promise<KeyCheck>; generation: number }>();

  private async lookUp(hash: string, generation: number): Promise<KeyCheck> {
    const key = await this.keys.findByHash(hash);
    if (!key) return { ok: false, reason: 'unknown' };
    if (key.revokedAt) return { ok: false, reason: 'revoked' };
    const active = await this.applyDueTierChange(key);
    this.cache?.set(hash, active, generation);
    return { ok: true, key: active };
  }

  /**
   * The active key from the cache, without awaiting anything; null when the store must be asked
   * (not cached, or a downgrade has come due). Only active keys are cached, so a miss is never a refusal.
   */
  cachedActive(apiKey: string): ApiKeyRecord | null {
    if (!this.cache || this.changes) return null;
    return this.usable(this.cache.get(hashSecret(apiKey)));
  }

  private usable(key: ApiKeyRecord | null): ApiKeyRecord | null {
    if (!key || (key.pendingTierAt && key.pendingTierAt <= this.clock.now().toISOString())) return null;
    return key;
  }

  /** An active key by id, with a due downgrade applied (OAuth tokens resolve their owner through this). */
  async activeById(id: number): Promise<ApiKeyRecord | null> {
    const key = await this.keys.findById(id);
    if (!key || key.revokedAt) return null;
    return this.applyDueTierChange(key);
  }

  /**
   * activeById for a request's credential (the key an access token acts for), remembered as
   * `check` remembers keys: in the same cache, under the id, cleared by the same changes.
   */
  async activeOwner(id: number): Promise<ApiKeyRecord | null> {
    if (!this.cache) return this.activeById(id);
    if (this.changes) this.cache.observeChanges(await this.changes.get());
    const hit = this.usable(this.cache.get(byId(id)));
    if (hit) return hit;
    const generation = this.cache.generation;
    const key = await this.activeById(id);
    if (key) this.cache.set(byId(id), key, generation);
    return key;
  }

  /** activeOwner from the cache, with nothing awaited; null when the store must be asked. */
  cachedOwner(id: number): ApiKeyRecord | null {
    if (!this.cache || this.changes) return null;
    return this.usable(this.cache.get(byId(id)));
  }

  /** A downgrade waits for the end of the billing cycle; it is applied the first time the key is seen after. */
  private async applyDueTierChange(key: ApiKeyRecord): Promise<ApiKeyRecord> {
    if (!key.pendingTier || !key.pendingTierAt || key.pendingTierAt > this.clock.now().toISOString()) return key;
    const next = withFields(key, { tier: key.pendingTier, pendingTier: null, pendingTierAt: null });
    await this.keys.update(key.id, { tier: next.tier, pendingTier: null, pendingTierAt: null });
    return next;
  }
}
