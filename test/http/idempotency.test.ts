import { PassThrough } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeHarness, type Harness } from '../helpers/app.js';
import { FakeClock } from '../helpers/clock.js';
import { rec } from '../helpers/records.js';
import { tableResolver } from '../webhooks/fixtures.js';

/** Idempotency-Key on the POSTs that create or change something (docs/sync.md). */
let h: Harness;
const HOOK = 'https://hooks.example.com/catalog';
type Json = Record<string, unknown>;

beforeAll(async () => {
  h = await makeHarness({}, new FakeClock(), { webhookResolver: tableResolver({ 'hooks.example.com': ['93.184.215.14'] }) });
});
afterAll(() => h.close());

const subscribe = (headers: Json, key?: string, payload: Json = { url: HOOK, events: ['price_change'] }) => h.app.inject({
  method: 'POST', url: '/v1/webhooks', payload, headers: { ...headers, ...(key !== undefined ? { 'idempotency-key': key } : {}) } as never,
});
const ndjson = (rows: Json[]) => rows.map((r) => JSON.stringify(r)).join('\n');

describe('Idempotency-Key: webhook subscriptions', () => {
  it('replays the first answer, secret included, without creating a second subscription', async () => {
    const { headers } = await h.key('pro');
    const first = await subscribe(headers, 'sub-1');
    expect(first.statusCode).toBe(201);
    expect(first.headers['idempotent-replayed']).toBeUndefined();
    const again = await subscribe(headers, 'sub-1');
    expect(again.statusCode).toBe(201);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.headers['cache-control']).toBe('no-store');
    expect(again.headers['content-type']).toBe(first.headers['content-type']);
    expect(again.json()).toEqual(first.json());
    const list = await h.app.inject({ method: 'GET', url: '/v1/webhooks', headers: headers as never });
    expect(list.json().data).toHaveLength(1);
  });

  it('refuses the same key with another body (422 naming the header)', async () => {
    const { headers } = await h.key('pro');
    expect((await subscribe(headers, 'sub-2')).statusCode).toBe(201);
    const other = await subscribe(headers, 'sub-2', { url: HOOK, events: ['stock_change'] });
    expect(other.statusCode).toBe(422);
    expect(JSON.stringify(other.json())).toContain('idempotency-key');
  });

  it('scopes keys per credential: another key with the same Idempotency-Key creates its own', async () => {
    const a = await h.key('pro');
    const b = await h.key('pro');
    const first = await subscribe(a.headers, 'shared');
    const second = await subscribe(b.headers, 'shared');
    expect(second.statusCode).toBe(201);
    expect(second.headers['idempotent-replayed']).toBeUndefined();
    expect(second.json().id).not.toBe(first.json().id);
  });

  it('keeps a key 24 hours: after that the same key runs again', async () => {
    const { headers } = await h.key('pro');
    const first = await subscribe(headers, 'day');
    h.clock.advance(24 * 3600_000 - 1);
    expect((await subscribe(headers, 'day')).json().id).toBe(first.json().id);
    h.clock.advance(1);
    const later = await subscribe(headers, 'day');
    expect(later.headers['idempotent-replayed']).toBeUndefined();
    expect(later.json().id).not.toBe(first.json().id);
    h.clock.advance(24 * 3600_000);
    expect(await h.c.store.idempotency.purge(h.clock.now().toISOString())).toBeGreaterThan(0);
    expect(await h.c.store.idempotency.purge(h.clock.now().toISOString())).toBe(0);
  });

  it('refuses an empty key or one over 255 characters (422 naming the header)', async () => {
    const { headers } = await h.key('pro');
    for (const key of ['', 'k'.repeat(256)]) {
      const res = await subscribe(headers, key);
      expect(res.statusCode).toBe(422);
      expect(JSON.stringify(res.json())).toContain('idempotency-key');
    }
    expect((await subscribe(headers, 'k'.repeat(255))).statusCode).toBe(201);
  });

  it('replays rotate-secret rather than rotating twice', async () => {
    const { headers } = await h.key('pro');
    const id = (await subscribe(headers)).json().id as string;
    const rotate = () => h.app.inject({ method: 'POST', url: `/v1/webhooks/${id}/rotate-secret`, headers: { ...headers, 'idempotency-key': 'rot' } as never });
    const first = await rotate();
    expect(first.statusCode).toBe(200);
    const again = await rotate();
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.json()).toEqual(first.json());
  });
});

