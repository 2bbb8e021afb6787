import { Readable } from 'node:stream';
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { createContainer } from '../../src/container.js';
import { FakeClock } from '../helpers/clock.js';
import { rec } from '../helpers/records.js';
import { alertStoreContract } from '../store/alert-contract.js';
import { schemaFactory, urlWithSchema } from './env.js';

/** Alerts on PostgreSQL: the store contract, then a firing end to end through the ingest path and the evaluator. */
const schemas = schemaFactory('alerts');
afterAll(() => schemas.dropAll());

alertStoreContract('postgres', () => schemas.store());

describe('alerts on one PostgreSQL schema', () => {
  it('an imported price drop fires the alert once, even with two evaluators; the alert_fired event follows its change in the log', async () => {
    const url = urlWithSchema(schemas.schema());
    const clock = new FakeClock();
    const open = () => createContainer(loadConfig({ DATABASE_URL: url, CATALOG_DEMO: 'off', SEARCH_INDEX: 'off' }), { clock });
    const [a, b] = [await open(), await open()];
    try {
      const importLines = (lines: object[]) => a.ingest.ingestStream(Readable.from([lines.map((l) => JSON.stringify(l)).join('\n')]), { now: () => clock.now() });
      await importLines([rec({ sku: 'PG-1', price: '100.00' })]);
      const key = await a.keys.create({ tier: 'pro', name: 't', verified: true });
      const made = await a.alerts.create(key.record.id, 'pro', { product: 'PG-1', condition: { type: 'drop_percent', percent: '20' } });
      expect(made.ok).toBe(true);
      const alertId = made.ok ? made.value.alert.id : '';
      await importLines([rec({ sku: 'PG-1', price: '85.00', observed_at: '2026-11-20T11:00:00.000Z' })]);
      await importLines([rec({ sku: 'PG-1', price: '79.99', observed_at: '2026-11-20T11:30:00.000Z' })]);
      const fired = await Promise.all([a.alertEvaluator.run(), b.alertEvaluator.run()]);
      expect(fired[0] + fired[1]).toBe(1);
      const firings = await a.alerts.firings(key.record.id, alertId, { limit: 10, offset: 0 });
      expect(firings?.items.map((f) => f.price)).toEqual(['79.99']);
      const events = await a.store.events.readAfter(0, 100);
      const alertEvents = events.filter((e) => e.change.kind === 'alert_fired');
      expect(alertEvents).toHaveLength(1);
      const trigger = events.find((e) => e.id === (alertEvents[0].change as { triggerEventId: number }).triggerEventId)!;
      expect(trigger.change).toMatchObject({ kind: 'price_change', newPrice: '79.99' });
      expect(alertEvents[0].id).toBeGreaterThan(trigger.id);
      expect((await a.alerts.get(key.record.id, alertId))?.status).toBe('fired');
    } finally {
      await a.close();
      await b.close();
    }
  });
});
