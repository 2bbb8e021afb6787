import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { accountsHarness, type AccountsHarness } from './setup.js';

let h: AccountsHarness;
beforeEach(async () => {
  h = await accountsHarness({ ADMIN_SECRET: 'admin-secret-for-tests' });
});
afterEach(() => h.close());

const me = (authorization: string) => h.app.inject({ url: '/v1/auth/me', headers: { authorization } });
const rotate = (authorization: string) => h.app.inject({ method: 'POST', url: '/v1/keys/rotate', headers: { authorization } });
const setTier = (key: string | number, tier: string, secret: string | null = 'admin-secret-for-tests') => h.app.inject({
  method: 'POST', url: `/v1/admin/keys/${key}/tier`, payload: { tier }, headers: secret === null ? {} : { 'x-admin-secret': secret },
});

describe('POST /v1/keys/rotate', () => {
  it('the new key works and the old one gets 401 on the very next request', async () => {
    const { headers, id } = await h.key('pro');
    const res = await rotate(headers.authorization);
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
    const body = res.json();
    expect(body.api_key).toMatch(/^ck_/);
    expect(body.key_id).not.toBe(id);
    expect(body.message).toEqual(expect.any(String));
    expect((await me(headers.authorization)).statusCode).toBe(401);
    const next = await me(`Bearer ${body.api_key}`);
    expect(next.statusCode).toBe(200);
    expect(next.json().tier).toBe('pro');
  });

  it('tells stream listeners of the old key to close', async () => {
    const { headers, id } = await h.key('pro');
    let closed = 0;
    h.c.keyEvents.onRevoked(id, () => closed++);
    await rotate(headers.authorization);
    expect(closed).toBe(1);
    expect(h.c.keyEvents.listeners(id)).toBe(0);
  });

  it('usage follows the account, so rotating does not reset the limits', async () => {
    const { headers } = await h.key('unverified');
    for (let i = 0; i < 3; i++) await me(headers.authorization);
    const next = (await rotate(headers.authorization)).json().api_key;
    const res = await me(`Bearer ${next}`);
    expect(res.json().usage.minute.used).toBe(5);
    expect((await me(`Bearer ${next}`)).statusCode).toBe(429);
  });

  it('two concurrent rotations with one key: exactly one wins', async () => {
    const { headers } = await h.key('pro');
    const codes = (await Promise.all([rotate(headers.authorization), rotate(headers.authorization)])).map((r) => r.statusCode).sort();
    expect(codes).toEqual([200, 401]);
  });

  it('a pending downgrade is carried to the new key', async () => {
    const { id, headers } = await h.key('pro');
    await setTier(id, 'free');
    const next = (await rotate(headers.authorization)).json().api_key;
    expect((await me(`Bearer ${next}`)).json()).toMatchObject({ tier: 'pro', pending_tier: 'free', pending_tier_at: '2026-12-01T00:00:00.000Z' });
  });
});

describe('admin: POST /v1/admin/keys/{key}/tier', () => {
  it.each([['wrong secret', 'nope'], ['no secret', null]])('%s gives 403', async (_, secret) => {
    const { id } = await h.key('free');
    const res = await setTier(id, 'pro', secret);
    expect(res.statusCode).toBe(403);
    expect(res.json().error.code).toBe('FORBIDDEN');
  });

  it('is off (403) when ADMIN_SECRET is not configured', async () => {
    const other = await accountsHarness();
    try {
      const { id } = await other.key('free');
      const res = await other.app.inject({ method: 'POST', url: `/v1/admin/keys/${id}/tier`, payload: { tier: 'pro' }, headers: { 'x-admin-secret': '' } });
      expect(res.statusCode).toBe(403);
    } finally {
      await other.close();
    }
  });

  it('an upgrade applies at once, by id or by prefix', async () => {
    const { id, key, headers } = await h.key('free');
    const res = await setTier(id, 'pro');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ tier: 'pro', pending_tier: null, effective: 'now' });
    expect((await me(headers.authorization)).json().limits).toEqual({ per_minute: 300, per_day: 10000 });
    expect((await setTier(key.slice(0, 9), 'enterprise')).json().tier).toBe('enterprise');
  });

  it('a downgrade waits for the end of the billing cycle (1st of next month UTC)', async () => {
    const { id, headers } = await h.key('pro');
    const res = await setTier(id, 'free');
    expect(res.json()).toMatchObject({ tier: 'pro', pending_tier: 'free', effective: 'cycle_end', effective_at: '2026-12-01T00:00:00.000Z' });
    h.clock.set('2026-11-30T23:59:59.000Z');
    expect((await me(headers.authorization)).json().tier).toBe('pro');
    h.clock.set('2026-12-01T00:00:00.000Z');
    expect((await me(headers.authorization)).json()).toMatchObject({ tier: 'free', pending_tier: null });
  });

  it('an upgrade cancels a pending downgrade', async () => {
    const { id } = await h.key('pro');
    await setTier(id, 'free');
    expect((await setTier(id, 'enterprise')).json()).toMatchObject({ tier: 'enterprise', pending_tier: null });
  });

  it('unknown key 404, bad tier 422', async () => {
    expect((await setTier(999, 'pro')).statusCode).toBe(404);
    expect((await setTier('ck_zzzzzz', 'pro')).statusCode).toBe(404);
    const { id } = await h.key('pro');
    expect((await setTier(id, 'platinum')).statusCode).toBe(422);
  });

  it('a revoked (rotated) key cannot be changed', async () => {
    const { id, headers } = await h.key('free');
    await rotate(headers.authorization);
    expect((await setTier(id, 'pro')).statusCode).toBe(404);
  });
});
