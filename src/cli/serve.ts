import { buildApp } from '../app.js';
import type { Config } from '../config.js';
import { createContainer } from '../container.js';
import { loggerOptions } from '../http/logging.js';
import { loadDemo } from './demo.js';

/** Runs the service: container, demo catalog on an empty store, listen, graceful shutdown. */
export async function serve(config: Config): Promise<void> {
  const c = await createContainer(config);
  let demoKey: string | null = null;
  if (config.demo && (await c.store.catalog.count()) === 0) {
    console.log('Empty store: generating the demo catalog (CATALOG_DEMO=off to skip)...');
    const summary = await loadDemo(c, { progress: process.stdout.isTTY });
    console.log(`Demo catalog ready: ${summary.inserted} listings, ${summary.updated} price updates.`);
    demoKey = (await c.keys.create({ tier: 'pro', name: 'demo' })).apiKey;
  }
  const app = await buildApp(c, { logger: loggerOptions(config.logLevel) });
  await c.tail.start();
  await app.listen({ port: config.port, host: config.host });
  if (c.searchIndex) {
    // Built while the service already answers: until it is whole, the store serves search.
    const started = Date.now();
    void c.searchIndex.build().then(
      () => app.log.info({ listings: c.searchIndex!.size, ms: Date.now() - started, state: c.searchIndex!.state }, 'search index ready'),
      (err: Error) => app.log.error({ err: err.message }, 'search index build failed; the store serves search'),
    );
  }
  const addr = app.server.address();
  const port = typeof addr === 'object' && addr ? addr.port : config.port;
  if (demoKey) {
    console.log(`\nDemo API key (pro tier, shown once):\n${demoKey}\n`);
    console.log(`Try: curl -H "Authorization: Bearer ${demoKey}" "http://localhost:${port}/v1/products/search?q=samsung+galaxy&include_facets=true&sort_by=relevance"\n`);
  }
  // Expired OAuth tokens are refused when presented; this only keeps the table from growing.
  const purge = setInterval(() => void c.oauth.purgeExpired().catch(() => undefined), 3600_000);
  purge.unref();
  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    clearInterval(purge);
    app.log.info({ signal }, 'shutting down');
    const force = setTimeout(() => process.exit(1), 10_000);
    force.unref();
    await app.close();
    await c.close();
    process.exit(0);
  };
  process.on('SIGINT', () => void shutdown('SIGINT'));
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
}
