import { buildApp } from '../app.js';
import { assertServable, type Config } from '../config.js';
import { createContainer } from '../container.js';
import { loggerOptions } from '../http/logging.js';
import { loadDemo } from './demo.js';

/**
 * What a person starting the server reads: where it answers, and a key or how to get one. The demo
 * key is shown once, on the start that created it; every later start says how to make another.
 */
export function startBanner(origin: string, demoKey: string | null): string {
  const search = `${origin}/v1/products/search?q=samsung+galaxy&include_facets=true&sort_by=relevance`;
  const lines = [`\nServing ${origin} (API reference: ${origin}/docs, OpenAPI: ${origin}/openapi.json)`];
  if (demoKey) {
    lines.push(`\nDemo API key (pro tier, shown once):\n${demoKey}\n`, `Try: curl -H "Authorization: Bearer ${demoKey}" "${search}"`);
  } else {
    lines.push(
      'API keys are shown once, when created. To get one:',
      '  npx catalog keys create --tier pro          (prints the key on its last line)',
      `  curl -X POST "${origin}/v1/auth/register?verify=false" -H "Content-Type: application/json" -d '{"agent_name": "me"}'`,
      `Then: curl -H "Authorization: Bearer <API_KEY>" "${search}"`,
    );
  }
  return lines.join('\n') + '\n';
}

/** Runs the service: container, demo catalog on an empty store, listen, graceful shutdown. */
export async function serve(config: Config): Promise<void> {
  assertServable(config);
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
  c.listening(port);
  console.log(startBanner(c.origin(), demoKey));
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
