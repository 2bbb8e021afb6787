import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { hashSecret } from '../../src/accounts/api-key.js';
import { FreshRead, KeyCache } from '../../src/accounts/key-cache.js';
import { KeyEvents } from '../../src/accounts/key-events.js';
import { KeyService } from '../../src/accounts/keys.js';
import type { ApiKeyRecord } from '../../src/store/types.js';
import { accountsHarness, type AccountsHarness } from './setup.js';

let h: AccountsHarness;
beforeEach(async () => {
  h = await accountsHarness({ ADMIN_SECRET: 'admin-secret-for-tests' });
});
afterEach(() => h.close());

const get = (authorization: string) => h.app.inject({ url: '/v1/categories', headers: { authorization } });
const limitOf = async (authorization: string) => (await get(authorization)).headers['x-ratelimit-limit'];

describe('authenticated keys are served from memory', () => {
  it('the store is read once for many requests with one key', async () => {
    const { headers } = await h.key('pro');
    const spy = vi.spyOn(h.c.store.keys, 'findByHash');
    for (let i = 0; i < 5; i++) expect((await get(headers.authorization)).statusCode).toBe(200);
    expect(spy).toHaveBeenCalledTimes(1);
  });

  it('a rotation heard from another instance (the bus) refuses the old key at once', async () => {
    const { headers, id, key } = await h.key('pro');
    expect((await get(headers.authorization)).statusCode).toBe(200);
    // Another instance revoked it: the store says so, and the bus delivers the notice.
    await h.c.store.accounts.rotateKey(id, { prefix: 'ck_other', hash: hashSecret(`${key}-next`), name: null, tier: 'pro', pendingTier: null, pendingTierAt: null, email: null, verified: true }, h.clock.now().toISOString());
    h.c.keyEvents.emitRevoked(id);
    expect((await get(headers.authorization)).statusCode).toBe(401);
  });

  it('an upgrade counts at once, and so does a downgrade coming due', async () => {
    const { headers, id } = await h.key('free');
    expect(await limitOf(headers.authorization)).toBe('60');
    const admin = (tier: string) => h.app.inject({ method: 'POST', url: `/v1/admin/keys/${id}/tier`, payload: { tier }, headers: { 'x-admin-secret': 'admin-secret-for-tests' } });
    expect((await admin('pro')).statusCode).toBe(200);
    expect(await limitOf(headers.authorization)).toBe('300');
    expect((await admin('basic')).json().effective).toBe('cycle_end');
    expect(await limitOf(headers.authorization)).toBe('300');
    h.clock.set('2026-12-01T00:00:00Z');
    expect(await limitOf(headers.authorization)).toBe('120');
  });

  it('a verified email moves the key to free at once', async () => {
    const reg = await h.app.inject({ method: 'POST', url: '/v1/auth/register', payload: { agent_name: 'bot', email: 'ops@example.com' } });
    const authorization = `Bearer ${reg.json().api_key}`;
    expect(await limitOf(authorization)).toBe('5');
    expect((await h.app.inject({ url: `/v1/auth/verify?token=${h.mailer.lastToken()}` })).statusCode).toBe(200);
    expect(await limitOf(authorization)).toBe('60');
  });

  it('requests waiting on one key share one store read, unless a change came in between', async () => {
    const { key, id } = await h.key('pro');
    const spy = vi.spyOn(h.c.store.keys, 'findByHash');
    const checks = [h.c.keys.check(key), h.c.keys.check(key), h.c.keys.check(key)];
    h.c.keyEvents.emitChanged(id);
    checks.push(h.c.keys.check(key));
    expect((await Promise.all(checks)).every((c) => c.ok)).toBe(true);
    expect(spy).toHaveBeenCalledTimes(2);
  });

  it('an unknown key is never cached: a key created beside the server (CLI) works at once', async () => {
    const spy = vi.spyOn(h.c.store.keys, 'findByHash');
    expect((await get('Bearer ck_aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa')).statusCode).toBe(401);
    const { headers } = await h.key('pro');
    expect((await get(headers.authorization)).statusCode).toBe(200);
    expect(spy).toHaveBeenCalledTimes(1);
  });
});

