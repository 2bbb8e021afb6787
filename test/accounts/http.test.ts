import * as oauth from 'oauth4webapi';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accountsHarness, tiersFile, type AccountsHarness } from './setup.js';

/** Over real HTTP, as a client would: a listening server, fetch, and a standard OAuth client library. */
let h: AccountsHarness;
let base: string;
beforeAll(async () => {
  h = await accountsHarness({ HOST: '127.0.0.1', TIERS_FILE: tiersFile({ unverified: { per_minute: 7, per_day: 100 } }) });
  await h.app.listen({ port: 0, host: '127.0.0.1' });
  const addr = h.app.server.address();
  const port = typeof addr === 'object' && addr ? addr.port : 0;
  // As `serve` does: without PUBLIC_URL, links and the issuer name the bound address.
  h.c.listening(port);
  base = `http://127.0.0.1:${port}`;
});
afterAll(() => h.close());

describe('over HTTP', () => {
  it('oauth4webapi: discovery, registration, client credentials, a catalog call with the token', async () => {
    const issuer = new URL(base);
    const as = await oauth.processDiscoveryResponse(issuer, await oauth.discoveryRequest(issuer, { algorithm: 'oauth2', [oauth.allowInsecureRequests]: true }));
    expect(as.token_endpoint).toBe(`${base}/v1/oauth/token`);

    const { key } = await h.key('pro');
    const reg = await fetch(as.registration_endpoint!, {
      method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${key}` },
      body: JSON.stringify({ client_name: 'e2e agent', token_endpoint_auth_method: 'client_secret_basic' }),
    });
    expect(reg.status).toBe(201);
    const { client_id: clientId, client_secret: clientSecret } = await reg.json() as { client_id: string; client_secret: string };

    const client: oauth.Client = { client_id: clientId };
    for (const auth of [oauth.ClientSecretBasic(clientSecret), oauth.ClientSecretPost(clientSecret)]) {
      const res = await oauth.clientCredentialsGrantRequest(as, client, auth, { scope: 'catalog:read' }, { [oauth.allowInsecureRequests]: true });
      const tok = await oauth.processClientCredentialsResponse(as, client, res);
      expect(tok.token_type).toBe('bearer');
      expect(tok.expires_in).toBe(3600);

      const call = await oauth.protectedResourceRequest(tok.access_token, 'GET', new URL(`${base}/v1/products?limit=5`), undefined, undefined, { [oauth.allowInsecureRequests]: true });
      expect(call.status).toBe(200);
      expect(call.headers.get('x-ratelimit-limit')).toBe('300');
    }

    const bad = await oauth.clientCredentialsGrantRequest(as, client, oauth.ClientSecretBasic('ccs_wrong'), {}, { [oauth.allowInsecureRequests]: true });
    await expect(oauth.processClientCredentialsResponse(as, client, bad)).rejects.toMatchObject({ code: oauth.WWW_AUTHENTICATE_CHALLENGE, status: 401 });
  });

  it('N concurrent requests against a limit: exactly the limit is admitted', async () => {
    const reg = await fetch(`${base}/v1/auth/register?verify=false`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ agent_name: 'burst' }) });
    const { api_key: key } = await reg.json() as { api_key: string };
    const results = await Promise.all(Array.from({ length: 40 }, () => fetch(`${base}/v1/auth/me`, { headers: { authorization: `Bearer ${key}` } })));
    const codes = results.map((r) => r.status);
    expect(codes.filter((s) => s === 200)).toHaveLength(7);
    expect(codes.filter((s) => s === 429)).toHaveLength(33);
    const limited = results.find((r) => r.status === 429)!;
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    await Promise.all(results.map((r) => r.body?.cancel()));
  });
});
