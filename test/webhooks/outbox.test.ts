import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { createContainer, type Container } from '../../src/container.js';
import { createSqliteStore } from '../../src/store/sqlite/index.js';
import { FakeClock } from '../helpers/clock.js';
import { rec } from '../helpers/records.js';
import { Receiver } from './receiver.js';
import { importLines, restartLosesNothing, subscribe, twoInstancesDeliverOnce } from './scenarios.js';
import { until } from '../helpers/until.js';

/** The outbox on an SQLite file shared by several containers: as several processes on one store. */
let dir: string;
let rx: Receiver;
const clock = new FakeClock();
const env = () => ({ DATABASE_URL: `sqlite:${join(dir, 'catalog.db')}`, CATALOG_DEMO: 'off', SEARCH_INDEX: 'off', WEBHOOK_ALLOW_HOSTS: '127.0.0.1' });
const open = () => createContainer(loadConfig(env()), { clock });

beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'webhooks-'));
  rx = await new Receiver().start();
});
afterEach(async () => {
  await rx.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('the outbox on one SQLite file', () => {
  it('two dispatchers and workers on one store deliver each event once', async () => {
    await twoInstancesDeliverOnce(open, rx, 60);
  });

  it('a restart mid-queue loses nothing and sends nothing twice after a recorded success', async () => {
    await restartLosesNothing(open, rx, 30, () => clock.advance(60_000));
  });

  it('while another process holds the write lock, claims and dispatch give up at once for this tick instead of stalling the server', async () => {
    const server = await open();
    const importer = createSqliteStore(join(dir, 'catalog.db'));
    try {
      await importLines(server, [rec({ sku: 'LOCK' })]);
      await subscribe(server, rx);
      await importLines(server, [rec({ sku: 'LOCK', price: '450.00', observed_at: '2026-11-20T11:00:00.000Z' })]);
      expect(await server.webhookDelivery.dispatcher.dispatch()).toBe(1);
      await importLines(server, [rec({ sku: 'LOCK', price: '400.00', observed_at: '2026-11-20T11:01:00.000Z' })]);
      importer.db.exec('BEGIN IMMEDIATE');
      const t0 = performance.now();
      expect(await server.webhookDelivery.dispatcher.dispatch()).toBe(0);
      expect(await server.store.webhooks.claim('w', '2030-01-01T00:00:00.000Z', clock.now().toISOString(), 10, [])).toEqual([]);
      expect(performance.now() - t0).toBeLessThan(1000);
      importer.db.exec('COMMIT');
      await server.webhookDelivery.drain();
      expect(rx.payloads().map((p) => p.data.new_price).sort()).toEqual([400, 450]);
    } finally {
      await importer.close();
      await server.close();
    }
  });

  it('events of a `catalog import` beside a running server are delivered by the server', async () => {
    let server: Container | null = null;
    let cli: Container | null = null;
    try {
      server = await createContainer(loadConfig(env()));
      await server.tail.start();
      server.webhookDelivery.start();
      cli = await createContainer(loadConfig(env()));
      await importLines(cli, [rec({ sku: 'BESIDE' })]);
      await subscribe(server, rx);
      await importLines(cli, [rec({ sku: 'BESIDE', price: '400.00', observed_at: '2026-11-20T11:00:00.000Z' })]);
      await cli.close();
      cli = null;
      // The server's tail polls the log; no wake-up reaches it from the other connection.
      await until(() => rx.received.length > 0, 5000, 50);
      expect(rx.payloads().map((p) => [p.event, p.data.new_price])).toEqual([['price_change', 400]]);
    } finally {
      await cli?.close();
      await server?.close();
    }
  });
});
