import type { Tier } from '../domain/tier.js';
import type { AccountStore, ApiKeyRecord, KeyStore } from '../store/types.js';
import { generateApiKey, hashSecret, keyPrefix } from './api-key.js';
import type { KeyEvents } from './key-events.js';
import { systemClock, type Clock } from './keys.js';
import { tierRank } from '../domain/tier.js';
import { billingCycleEnd } from './tiers.js';
import { withFields } from '../domain/with-fields.js';

export type RotateResult = { ok: true; apiKey: string; record: ApiKeyRecord } | { ok: false; reason: 'revoked' };
export type TierChange =
  | { ok: true; key: ApiKeyRecord; effective: 'now' | 'cycle_end'; at: string }
  | { ok: false; reason: 'unknown' | 'ambiguous' | 'revoked' };

/** Rotation and tier changes: the lifecycle of a key after it is issued. */
export class KeyAdmin {
  constructor(
    private readonly keys: KeyStore,
    private readonly accounts: AccountStore,
    private readonly events: KeyEvents,
    private readonly clock: Clock = systemClock,
  ) {}

  /** The old key stops working on the next request and its streams are told to close. */
  async rotate(old: ApiKeyRecord): Promise<RotateResult> {
    const apiKey = generateApiKey();
    const record = await this.accounts.rotateKey(old.id, {
      prefix: keyPrefix(apiKey), hash: hashSecret(apiKey), name: old.name, tier: old.tier,
      pendingTier: old.pendingTier, pendingTierAt: old.pendingTierAt, email: old.email, verified: old.verified,
    }, this.clock.now().toISOString());
    if (!record) return { ok: false, reason: 'revoked' };
    this.events.emitRevoked(old.id);
    return { ok: true, apiKey, record };
  }

  /** `ref` is a numeric key id or a key prefix ("ck_AbC123"); only active keys qualify. */
  async resolve(ref: string): Promise<{ ok: true; key: ApiKeyRecord } | { ok: false; reason: 'unknown' | 'ambiguous' | 'revoked' }> {
    if (/^\d+$/.test(ref)) {
      const key = await this.keys.findById(Number(ref));
      if (!key) return { ok: false, reason: 'unknown' };
      return key.revokedAt ? { ok: false, reason: 'revoked' } : { ok: true, key };
    }
    const active = (await this.accounts.findByPrefix(ref)).filter((k) => !k.revokedAt);
    if (active.length > 1) return { ok: false, reason: 'ambiguous' };
    return active.length ? { ok: true, key: active[0] } : { ok: false, reason: 'unknown' };
  }

  /** An upgrade applies at once (and cancels a pending downgrade); a downgrade waits for the end of the billing cycle. */
  async setTier(ref: string, tier: Tier): Promise<TierChange> {
    const found = await this.resolve(ref);
    if (!found.ok) return found;
    const key = found.key;
    const now = this.clock.now();
    if (tierRank(tier) >= tierRank(key.tier)) {
      const patch = { tier, pendingTier: null, pendingTierAt: null };
      await this.keys.update(key.id, patch);
      this.events.emitChanged(key.id);
      return { ok: true, key: withFields(key, patch), effective: 'now', at: now.toISOString() };
    }
    const at = billingCycleEnd(now).toISOString();
    await this.keys.update(key.id, { pendingTier: tier, pendingTierAt: at });
    this.events.emitChanged(key.id);
    return { ok: true, key: withFields(key, { pendingTier: tier, pendingTierAt: at }), effective: 'cycle_end', at };
  }
}
