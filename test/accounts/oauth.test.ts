import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { KeyCache } from '../../src/accounts/key-cache.js';
import { accountsHarness, type AccountsHarness } from './setup.js';

let h: AccountsHarness;
beforeEach(async () => {
  // Keys and tokens stay remembered for the whole test (their entries' clock stands still): what
  // ends a token early here is a revocation, a rotation or its expiry, never the entry's age.
  const still = () => 0;
  h = await accountsHarness({ PUBLIC_URL: 'https://catalog.test' }, { caches: { keyCache: new KeyCache(250, 10_000, still), tokenCache: new KeyCache(250, 10_000, still) } });
});
afterEach(() => h.close());

const registerClient = (payload: object, headers: Record<string, string> = {}, ip = '10.0.0.1') =>
  h.app.inject({ method: 'POST', url: '/v1/oauth/register', payload, headers, remoteAddress: ip });
const tokenJson = (payload: object, headers: Record<string, string> = {}) => h.app.inject({ method: 'POST', url: '/v1/oauth/token', payload, headers });
const form = (o: Record<string, string>) => new URLSearchParams(o).toString();
const basic = (id: string, secret: string) => `Basic ${Buffer.from(`${encodeURIComponent(id)}:${encodeURIComponent(secret)}`).toString('base64')}`;

async function client(owner?: string) {
  const res = await registerClient({ client_name: 'agent', client_type: 'confidential' }, owner ? { authorization: `Bearer ${owner}` } : {});
  expect(res.statusCode).toBe(201);
  return res.json() as { client_id: string; client_secret: string };
}
async function token(owner?: string) {
  const cl = await client(owner);
  const res = await tokenJson({ grant_type: 'client_credentials', client_id: cl.client_id, client_secret: cl.client_secret });
  return { ...cl, ...(res.json() as { access_token: string; scope: string }) };
}

describe('RFC 8414 metadata', () => {
  it('names the issuer and every endpoint, grant, auth method and scope', async () => {
    const res = await h.app.inject({ url: '/.well-known/oauth-authorization-server' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      issuer: 'https://catalog.test',
      token_endpoint: 'https://catalog.test/v1/oauth/token',
      registration_endpoint: 'https://catalog.test/v1/oauth/register',
      revocation_endpoint: 'https://catalog.test/v1/oauth/revoke',
      introspection_endpoint: 'https://catalog.test/v1/oauth/introspect',
      grant_types_supported: ['client_credentials'],
      token_endpoint_auth_methods_supported: ['client_secret_basic', 'client_secret_post'],
      scopes_supported: ['catalog:read', 'offers:read'],
      authorization_endpoint: 'https://catalog.test/v1/oauth/authorize', response_types_supported: [],
    });
  });

  it('the authorization endpoint offers no response type yet, and says what to use', async () => {
    const res = await h.app.inject({ url: '/v1/oauth/authorize?response_type=code&client_id=x' });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ error: 'unsupported_response_type', error_description: expect.stringMatching(/client_credentials/) });
  });
});

describe('RFC 7591 registration', () => {
  it('201 with client_id, the secret once, issued_at and expires_at', async () => {
    const res = await registerClient({ client_name: 'agent', client_type: 'confidential' });
    expect(res.statusCode).toBe(201);
    expect(res.headers['cache-control']).toBe('no-store');
    const b = res.json();
    expect(b).toMatchObject({
      client_id: expect.stringMatching(/^cci_/), client_secret: expect.stringMatching(/^ccs_/),
      client_id_issued_at: Date.parse('2026-11-20T12:00:00Z') / 1000, client_secret_expires_at: 0,
      client_name: 'agent', client_type: 'confidential', grant_types: ['client_credentials'], scope: 'catalog:read offers:read',
    });
    const stored = await h.c.store.oauth.findClient(b.client_id);
    expect(JSON.stringify(stored)).not.toContain(b.client_secret);
  });

  it('a public client gets no secret', async () => {
    const res = await registerClient({ client_name: 'spa', client_type: 'public' });
    expect(res.statusCode).toBe(201);
    expect(res.json().client_secret).toBeUndefined();
    expect(res.json().token_endpoint_auth_method).toBe('none');
  });

  it('5 per hour per IP, then 429', async () => {
    for (let i = 0; i < 5; i++) expect((await registerClient({ client_name: `c${i}` })).statusCode).toBe(201);
    const res = await registerClient({ client_name: 'c6' });
    expect(res.statusCode).toBe(429);
    expect(res.headers['retry-after']).toBe('3600');
    expect(res.json().rate_limit).toMatchObject({ limit: 5, remaining: 0 });
    expect((await registerClient({ client_name: 'c7' }, {}, '10.0.0.2')).statusCode).toBe(201);
    h.clock.advance(3600_000);
    expect((await registerClient({ client_name: 'c8' })).statusCode).toBe(201);
  });

  it.each([
    [{}, 'missing name'],
    [{ client_name: 'x', grant_types: ['password'] }, 'grant'],
    [{ client_name: 'x', scope: 'admin' }, 'scope'],
    [{ client_name: 'x', token_endpoint_auth_method: 'private_key_jwt' }, 'method'],
  ])('invalid metadata %j: 400 invalid_client_metadata (%s)', async (payload, _what) => {
    const res = await registerClient(payload);
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toBe('invalid_client_metadata');
  });

  it('a bad key on registration is refused, not ignored', async () => {
    const res = await registerClient({ client_name: 'x' }, { authorization: 'Bearer ck_wrong' });
    expect(res.statusCode).toBe(401);
  });
});

