import { ClientCredentialsProvider } from '@modelcontextprotocol/sdk/client/auth-extensions.js';
import { afterEach, describe, expect, it } from 'vitest';
import { tiersFile } from '../accounts/setup.js';
import { serveSeeded, type Served } from './setup.js';

/** Issue 23 item 1: /mcp is authenticated, discoverable and rate limited like every endpoint. */
let s: Served;
afterEach(() => s.close());

// Answers read freely: their shapes are what the assertions check.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
const json = async (res: Response | Promise<Response>) => (await (await res).json()) as Record<string, any>;

const LIST = { jsonrpc: '2.0', id: 1, method: 'tools/list' };
const post = (body: unknown, headers: Record<string, string> = {}) => fetch(s.url, {
  method: 'POST', body: JSON.stringify(body),
  headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
});

describe('authentication', () => {
  it('no credential: 401 with a Bearer challenge naming the protected-resource metadata, as a JSON-RPC error', async () => {
    s = await serveSeeded();
    const res = await post(LIST);
    expect(res.status).toBe(401);
    expect(res.headers.get('www-authenticate')).toBe(`Bearer realm="catalog", resource_metadata="${s.origin}/.well-known/oauth-protected-resource"`);
    expect(await json(res)).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32000, data: { code: 'MISSING_API_KEY' } } });
    const wrong = await post(LIST, { authorization: 'Bearer ck_wrong' });
    expect(wrong.status).toBe(401);
    expect(wrong.headers.get('www-authenticate')).toMatch(/error="invalid_token".*resource_metadata="/);
  });

  it('the metadata (RFC 9728) is public and names the authorization server of /.well-known/oauth-authorization-server', async () => {
    s = await serveSeeded();
    const meta = await json(fetch(`${s.origin}/.well-known/oauth-protected-resource`));
    expect(meta).toEqual({
      resource: s.origin, authorization_servers: [s.origin], bearer_methods_supported: ['header'],
      scopes_supported: ['catalog:read', 'offers:read'], resource_name: 'Catalog service', resource_documentation: `${s.origin}/docs`,
    });
    expect((await json(fetch(`${s.origin}/.well-known/oauth-protected-resource/mcp`))).resource).toBe(`${s.origin}/mcp`);
    const as = await json(fetch(`${meta.authorization_servers[0]}/.well-known/oauth-authorization-server`));
    expect(as.issuer).toBe(s.origin);
  });

  it('the SDK client without a credential is refused', async () => {
    s = await serveSeeded();
    await expect(s.client({})).rejects.toMatchObject({ code: 401, message: expect.stringMatching(/An API key is required/) });
  });

  it('the SDK client with only OAuth client credentials finds the token endpoint from the 401 and gets in', async () => {
    s = await serveSeeded();
    const reg = await json(fetch(`${s.origin}/v1/oauth/register`, {
      method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${s.key}` }, body: JSON.stringify({ client_name: 'agent' }),
    }));
    const authProvider = new ClientCredentialsProvider({ clientId: reg.client_id, clientSecret: reg.client_secret, expectedIssuer: s.origin });
    const client = await s.client({ authProvider });
    expect(authProvider.tokens()?.access_token).toMatch(/^cat_/);
    const r = await client.callTool({ name: 'best_price', arguments: { query: 'kettle' } });
    expect(r.isError).toBeFalsy();
  });

  it('an access token is used like a key', async () => {
    s = await serveSeeded();
    const reg = await json(fetch(`${s.origin}/v1/oauth/register`, {
      method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${s.key}` }, body: JSON.stringify({ client_name: 'agent' }),
    }));
    const tok = await json(fetch(`${s.origin}/v1/oauth/token`, {
      method: 'POST', headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ grant_type: 'client_credentials', client_id: reg.client_id, client_secret: reg.client_secret }),
    }));
    const client = await s.client({ requestInit: { headers: { authorization: `Bearer ${tok.access_token}` } } });
    expect((await client.listTools()).tools.length).toBe(11);
  });
});

