import { Authenticator } from './accounts/authenticator.js';
import { KeyAdmin } from './accounts/key-admin.js';
import { KeyEvents } from './accounts/key-events.js';
import { KeyCache } from './accounts/key-cache.js';
import { KeyService, systemClock, type Clock } from './accounts/keys.js';
import { DirectoryMailer, type Mailer } from './accounts/mailer.js';
import { OAuthService, type KnownToken } from './accounts/oauth.js';
import { QuotaService } from './accounts/quota.js';
import { AuthGuard } from './accounts/auth-guard.js';
import { RegistrationService } from './accounts/registration.js';
import { SmtpMailer } from './accounts/smtp-mailer.js';
import { ALERT_LIMITS, tierLimits } from './accounts/tiers.js';
import type { RateLimiter } from './limits/limiter.js';
import { MemoryRateLimiter } from './limits/memory.js';
import { RedisRateLimiter, requestPathRedis } from './limits/redis.js';
import { ActivityService } from './catalog/activity-service.js';
import { AlertService } from './catalog/alert-service.js';
import { AgentService } from './catalog/agent-service.js';
import { CatalogService } from './catalog/catalog-service.js';
import { ChartService } from './catalog/chart-service.js';
import { ClickService } from './catalog/click-service.js';
import { CompareService } from './catalog/compare-service.js';
import { FxService } from './catalog/fx-service.js';
import { ExportService } from './catalog/export-service.js';
import { HistoryService } from './catalog/history-service.js';
import { IdResolver } from './catalog/id-resolver.js';
import { ListingViews } from './catalog/listing-views.js';
import { SignalsService } from './catalog/signals-service.js';
import { ProductService } from './catalog/product-service.js';
import { IngestService } from './catalog/ingest.js';
import { IndexedSearch } from './catalog/search-index/indexed-search.js';
import { listenOrigin, sqlitePath, type Config } from './config.js';
import { AlertEvaluator } from './events/alert-evaluator.js';
import { MemoryBus, type EventBus } from './events/bus.js';
import { RedisBus } from './events/redis-bus.js';
import { EventTail } from './events/tail.js';
import { withIngestHook } from './events/wake.js';
import { StreamHub } from './events/stream-hub.js';
import { RedisSlots } from './limits/redis-slots.js';
import { MemorySlots, type ConcurrencySlots } from './limits/slots.js';
import { STREAM_MIN_TIER, tierAtLeast } from './domain/tier.js';
import { WebhookDelivery } from './events/webhook-delivery.js';
import { AddressGuard, type Resolver } from './events/webhook-guard.js';
import { parseSecretKey, SecretBox } from './events/webhook-secrets.js';
import { WebhookService } from './events/webhook-service.js';
import { ResponseCache } from './http/cache.js';
import { createSqliteStore } from './store/sqlite/index.js';
import type { RecoveryProgress, Store } from './store/types.js';
import { Readiness } from './runtime/readiness.js';