describe('token endpoint', () => {
  it('client_secret_post as JSON and as a form, and client_secret_basic', async () => {
    const cl = await client();
    const asJson = await tokenJson({ grant_type: 'client_credentials', client_id: cl.client_id, client_secret: cl.client_secret });
    const asForm = await h.app.inject({
      method: 'POST', url: '/v1/oauth/token', headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: form({ grant_type: 'client_credentials', client_id: cl.client_id, client_secret: cl.client_secret }),
    });
    const asBasic = await h.app.inject({
      method: 'POST', url: '/v1/oauth/token', headers: { 'content-type': 'application/x-www-form-urlencoded', authorization: basic(cl.client_id, cl.client_secret) },
      payload: form({ grant_type: 'client_credentials', scope: 'catalog:read' }),
    });
    for (const res of [asJson, asForm, asBasic]) {
      expect(res.statusCode).toBe(200);
      expect(res.headers['cache-control']).toBe('no-store');
      expect(res.headers.pragma).toBe('no-cache');
      expect(res.json()).toMatchObject({ access_token: expect.stringMatching(/^cat_/), token_type: 'Bearer', expires_in: 3600 });
    }
    expect(asJson.json().scope).toBe('catalog:read offers:read');
    expect(asBasic.json().scope).toBe('catalog:read');
  });

  it('RFC 6749 5.2 errors', async () => {
    const cl = await client();
    const wrong = await tokenJson({ grant_type: 'client_credentials', client_id: cl.client_id, client_secret: 'ccs_wrong' });
    expect(wrong.statusCode).toBe(401);
    expect(wrong.json().error).toBe('invalid_client');
    expect(wrong.headers['www-authenticate']).toMatch(/^Basic realm="catalog"/);
    expect(wrong.headers['cache-control']).toBe('no-store');
    const unknown = await tokenJson({ grant_type: 'client_credentials', client_id: 'cci_nope', client_secret: 'x' });
    expect(unknown.json().error).toBe('invalid_client');
    const none = await tokenJson({ grant_type: 'client_credentials' });
    expect(none.statusCode).toBe(401);
    const grant = await tokenJson({ grant_type: 'password', client_id: cl.client_id, client_secret: cl.client_secret });
    expect([grant.statusCode, grant.json().error]).toEqual([400, 'unsupported_grant_type']);
    const scope = await tokenJson({ grant_type: 'client_credentials', client_id: cl.client_id, client_secret: cl.client_secret, scope: 'admin' });
    expect([scope.statusCode, scope.json().error]).toEqual([400, 'invalid_scope']);
    const missing = await tokenJson({ client_id: cl.client_id });
    expect([missing.statusCode, missing.json().error]).toEqual([400, 'invalid_request']);
    const both = await h.app.inject({
      method: 'POST', url: '/v1/oauth/token', headers: { authorization: basic(cl.client_id, cl.client_secret) },
      payload: { grant_type: 'client_credentials', client_secret: cl.client_secret },
    });
    expect([both.statusCode, both.json().error]).toEqual([400, 'invalid_request']);
    const pub = (await registerClient({ client_name: 'spa', client_type: 'public' })).json();
    const pubTok = await tokenJson({ grant_type: 'client_credentials', client_id: pub.client_id });
    expect([pubTok.statusCode, pubTok.json().error]).toEqual([400, 'unauthorized_client']);
  });

  it('tokens are stored only as hashes', async () => {
    const t = await token();
    const db = (h.c.store as unknown as { db: { prepare(s: string): { all(): unknown[] } } }).db;
    expect(JSON.stringify(db.prepare('SELECT * FROM oauth_tokens').all())).not.toContain(t.access_token);
    expect(JSON.stringify(db.prepare('SELECT * FROM oauth_clients').all())).not.toContain(t.client_secret);
  });
});