describe('Idempotency-Key: ingest (streamed body)', () => {
  const send = (headers: Json, key: string, payload: string | PassThrough) => h.app.inject({
    method: 'POST', url: '/v1/ingest/products', payload, headers: { ...headers, 'content-type': 'application/x-ndjson', 'idempotency-key': key } as never,
  });

  it('replays the summary of the same body, refuses another body', async () => {
    const { headers } = await h.key('pro');
    const body = ndjson([rec({ sku: 'IDEM-1' }), rec({ sku: 'IDEM-2' })]);
    const first = await send(headers, 'imp-1', body);
    expect(first.json()).toMatchObject({ inserted: 2 });
    const again = await send(headers, 'imp-1', body);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.json()).toEqual(first.json());
    const other = await send(headers, 'imp-1', ndjson([rec({ sku: 'IDEM-3' })]));
    expect(other.statusCode).toBe(422);
    expect((await h.c.store.catalog.getBySku('IDEM-3'))).toHaveLength(0);
  });

  it('answers 409 while the first request with the key is still running', async () => {
    const { headers } = await h.key('pro');
    const stream = new PassThrough();
    const first = send(headers, 'slow', stream);
    stream.write(`${JSON.stringify(rec({ sku: 'SLOW-1' }))}\n`);
    await new Promise((r) => setTimeout(r, 20));
    const during = await send(headers, 'slow', JSON.stringify(rec({ sku: 'SLOW-1' })));
    expect(during.statusCode).toBe(409);
    stream.end();
    expect((await first).statusCode).toBe(200);
    const after = await send(headers, 'slow', `${JSON.stringify(rec({ sku: 'SLOW-1' }))}\n`);
    expect(after.headers['idempotent-replayed']).toBe('true');
  });

  it('replays the JSON ingest of surface B', async () => {
    const { headers } = await h.key('pro');
    const payload = { source: 'shopee_sg', products: [rec({ sku: 'B-IDEM' })] };
    const post = () => h.app.inject({ method: 'POST', url: '/v1/products/ingest', payload, headers: { ...headers, 'idempotency-key': 'b-1' } as never });
    const first = await post();
    expect(first.statusCode).toBeLessThan(300);
    const again = await post();
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.body).toBe(first.body);
  });
});

describe('Idempotency-Key: registration without a credential', () => {
  const register = (ip: string, key: string, name = 'agent') => h.app.inject({
    method: 'POST', url: '/v1/oauth/register', remoteAddress: ip, payload: { client_name: name, token_endpoint_auth_method: 'none' }, headers: { 'idempotency-key': key },
  });

  it('replays a client registration for the same caller, not for another address', async () => {
    const first = await register('198.51.100.7', 'reg');
    expect(first.statusCode).toBe(201);
    const again = await register('198.51.100.7', 'reg');
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.json().client_id).toBe(first.json().client_id);
    const elsewhere = await register('198.51.100.8', 'reg');
    expect(elsewhere.json().client_id).not.toBe(first.json().client_id);
    expect((await register('198.51.100.7', 'reg', 'another')).statusCode).toBe(422);
  });

  it('keeps the answer sealed: the stored row holds neither the key nor the secret it carried', async () => {
    const res = await h.app.inject({ method: 'POST', url: '/v1/auth/register', remoteAddress: '198.51.100.9', payload: { agent_name: 'sealed' }, headers: { 'idempotency-key': 'plain-key' } });
    expect(res.statusCode).toBe(201);
    const db = (h.c.store as unknown as { db: { prepare(s: string): { all(): Array<{ key: string; body: Buffer }> } } }).db;
    const rows = db.prepare('SELECT key, body FROM idempotency_keys').all();
    expect(rows.some((r) => r.key === 'plain-key')).toBe(false);
    expect(rows.some((r) => r.body?.includes(Buffer.from(res.json().api_key as string)))).toBe(false);
  });
});
