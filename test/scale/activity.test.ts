import { afterAll, describe, expect, it } from 'vitest';
import { createPostgresStore } from '../../src/store/postgres/index.js';
import { activityContract } from '../store/activity-contract.js';
import { schemaFactory, TEST_DATABASE_URL } from './env.js';

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