describe('access tokens as credentials', () => {
  it('a client registered with a key inherits its tier and limits; usage is shared with the key', async () => {
    const { key, headers } = await h.key('pro');
    const t = await token(key);
    const res = await h.app.inject({ url: '/v1/auth/me', headers: { authorization: `Bearer ${t.access_token}` } });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ tier: 'pro', auth: 'oauth', client_id: t.client_id, scope: 'catalog:read offers:read', limits: { per_minute: 300 } });
    expect((await h.app.inject({ url: '/v1/auth/me', headers })).json().usage.minute.used).toBe(2);
  });

  it('an anonymous client gets the unverified tier', async () => {
    const t = await token();
    const res = await h.app.inject({ url: '/v1/auth/me', headers: { authorization: `Bearer ${t.access_token}` } });
    expect(res.json()).toMatchObject({ tier: 'unverified', auth: 'oauth' });
  });

  it('works on catalog routes and expires after 3600 s', async () => {
    const t = await token();
    const auth = { authorization: `Bearer ${t.access_token}` };
    expect((await h.app.inject({ url: '/v1/products', headers: auth })).statusCode).toBe(200);
    h.clock.advance(3599_000);
    expect((await h.app.inject({ url: '/v1', headers: auth })).statusCode).toBe(200);
    h.clock.advance(1_000);
    const res = await h.app.inject({ url: '/v1', headers: auth });
    expect(res.statusCode).toBe(401);
    expect(res.headers['www-authenticate']).toMatch(/error="invalid_token"/);
  });

  it('a token and its owner key are read from the store once while remembered', async () => {
    const { key } = await h.key('pro');
    const t = await token(key);
    const findToken = vi.spyOn(h.c.store.oauth, 'findToken');
    const findById = vi.spyOn(h.c.store.keys, 'findById');
    for (let i = 0; i < 3; i++) expect((await h.app.inject({ url: '/v1', headers: { authorization: `Bearer ${t.access_token}` } })).statusCode).toBe(200);
    expect([findToken.mock.calls.length, findById.mock.calls.length]).toEqual([1, 1]);
    // An unknown token is never remembered: each try reads the store.
    for (let i = 0; i < 2; i++) expect((await h.app.inject({ url: '/v1', headers: { authorization: 'Bearer cat_unknown' } })).statusCode).toBe(401);
    expect(findToken.mock.calls.length).toBe(3);
  });

  it('cannot rotate the key (403)', async () => {
    const { key } = await h.key('pro');
    const t = await token(key);
    const res = await h.app.inject({ method: 'POST', url: '/v1/keys/rotate', headers: { authorization: `Bearer ${t.access_token}` } });
    expect(res.statusCode).toBe(403);
    expect(res.json().error.code).toBe('INSUFFICIENT_SCOPE');
  });

  it('rotating the key ends its tokens; the client moves to the new key and gets new ones', async () => {
    const { key, headers } = await h.key('pro');
    const t = await token(key);
    const next = (await h.app.inject({ method: 'POST', url: '/v1/keys/rotate', headers })).json().api_key;
    expect((await h.app.inject({ url: '/v1', headers: { authorization: `Bearer ${t.access_token}` } })).statusCode).toBe(401);
    const again = await tokenJson({ grant_type: 'client_credentials', client_id: t.client_id, client_secret: t.client_secret });
    const me = await h.app.inject({ url: '/v1/auth/me', headers: { authorization: `Bearer ${again.json().access_token}` } });
    expect(me.json()).toMatchObject({ tier: 'pro', key_id: (await h.app.inject({ url: '/v1/auth/me', headers: { authorization: `Bearer ${next}` } })).json().key_id });
  });
});

describe('RFC 7009 revocation and RFC 7662 introspection', () => {
  const post = (url: string, c: { client_id: string; client_secret: string }, tok: string) =>
    h.app.inject({ method: 'POST', url, headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: form({ token: tok, client_id: c.client_id, client_secret: c.client_secret }) });

  it('introspection: active with scope and exp for the own token; inactive for another client\'s and after revocation', async () => {
    const a = await token();
    const b = await token();
    const own = await post('/v1/oauth/introspect', a, a.access_token);
    expect(own.json()).toMatchObject({ active: true, client_id: a.client_id, scope: 'catalog:read offers:read', token_type: 'Bearer', exp: Date.parse('2026-11-20T13:00:00Z') / 1000 });
    expect((await post('/v1/oauth/introspect', b, a.access_token)).json()).toEqual({ active: false });
    expect((await post('/v1/oauth/revoke', b, a.access_token)).statusCode).toBe(200);
    expect((await post('/v1/oauth/introspect', a, a.access_token)).json().active).toBe(true);
    expect((await post('/v1/oauth/revoke', a, a.access_token)).statusCode).toBe(200);
    expect((await post('/v1/oauth/introspect', a, a.access_token)).json()).toEqual({ active: false });
    expect((await h.app.inject({ url: '/v1', headers: { authorization: `Bearer ${a.access_token}` } })).statusCode).toBe(401);
    expect((await post('/v1/oauth/revoke', a, 'cat_unknown')).statusCode).toBe(200);
  });

  it('both need client authentication', async () => {
    const a = await token();
    const res = await post('/v1/oauth/introspect', { client_id: a.client_id, client_secret: 'wrong' }, a.access_token);
    expect([res.statusCode, res.json().error]).toEqual([401, 'invalid_client']);
    expect((await post('/v1/oauth/revoke', { client_id: a.client_id, client_secret: 'wrong' }, a.access_token)).statusCode).toBe(401);
  });
});
