import { afterAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.js';
import { loadConfig } from '../../src/config.js';
import { createContainer } from '../../src/container.js';
import { createPostgresStore } from '../../src/store/postgres/index.js';
import { FakeClock } from '../helpers/clock.js';
import { rec } from '../helpers/records.js';
import { syncContract } from '../store/sync-contract.js';
import { tableResolver } from '../webhooks/fixtures.js';
import { schemaFactory, TEST_DATABASE_URL, urlWithSchema } from './env.js';

const schemas = schemaFactory('sync');
afterAll(() => schemas.dropAll());

syncContract('postgres', (now) => schemas.store({ now }));

describe('PostgreSQL: idempotency keys across instances', () => {
  it('of many instances claiming one key at once, exactly one wins', async () => {
    const first = await schemas.store();
    await first.migrate();
    const others = await Promise.all([1, 2, 3, 4].map(() => createPostgresStore(TEST_DATABASE_URL, { schema: first.schema })));
    try {
      const claim = { scope: 'key:1', key: 'race', fingerprint: 'f', createdAt: '2026-11-20T10:00:00.000Z', expiresAt: '2026-11-21T10:00:00.000Z' };
      const results = await Promise.all([first, ...others].map((s) => s.idempotency.claim(claim, claim.createdAt)));
      expect(results.filter((r) => r === null)).toHaveLength(1);
    } finally {
      for (const s of [first, ...others]) await s.close();
    }
  });

  it('a request made on one instance is replayed by another; another body is 422; each kind of POST', async () => {
    const clock = new FakeClock();
    const config = loadConfig({ DATABASE_URL: urlWithSchema(schemas.schema()), CATALOG_DEMO: 'off', SEARCH_INDEX: 'off' });
    const opts = { clock, webhookResolver: tableResolver({ 'hooks.example.com': ['93.184.215.14'] }) };
    const one = await createContainer(config, opts);
    const two = await createContainer(config, opts);
    const [a, b] = [await buildApp(one), await buildApp(two)];
    try {
      const { apiKey } = await one.keys.create({ tier: 'pro', verified: true });
      const auth = { authorization: `Bearer ${apiKey}` };
      const cases = [
        { url: '/v1/webhooks', payload: { url: 'https://hooks.example.com/x', events: ['price_change'] }, other: { url: 'https://hooks.example.com/y', events: ['price_change'] }, headers: auth },
        { url: '/v1/ingest/products', payload: JSON.stringify(rec({ sku: 'PG-IDEM' })), other: JSON.stringify(rec({ sku: 'PG-OTHER' })), headers: { ...auth, 'content-type': 'application/x-ndjson' } },
        { url: '/v1/products/ingest', payload: { source: 'shopee_sg', products: [rec({ sku: 'PG-B' })] }, other: { source: 'shopee_sg', products: [rec({ sku: 'PG-C' })] }, headers: auth },
        { url: '/v1/oauth/register', payload: { client_name: 'pg', token_endpoint_auth_method: 'none' }, other: { client_name: 'pg2', token_endpoint_auth_method: 'none' }, headers: {} },
      ];
      for (const [i, k] of cases.entries()) {
        const headers = { ...k.headers, 'idempotency-key': `pg-${i}` };
        const first = await a.inject({ method: 'POST', url: k.url, payload: k.payload, headers });
        expect(first.statusCode, `${k.url}: ${first.body}`).toBeLessThan(300);
        const again = await b.inject({ method: 'POST', url: k.url, payload: k.payload, headers });
        expect(again.headers['idempotent-replayed'], k.url).toBe('true');
        expect(again.body).toBe(first.body);
        const other = await b.inject({ method: 'POST', url: k.url, payload: k.other, headers });
        expect(other.statusCode, k.url).toBe(422);
      }
      expect(await one.catalog.findBySku('PG-OTHER')).toHaveLength(0);
      clock.advance(24 * 3600_000);
      const later = await b.inject({ method: 'POST', url: '/v1/webhooks', payload: cases[0].other, headers: { ...auth, 'idempotency-key': 'pg-0' } });
      expect(later.statusCode).toBe(201);
      expect(later.headers['idempotent-replayed']).toBeUndefined();
    } finally {
      for (const app of [a, b]) await app.close();
      await one.close();
      await two.close();
    }
  });

  it('modified_since on PostgreSQL: surface A pages across ties; a late feed is after the last poll; an invalid time is 422', async () => {
    const config = loadConfig({ DATABASE_URL: urlWithSchema(schemas.schema()), CATALOG_DEMO: 'off', SEARCH_INDEX: 'off' });
    const clock = new FakeClock();
    const c = await createContainer(config, { clock });
    const app = await buildApp(c);
    try {
      const { Readable } = await import('node:stream');
      // Written when the clock says (the change time modified_since reads), whenever observed.
      const ingestAt = (time: string, records: object[]) => {
        clock.set(time);
        return c.ingest.ingestStream(Readable.from([records.map((r) => JSON.stringify(r)).join('\n')]));
      };
      const t = '2026-11-20T09:00:00.000Z';
      await ingestAt('2026-11-20T08:00:00.000Z', [rec({ sku: 'PO', observed_at: '2026-11-20T08:00:00.000Z' })]);
      await ingestAt(t, Array.from({ length: 5 }, (_, i) => rec({ sku: `PT${i}`, observed_at: t })));
      const { apiKey } = await c.keys.create({ tier: 'pro', verified: true });
      const headers = { authorization: `Bearer ${apiKey}` };
      type Row = { id: number; sku: string; updated_at: string };
      const poll = async (since: string) => {
        const rows: Row[] = [];
        let cursor: string | null = null;
        do {
          const res: { statusCode: number; json(): { data: Row[]; meta: { next_cursor: string | null } } } = await app.inject({ url: `/v1/products?limit=2&modified_since=${since}${cursor ? `&cursor=${cursor}` : ''}`, headers });
          expect(res.statusCode).toBe(200);
          rows.push(...res.json().data);
          cursor = res.json().meta.next_cursor;
        } while (cursor);
        return rows;
      };
      const ids = (await poll(t)).map((r) => r.id);
      expect(ids).toHaveLength(5);
      expect(ids).toEqual([...ids].sort((x, y) => x - y));
      const v2 = await app.inject({ url: `/v2/products?after=0&modified_since=${t}&limit=50`, headers });
      expect(v2.json().items.map((r: { id: number }) => r.id)).toEqual(ids);
      expect((await app.inject({ url: '/v2/products?modified_since=soon', headers })).statusCode).toBe(422);

      // A poll at 10:00; at 11:00 a lagging feed delivers a new listing and a change, both observed at 09:30.
      const lastPoll = '2026-11-20T10:00:00.000Z';
      const late = '2026-11-20T09:30:00.000Z';
      await ingestAt('2026-11-20T11:00:00.000Z', [rec({ sku: 'PLATE', observed_at: late }), rec({ sku: 'PT0', price: '459.00', observed_at: late })]);
      const after = await poll(lastPoll);
      expect(after.map((r) => [r.sku, r.updated_at]).sort()).toEqual([['PLATE', late], ['PT0', late]]);
      const exported = await app.inject({ url: `/v1/products/export?format=json&modified_since=${lastPoll}`, headers });
      expect(exported.json().map((r: Row) => r.sku).sort()).toEqual(['PLATE', 'PT0']);
      // The same feed again at 12:00, observed later and unchanged: not in a poll after 11:00.
      await ingestAt('2026-11-20T12:00:00.000Z', [rec({ sku: 'PLATE', observed_at: '2026-11-20T11:30:00.000Z' }),
        rec({ sku: 'PT0', price: '459.00', observed_at: '2026-11-20T11:30:00.000Z' })]);
      expect(await poll('2026-11-20T11:00:00.001Z')).toEqual([]);
      expect((await poll(lastPoll)).map((r) => r.id)).toEqual(after.map((r) => r.id));
    } finally {
      await app.close();
      await c.close();
    }
  });
});
