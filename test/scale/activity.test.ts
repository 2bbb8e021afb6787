import { Readable } from 'node:stream';
import { afterAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.js';
import { loadConfig } from '../../src/config.js';
import { createContainer } from '../../src/container.js';
import { createPostgresStore } from '../../src/store/postgres/index.js';
import { rec } from '../helpers/records.js';
import { activityContract } from '../store/activity-contract.js';
import { schemaFactory, TEST_DATABASE_URL, urlWithSchema } from './env.js';

const schemas = schemaFactory('activity');
afterAll(() => schemas.dropAll());

activityContract('postgres', () => schemas.store());

describe('PostgreSQL activity: instances together', () => {
  it('instances asking for the click secret at once all get the one stored', async () => {
    const first = await schemas.store();
    await first.migrate();
    const schema = first.schema;
    const others = await Promise.all([1, 2, 3].map(() => createPostgresStore(TEST_DATABASE_URL, { schema })));
    try {
      const secrets = await Promise.all([first, ...others].map((s, i) => s.activity.clickSecret(`candidate-${i}-${'x'.repeat(40)}`)));
      expect(new Set(secrets).size).toBe(1);
    } finally {
      for (const s of [first, ...others]) await s.close();
    }
  });

  it('writes from several instances interleave; reads see them all', async () => {
    const a = await schemas.store();
    await a.migrate();
    const b = await createPostgresStore(TEST_DATABASE_URL, { schema: a.schema });
    try {
      const at = (i: number) => new Date(Date.UTC(2026, 10, 20, 10, 0, i)).toISOString();
      await Promise.all([a, b].map((s, n) => s.activity.recordSearches(
        Array.from({ length: 200 }, (_, i) => ({ keyId: n + 1, jobId: i % 4 ? null : `job-${n}`, query: `q${i % 10}`, total: i, at: at(i % 60) })),
      )));
      expect(await a.activity.searches(at(0), { limit: 1000 })).toHaveLength(400);
      expect(await b.activity.searches(at(0), { jobId: 'job-1', limit: 1000 })).toHaveLength(50);
    } finally {
      await a.close();
      await b.close();
    }
  });
});

describe('PostgreSQL: a link made by one instance is followed on another', () => {
  it('the stored secret is shared; the search and the click are recorded for every instance to read', async () => {
    const config = loadConfig({ DATABASE_URL: urlWithSchema(schemas.schema()), CATALOG_DEMO: 'off', SEARCH_INDEX: 'off' });
    const one = await createContainer(config);
    const two = await createContainer(config);
    const apps = [await buildApp(one), await buildApp(two)];
    try {
      await one.ingest.ingestStream(Readable.from([JSON.stringify(rec({ sku: 'PG-1', title: 'Zorblax Kettle', affiliate_url: 'https://aff.example.net/pg-1' }))]));
      const { apiKey, record } = await one.keys.create({ tier: 'pro', verified: true });
      const r = await apps[0].inject({ url: '/v1/products/search?q=zorblax&shopping_job_id=pg-job', headers: { authorization: `Bearer ${apiKey}` } });
      expect(r.statusCode).toBe(200);
      const link = r.json().results[0].click_url as string;
      const followed = await apps[1].inject({ url: link.slice(link.indexOf('/v1/click/')) });
      expect(followed.statusCode).toBe(302);
      expect(followed.headers.location).toBe('https://aff.example.net/pg-1');
      await one.activity.flush();
      await two.activity.flush();
      const [listing] = await one.catalog.findBySku('PG-1');
      expect(await one.activity.clicksFor(listing.id, '2000-01-01', 10)).toEqual([
        { listingId: listing.id, keyId: record.id, jobId: 'pg-job', at: expect.any(String) },
      ]);
      expect(await two.activity.searches('2000-01-01', { jobId: 'pg-job', limit: 10 })).toEqual([
        { keyId: record.id, jobId: 'pg-job', query: 'zorblax', total: 1, at: expect.any(String) },
      ]);
    } finally {
      for (const app of apps) await app.close();
      await one.close();
      await two.close();
    }
  });
});