export interface Container {
  config: Config;
  clock: Clock;
  store: Store;
  fx: FxService;
  keys: KeyService;
  auth: Authenticator;
  keyEvents: KeyEvents;
  keyAdmin: KeyAdmin;
  quota: QuotaService;
  authGuard: AuthGuard;
  registration: RegistrationService;
  oauth: OAuthService;
  catalog: CatalogService;
  /** Listing views: group sizes, conversions and time-based signals resolved for presenters. */
  views: ListingViews;
  products: ProductService;
  /** Decision signals of a page of listings (docs/signals.md); no demand counts are recorded yet. */
  signals: SignalsService;
  compare: CompareService;
  /** The agent endpoints' use cases (V2). */
  agents: AgentService;
  history: HistoryService;
  /** Price charts: a listing's history, alone or with its match group's offers (the chart route renders them). */
  charts: ChartService;
  /** The demo key of this process: set by `serve` when it loaded the demo catalog into the embedded store (GET /demo/key). */
  demoKey: { value: string | null };
  exports: ExportService;
  ingest: IngestService;
  /** Searches and followed links, recorded for demand signals (written in batches). */
  activity: ActivityService;
  /** Tracked outbound links: signs click tokens, follows them. */
  clicks: ClickService;
  /** The in-memory search index; null with SEARCH_INDEX=off. Built by `serve`, not by one-shot CLI commands. */
  searchIndex: IndexedSearch | null;
  cache: ResponseCache;
  tail: EventTail;
  /** The open event streams of this process (GET /v2/products/stream, /v2/prices/stream). */
  streams: StreamHub;
  /** Concurrent streams per key: in Redis with REDIS_URL (every instance counts), in memory otherwise. */
  streamSlots: ConcurrencySlots;
  /** Instance-to-instance notifications (Redis with REDIS_URL; nothing to tell otherwise). */
  bus: EventBus;
  /** Webhook subscriptions (the management endpoints). */
  webhooks: WebhookService;
  /** The webhook dispatcher and worker: started by `serve` only, stopped by close(). */
  webhookDelivery: WebhookDelivery;
  /** Price and stock alerts (docs/alerts.md): the management use cases. */
  alerts: AlertService;
  /** Evaluates alerts on the logged changes: started by `serve` only, stopped by close(). */
  alertEvaluator: AlertEvaluator;
  /** The webhook address guard (serve warns when WEBHOOK_ALLOW_HOSTS exempts hosts). */
  webhookGuard: AddressGuard;
  /** The origin of links and the OAuth issuer (see baseUrl); `listening` tells it the bound port. */
  origin(): string;
  /** Whether the store is usable yet (see serve: it listens before). */
  readiness: Readiness;
  listening(port: number): void;
  close(): Promise<void>;
}

/** `clock` stamps listing change times (modified_since): the container's, so tests move it by hand. */
export async function openStore(config: Config, clock: Clock = systemClock): Promise<Store> {
  const now = () => clock.now();
  const path = sqlitePath(config.databaseUrl);
  if (path) return createSqliteStore(path, { now });
  if (/^postgres(ql)?:\/\//.test(config.databaseUrl)) {
    // Loaded only in scale mode: the embedded default never pays for pg.
    const { createPostgresStore } = await import('./store/postgres/index.js');
    return createPostgresStore(config.databaseUrl, { max: config.pgPoolMax, statementTimeoutMs: config.pgStatementTimeoutMs, now });
  }
  throw new Error(`DATABASE_URL must be sqlite:<path> or postgres://..., got ${config.databaseUrl.split(':')[0]}:...`);
}

/** Wires the store, services and clock from Config. Building does no network I/O beyond opening the store. */
export interface ContainerOptions {
  clock?: Clock;
  store?: Store;
  limiter?: RateLimiter;
  mailer?: Mailer;
  /** Leave the store's recovery (a killed bulk load) to the caller, who runs it while listening; else it runs here. */
  deferRecovery?: boolean;
  onRecovery?: (p: RecoveryProgress) => void;
  /** How webhook hosts are resolved (tests: names that resolve where a test says). */
  webhookResolver?: Resolver;
  /** The active keys kept in memory (tests: one whose entries live on a clock the test holds). */
  keyCache?: KeyCache;
  /** The access tokens kept in memory on the embedded store (tests: as keyCache). */
  tokenCache?: KeyCache<KnownToken>;
}

