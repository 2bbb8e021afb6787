import v8 from 'node:v8';
import { purgeIdempotencyKeys } from '../http/idempotency.js';
import { buildApp, type App } from '../app.js';
import { assertServable, type Config } from '../config.js';
import { createContainer, type Container } from '../container.js';
import { loggerOptions } from '../http/logging.js';
import { loadDemo } from './demo.js';
import { keepTickShape } from '../runtime/tick-shape.js';

/** How far the old generation may grow past what the last full GC kept before the next one. */
const HEAP_GROWING_PERCENT = 25;

/**
 * What a person starting the server reads: where it answers, and a key or how to get one. The demo
 * key is shown once, on the start that created it; every later start says how to make another.
 */
export function startBanner(origin: string, demoKey: string | null): string {
  const search = `${origin}/v1/products/search?q=samsung+galaxy&include_facets=true&sort_by=relevance`;
  const lines = [`\nServing ${origin} (catalog page: ${origin}/, API reference: ${origin}/docs, OpenAPI: ${origin}/openapi.json)`];
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

/**
 * Runs the service: it listens first, then makes the store usable (finishing a killed import,
 * loading the demo catalog into an empty store) while /health answers 503 with what it is doing.
 * SIGTERM or SIGINT drains in-flight requests for at most SHUTDOWN_TIMEOUT_MS, then exits.
 */
export async function serve(config: Config): Promise<void> {
  keepTickShape();
  assertServable(config);
  // V8 lets the old generation grow to several times what the last full GC kept before collecting
  // again: serving a large catalog, that was most of the RSS (bench/RESULTS.md, "Memory").
  v8.setFlagsFromString(`--heap-growing-percent=${HEAP_GROWING_PERCENT}`);
  const c = await createContainer(config, { deferRecovery: true });
  const app = await buildApp(c, { logger: loggerOptions(config.logLevel) });
  c.activity.onWriteError((err, dropped) =>
    app.log.warn({ err: { message: err.message }, dropped }, dropped ? 'searches and clicks dropped: the store refuses writes' : 'recording searches and clicks failed; kept for a retry'));
  const recovering = c.store.recovery?.needed() ?? false;
  if (recovering) c.readiness.starting('finishing an interrupted bulk load (indexes, then matching)');
  const demo = config.demo && !recovering && (await c.store.catalog.count()) === 0;
  if (demo) c.readiness.starting('loading the demo catalog');
  installShutdown(app, c, config.shutdownTimeoutMs);
  await app.listen({ port: config.port, host: config.host });
  const addr = app.server.address();
  c.listening(typeof addr === 'object' && addr ? addr.port : config.port);

  if (recovering) {
    app.log.warn('the last bulk load was interrupted: finishing it before serving (progress follows)');
    const started = Date.now();
    await c.store.recovery!.run((p) => app.log.info(p, p.phase === 'indexes' ? 'recovery: building indexes' : `recovery: matched ${p.done} of ${p.total} listings`));
    app.log.info({ ms: Date.now() - started }, 'recovery done');
  }
  let demoKey: string | null = null;
  if (demo) {
    console.log('Empty store: generating the demo catalog (CATALOG_DEMO=off to skip)...');
    const summary = await loadDemo(c, { progress: process.stdout.isTTY });
    console.log(`Demo catalog ready: ${summary.inserted} listings, ${summary.updated} price updates.`);
    demoKey = (await c.keys.create({ tier: 'pro', name: 'demo' })).apiKey;
    // The catalog page on this machine may fetch it (GET /demo/key); never on a shared store.
    if (c.store.kind === 'sqlite') c.demoKey.value = demoKey;
  }
  await c.tail.start();
  if (c.webhookGuard.hasExemptions) {
    app.log.warn({ hosts: config.webhooks.allowHosts },
      'WEBHOOK_ALLOW_HOSTS is set: these hosts skip the webhook HTTPS rule and address guard. For local development and tests only; unset it in production.');
  }
  c.webhookDelivery.useLog(app.log);
  c.webhookDelivery.start();
  c.alertEvaluator.start();
  c.readiness.isReady();
  if (c.searchIndex) {
    // Built while the service already answers: until it is whole, the store serves search.
    const started = Date.now();
    void c.searchIndex.build().then(
      () => app.log.info({ listings: c.searchIndex!.size, ms: Date.now() - started, state: c.searchIndex!.state }, 'search index ready'),
      (err: Error) => app.log.error({ err: err.message }, 'search index build failed; the store serves search'),
    );
  }
  console.log(startBanner(c.origin(), demoKey));
}

/** On SIGTERM or SIGINT: stop accepting, let in-flight requests finish within the bound, close the store, exit. */
function installShutdown(app: App, c: Container, timeoutMs: number): void {
  // Expired OAuth tokens are refused when presented; this only keeps the table from growing.
  // Expired idempotency keys (24 h) are taken over when used again; the purge keeps the table small.
  const purge = setInterval(() => {
    void c.oauth.purgeExpired().catch(() => undefined);
    void purgeIdempotencyKeys(c.store.idempotency, () => c.clock.now()).catch(() => undefined);
  }, 3600_000);
  purge.unref();
  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    clearInterval(purge);
    c.readiness.starting('shutting down');
    app.log.info({ signal, timeout_ms: timeoutMs }, 'shutting down: draining in-flight requests');
    const force = setTimeout(() => {
      app.log.warn('in-flight requests did not finish in time; exiting');
      process.exit(1);
    }, timeoutMs);
    force.unref();
    try {
      await app.close();
      await c.close();
    } catch (e) {
      app.log.error({ err: (e as Error).message }, 'shutdown failed');
      process.exit(1);
    }
    process.exit(0);
  };
  process.on('SIGINT', () => void shutdown('SIGINT'));
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
}