describe('many instances: keys remembered while the store\'s key change count stays put', () => {
  function instance() {
    const keys = new KeyService(h.c.store.keys, h.clock);
    keys.cacheWhileUnchanged(new KeyEvents());
    return keys;
  }

  it('one key read, and one count read per batch of concurrent requests', async () => {
    const { key } = await h.key('pro');
    const keys = instance();
    const find = vi.spyOn(h.c.store.keys, 'findByHash');
    const count = vi.spyOn(h.c.store.keys, 'changeCount');
    expect((await keys.check(key)).ok).toBe(true);
    const batch = await Promise.all(Array.from({ length: 20 }, () => keys.check(key)));
    expect(batch.every((c) => c.ok)).toBe(true);
    expect(find).toHaveBeenCalledTimes(1);
    expect(count.mock.calls.length).toBeLessThanOrEqual(3);
    expect(keys.cachedActive(key)).toBeNull(); // never answered without a fresh count
  });

  it('a rotation by another instance, heard of by no bus, refuses the old key on the next request', async () => {
    const { key, id } = await h.key('pro');
    const keys = instance();
    expect((await keys.check(key)).ok).toBe(true);
    await h.c.store.accounts.rotateKey(id, { prefix: 'ck_other', hash: hashSecret(`${key}-next`), name: null, tier: 'pro', pendingTier: null, pendingTierAt: null, email: null, verified: true }, h.clock.now().toISOString());
    expect(await keys.check(key)).toEqual({ ok: false, reason: 'revoked' });
  });

  it('a tier change written by another process counts on the next request', async () => {
    const { key, id } = await h.key('free');
    const keys = instance();
    expect((await keys.check(key)).ok && (await keys.check(key)).ok).toBe(true);
    await h.c.store.keys.update(id, { tier: 'enterprise' });
    const after = await keys.check(key);
    expect(after.ok && after.key.tier).toBe('enterprise');
  });
});

describe('KeyCache', () => {
  const rec = (id: number): ApiKeyRecord => ({
    id, prefix: 'ck_x', hash: 'h', name: null, tier: 'pro', pendingTier: null, pendingTierAt: null, email: null, verified: true, createdAt: '', revokedAt: null,
  });

  it('an entry lives at most the TTL of real time, which bounds changes made where this process cannot hear them', () => {
    let t = 0;
    const cache = new KeyCache(250, 10, () => t);
    cache.set('a', rec(1), cache.generation);
    t = 249;
    expect(cache.get('a')?.id).toBe(1);
    t = 250;
    expect(cache.get('a')).toBeNull();
  });

  it('a store read that began before a clear is not stored', () => {
    const cache = new KeyCache();
    const before = cache.generation;
    cache.clear();
    cache.set('a', rec(1), before);
    expect(cache.get('a')).toBeNull();
  });

  it('holds at most maxEntries, dropping the oldest', () => {
    const cache = new KeyCache(1000, 2);
    for (const k of ['a', 'b', 'c']) cache.set(k, rec(1), cache.generation);
    expect(cache.size).toBe(2);
    expect(cache.get('a')).toBeNull();
    expect(cache.get('c')?.id).toBe(1);
  });
});

describe('KeyCache.observeChanges', () => {
  const rec = (id: number): ApiKeyRecord => ({
    id, prefix: 'ck_x', hash: 'h', name: null, tier: 'pro', pendingTier: null, pendingTierAt: null, email: null, verified: true, createdAt: '', revokedAt: null,
  });

  it('a count past the one the entries were read at clears them; the same or an older count keeps them', () => {
    const cache = new KeyCache(60_000);
    cache.observeChanges(7);
    cache.set('a', rec(1), cache.generation);
    cache.observeChanges(7);
    cache.observeChanges(6);
    expect(cache.get('a')?.id).toBe(1);
    const before = cache.generation;
    cache.observeChanges(8);
    expect(cache.get('a')).toBeNull();
    cache.set('a', rec(1), before);
    expect(cache.get('a')).toBeNull();
  });
});

describe('FreshRead', () => {
  function controlled() {
    const started: Array<(v: number) => void> = [];
    const reader = new FreshRead(() => new Promise<number>((resolve) => started.push(resolve)));
    return { reader, started };
  }

  it('callers arriving while a read is out share the next read, never the one already out', async () => {
    const { reader, started } = controlled();
    const first = reader.get();
    const second = reader.get();
    const third = reader.get();
    expect(started).toHaveLength(1);
    started[0](1);
    expect(await first).toBe(1);
    await Promise.resolve();
    expect(started).toHaveLength(2);
    started[1](2);
    expect([await second, await third]).toEqual([2, 2]);
  });

  it('a failed read fails its callers only; the next caller reads again', async () => {
    let n = 0;
    const reader = new FreshRead(async () => {
      if (++n === 1) throw new Error('connection lost');
      return n;
    });
    await expect(reader.get()).rejects.toThrow('connection lost');
    expect(await reader.get()).toBe(2);
  });
});
