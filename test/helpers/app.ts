import { buildApp, type App } from '../../src/app.js';
import { loadConfig } from '../../src/config.js';
import { createContainer, type Container, type ContainerOptions } from '../../src/container.js';
import type { Tier } from '../../src/domain/tier.js';
import { FakeClock } from './clock.js';
import { checkResponseContracts } from './contract.js';

export interface Harness {
  app: App;
  c: Container;
  clock: FakeClock;
  /** A fresh key of the tier, and its Authorization header. */
  key(tier?: Tier): Promise<{ key: string; headers: { authorization: string } }>;
  /** Imports NDJSON lines (objects are stringified) through the real ingest path. */
  ingest(lines: Array<object | string>): ReturnType<Container['ingest']['ingestStream']>;
  close(): Promise<void>;
}

export async function makeHarness(env: Record<string, string> = {}, clock = new FakeClock(), opts: Omit<ContainerOptions, 'clock'> = {}): Promise<Harness> {
  const config = loadConfig({ DATABASE_URL: 'sqlite::memory:', CATALOG_DEMO: 'off', ...env });
  const c = await createContainer(config, { ...opts, clock });
  const app = await buildApp(c);
  checkResponseContracts(app);
  await app.ready();
  await c.searchIndex?.build();
  const { Readable } = await import('node:stream');
  return {
    app, c, clock,
    async key(tier: Tier = 'pro') {
      const { apiKey } = await c.keys.create({ tier, name: 'test', verified: tier !== 'unverified' });
      return { key: apiKey, headers: { authorization: `Bearer ${apiKey}` } };
    },
    ingest(lines) {
      const text = lines.map((l) => (typeof l === 'string' ? l : JSON.stringify(l))).join('\n');
      return c.ingest.ingestStream(Readable.from([text]), { now: () => clock.now() });
    },
    async close() {
      await app.close();
      await c.close();
    },
  };
}