describe('the transport', () => {
  it('stateless: one JSON answer per POST with no session; GET and DELETE are 405; the request id and limit headers are sent', async () => {
    s = await serveSeeded();
    const auth = { authorization: `Bearer ${s.key}` };
    const res = await post(LIST, auth);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    expect(res.headers.get('mcp-session-id')).toBeNull();
    expect(res.headers.get('x-request-id')).toBeTruthy();
    expect(res.headers.get('x-ratelimit-limit')).toBeTruthy();
    expect((await json(res)).result.tools).toHaveLength(11);
    for (const method of ['GET', 'DELETE']) {
      const r = await fetch(s.url, { method, headers: { ...auth, accept: 'text/event-stream' } });
      expect(r.status, method).toBe(405);
      expect(r.headers.get('allow')).toBe('POST');
    }
    const notJson = await fetch(s.url, { method: 'POST', headers: { ...auth, 'content-type': 'application/json' }, body: '{' });
    expect(notJson.status).toBe(400);
    expect((await json(notJson)).error.data.code).toBe('BAD_REQUEST');
    const notif = await post({ jsonrpc: '2.0', method: 'notifications/initialized' }, auth);
    expect(notif.status).toBe(202);
    expect(await notif.text()).toBe('');
  });

  it('refuses what Streamable HTTP refuses, with its statuses and JSON-RPC codes', async () => {
    s = await serveSeeded();
    const auth = { authorization: `Bearer ${s.key}` };
    const refused = async (res: Response, status: number, code: number, message: RegExp) => {
      expect(res.status).toBe(status);
      expect(await json(res)).toEqual({ jsonrpc: '2.0', id: null, error: { code, message: expect.stringMatching(message) } });
    };
    await refused(await post(LIST, { ...auth, accept: 'application/json' }), 406, -32000, /^Not Acceptable: Client must accept both/);
    await refused(await fetch(s.url, {
      method: 'POST', body: JSON.stringify(LIST), headers: { ...auth, 'content-type': 'text/plain', accept: 'application/json, text/event-stream' },
    }), 415, -32000, /^Unsupported Media Type/);
    await refused(await post({ jsonrpc: '2.0', id: 1 }, auth), 400, -32700, /^Parse error: Invalid JSON-RPC message/);
    await refused(await post(LIST, { ...auth, 'mcp-protocol-version': '1999-01-01' }), 400, -32000, /^Bad Request: Unsupported protocol version: 1999-01-01/);
    const init = { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } } };
    await refused(await post([init, LIST], auth), 400, -32600, /^Invalid Request: Only one initialization request/);
    await refused(await post(Array.from({ length: 101 }, (_, i) => ({ ...LIST, id: i })), auth), 400, -32600, /^Invalid Request: Batch must not exceed 100/);
  });

  it('a batch is answered as an array in its order, with the caller\'s ids; notifications in it get no answer', async () => {
    s = await serveSeeded();
    const auth = { authorization: `Bearer ${s.key}` };
    const res = await post([
      { jsonrpc: '2.0', id: 'a', method: 'tools/call', params: { name: 'get_product', arguments: { ref: '2' } } },
      { jsonrpc: '2.0', method: 'notifications/initialized' },
      { jsonrpc: '2.0', id: 7, method: 'no/such/method' },
      LIST,
    ], auth);
    expect(res.status).toBe(200);
    const answers = (await res.json()) as Array<Record<string, never>>;
    expect(answers.map((a) => a.id)).toEqual(['a', 7, 1]);
    expect(answers[0]).toMatchObject({ result: { structuredContent: { product: { id: 2 } } } });
    expect(answers[1]).toMatchObject({ error: { code: -32601 } });
    expect(answers[2]).toMatchObject({ result: { tools: expect.any(Array) } });
    const quiet = await post([{ jsonrpc: '2.0', method: 'notifications/initialized' }, { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 3 } }], auth);
    expect(quiet.status).toBe(202);
  });
});