export async function createContainer(config: Config, opts: ContainerOptions = {}): Promise<Container> {
  const clock = opts.clock ?? systemClock;
  const store = opts.store ?? (await openStore(config, clock));
  await store.migrate();
  if (!opts.deferRecovery) await store.recovery?.run(opts.onRecovery);
  const fx = new FxService(store.fx);
  await fx.load();
  const keys = new KeyService(store.keys, clock);
  const keyEvents = new KeyEvents();
  // One process on the embedded store: remembering keys is safe. With many instances a rotation
  // must be refused at once everywhere, and a bus message can arrive after the next request: keys
  // are remembered only while the store's key change count stays put.
  if (store.kind === 'sqlite') keys.cacheActiveKeys(keyEvents, opts.keyCache);
  else keys.cacheWhileUnchanged(keyEvents, opts.keyCache);
  const auth = new Authenticator(keys);
  const redisLimiter = !opts.limiter && config.redisUrl ? new RedisRateLimiter(requestPathRedis(config.redisUrl), `${config.redisPrefix}:rl`) : null;
  const quota = new QuotaService(opts.limiter ?? redisLimiter ?? new MemoryRateLimiter(), tierLimits(config.tierOverrides), clock);
  const mailer = opts.mailer ?? (config.smtpUrl ? new SmtpMailer(config.smtpUrl) : new DirectoryMailer(config.mailDir));
  const oauth = new OAuthService(store.oauth, keys, quota, clock, store.kind === 'sqlite' ? (opts.tokenCache ?? new KeyCache()) : null);
  auth.use(oauth.verifier());
  const now = () => clock.now();
  const searchIndex = config.searchIndex ? new IndexedSearch(store.catalog, store.events, { head: store.kind === 'sqlite' ? 'turn' : 'own-writes' }) : null;
  const views = new ListingViews(fx, store.catalog, now);
  const catalog = new CatalogService(store.catalog, views, now, searchIndex);
  const cache = new ResponseCache();
  // On the embedded store a poll is one indexed read: poll often, so a `catalog import` run beside
  // the server reaches its streams well within a second. PostgreSQL instances are woken by Redis.
  const tail = new EventTail(store.events, store.kind === 'sqlite' ? 100 : 500);
  tail.subscribe(() => {
    cache.invalidate();
    catalog.invalidate();
    // After the tail has handed out what it read (to the streams): the index's catch-up is the
    // heavier work, and a search that comes first catches up inline anyway.
    setImmediate(() => void searchIndex?.catchUp().catch(() => undefined));
  });
  tail.onUnloggedChange(() => {
    cache.invalidate();
    catalog.invalidate();
  });
  const bus = wireBus(config, tail, keyEvents, () => {
    cache.invalidate();
    catalog.invalidate();
  });
  const writes = withIngestHook(store.catalog, () => {
    searchIndex?.markStale();
    catalog.invalidate();
    void tail.poke();
    void bus.publish({ type: 'events' });
  });
  const activity = new ActivityService(store.activity);
  const compare = new CompareService(catalog, views);
  // Demand reads the clicks surface B records (docs/signals.md).
  const signals = new SignalsService(store.catalog, fx, now, { clicksFor: (ids, since) => store.activity.clickCounts(ids, since) });
  const streamSlots: ConcurrencySlots = config.redisUrl
    ? new RedisSlots(requestPathRedis(config.redisUrl), `${config.redisPrefix}:streams`)
    : new MemorySlots();
  const streams = new StreamHub(store.events, tail, {
    // Heartbeats are what keep a quiet stream's socket from the server's idle timeout.
    heartbeatMs: Math.max(1, Math.min(config.streams.heartbeatMs, Math.floor(config.connections.idleTimeoutMs / 2))),
    idleMs: config.streams.idleMs,
    replayWindow: config.streams.replayEvents,
    maxBufferBytes: config.streams.maxBufferBytes,
    retryMs: () => 3000 + Math.floor(Math.random() * 2000),
    now,
    // A rotation by the CLI (another process, no bus on SQLite) is found here within a heartbeat.
    keyStillValid: async (id) => {
      const key = await keys.activeById(id);
      return key !== null && tierAtLeast(key.tier, STREAM_MIN_TIER);
    },
  });
  keyEvents.onAnyRevoked((keyId) => streams.closeKey(keyId));
  const webhookGuard = new AddressGuard(config.webhooks.allowHosts, opts.webhookResolver);
  const secrets = new SecretBox(config.webhooks.secretKey ? parseSecretKey(config.webhooks.secretKey) : null);
  const webhookDelivery = new WebhookDelivery(store.webhooks, store.events, webhookGuard, secrets, now, {
    timeoutMs: config.webhooks.timeoutMs, retryBaseMs: config.webhooks.retryBaseMs, concurrency: config.webhooks.concurrency,
    perSubscription: Math.max(1, Math.ceil(config.webhooks.concurrency / 4)), userAgent: `catalog-webhooks/${config.version}`,
  });
  tail.subscribe(() => webhookDelivery.wake());
  const webhooks = new WebhookService(store.webhooks, store.events, webhookGuard, secrets, webhookDelivery.worker, now);
  const alertEvaluator = new AlertEvaluator(store.alerts, store.events, () => fx.rates(), now, () => {
    void tail.poke();
    void bus.publish({ type: 'events' });
  });
  tail.subscribe(() => alertEvaluator.wake());
  const idResolver = new IdResolver(store.catalog);
  const alerts = new AlertService(store.alerts, store.catalog, store.events, idResolver, ALERT_LIMITS, now);
  const history = new HistoryService(store.catalog, now);
  let origin = config.publicUrl ?? listenOrigin(config.host, config.port);
  return {
    config, clock, store, fx, keys, auth, catalog, views,
    origin: () => origin,
    readiness: new Readiness(),
    listening(port) {
      if (!config.publicUrl) origin = listenOrigin(config.host, port);
    },
    products: new ProductService(idResolver, views, (l) => catalog.groupMerchants(l), now),
    exports: new ExportService((filter, limit, offset) => catalog.scan(filter, limit, offset)),
    keyEvents, keyAdmin: new KeyAdmin(store.keys, store.accounts, keyEvents, clock), quota, oauth,
    authGuard: new AuthGuard(quota, config.authFailuresPerMinute),
    registration: new RegistrationService(keys, store.keys, store.accounts, quota, mailer,
      { perIpPerHour: config.registrationPerIpPerHour, dailyCap: config.registrationDailyCap }, clock),
    compare, signals, agents: new AgentService(catalog, compare, views, signals, store.catalog, now),
    history, charts: new ChartService(history, compare, fx, now), demoKey: { value: null },
    ingest: new IngestService(writes, () => fx.rates()),
    activity,
    clicks: new ClickService(store.catalog, store.activity, activity, now, config.clickSecret),
    searchIndex, cache, tail, bus, streams, streamSlots, webhooks, webhookDelivery, webhookGuard, alerts, alertEvaluator,
    async close() {
      streams.stop();
      await streamSlots.close();
      tail.stop();
      alertEvaluator.stop();
      await activity.close();
      await webhookDelivery.stop();
      await bus.close();
      await redisLimiter?.close();
      await store.close();
    },
  };
}

/**
 * Scale mode: appended events wake every instance's tail (which invalidates its caches and feeds
 * its streams), and a key revoked on one instance closes its streams on all. A revocation received
 * from the bus is not sent back out.
 */
function wireBus(config: Config, tail: EventTail, keyEvents: KeyEvents, invalidate: () => void): EventBus {
  if (!config.redisUrl) return new MemoryBus();
  const bus = new RedisBus(config.redisUrl, `${config.redisPrefix}:bus`);
  void bus.start().catch(() => undefined); // Redis down at start: ioredis keeps retrying and subscribes when it can
  let remote = false;
  keyEvents.onAnyRevoked((keyId) => {
    if (!remote) void bus.publish({ type: 'key_revoked', keyId });
  });
  bus.subscribe((m) => {
    if (m.type === 'events') void tail.poke();
    if (m.type === 'invalidate') invalidate();
    if (m.type === 'key_revoked') {
      remote = true;
      try {
        keyEvents.emitRevoked(m.keyId);
      } finally {
        remote = false;
      }
    }
  });
  return bus;
}