describe('reused servers', () => {
  it('concurrent calls each get their own answer', async () => {
    s = await serveSeeded();
    const auth = { authorization: `Bearer ${s.key}` };
    const refs = ['1', '2', '3', '4', '5', '6'];
    const answers = await Promise.all(Array.from({ length: 30 }, (_, i) => json(post({
      jsonrpc: '2.0', id: 100 + i, method: 'tools/call', params: { name: 'get_product', arguments: { ref: refs[i % refs.length] } },
    }, auth))));
    answers.forEach((a, i) => {
      expect(a.id).toBe(100 + i);
      expect(a.result.structuredContent.product.id).toBe(Number(refs[i % refs.length]));
    });
  });

  it('requests in flight together under the same id (a batch that repeats one) each get their own answer under it', async () => {
    s = await serveSeeded();
    const auth = { authorization: `Bearer ${s.key}` };
    const refs = ['1', '2', '3'];
    const res = await post(refs.map((ref) => ({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'get_product', arguments: { ref } } })), auth);
    const answers = (await res.json()) as Array<{ id: number; result: { structuredContent: { product: { id: number } } } }>;
    expect(answers.map((a) => a.id)).toEqual([1, 1, 1]);
    expect(answers.map((a) => a.result.structuredContent.product.id)).toEqual([1, 2, 3]);
  });
});

describe('cancellations', () => {
  it('a cancellation names the caller\'s own id, never the exchange\'s: it cannot stop another request, which is answered', async () => {
    s = await serveSeeded();
    const auth = { authorization: `Bearer ${s.key}` };
    // The server's first request gets the exchange's id 1: a cancellation of "1" must not reach it.
    const res = await post([
      { jsonrpc: '2.0', id: 'mine', method: 'tools/call', params: { name: 'get_product', arguments: { ref: '2' } } },
      { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 1, reason: 'not yours' } },
    ], auth);
    expect(res.status).toBe(200);
    const answers = (await res.json()) as Array<{ id: string; result: { structuredContent: { product: { id: number } } } }>;
    expect(answers.map((a) => [a.id, a.result.structuredContent.product.id])).toEqual([['mine', 2]]);
  });
});

describe('rate limits', () => {
  it('each MCP request counts one against the tier: 429 with Retry-After after per_minute', async () => {
    s = await serveSeeded({ TIERS_FILE: tiersFile({ free: { per_minute: 5, per_day: 1000 } }) });
    const { headers } = await s.h.key('free');
    for (let i = 0; i < 5; i++) expect((await post(LIST, headers)).status).toBe(200);
    const res = await post(LIST, headers);
    expect(res.status).toBe(429);
    expect(res.headers.get('retry-after')).toBeTruthy();
    expect(await json(res)).toMatchObject({ jsonrpc: '2.0', error: { data: { code: 'RATE_LIMIT_EXCEEDED', rate_limit: { limit: 5, remaining: 0 } } } });
  });

  it('the SDK client meets the 429 as an error of the call', async () => {
    s = await serveSeeded({ TIERS_FILE: tiersFile({ free: { per_minute: 5, per_day: 1000 } }) });
    const { headers } = await s.h.key('free');
    // initialize, notifications/initialized and the GET for a stream (405): three requests.
    const client = await s.client({ requestInit: { headers } });
    expect((await client.callTool({ name: 'categories', arguments: {} })).isError).toBeFalsy();
    expect((await client.callTool({ name: 'categories', arguments: {} })).isError).toBeFalsy();
    await expect(client.callTool({ name: 'categories', arguments: {} })).rejects.toMatchObject({ code: 429, message: expect.stringMatching(/Rate limit of 5 requests per minute/) });
  });
});
