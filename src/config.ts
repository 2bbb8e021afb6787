import { readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import type { TierLimits } from './domain/tier.js';
import type { ConnectionLimits } from './http/connections.js';

export interface Config {
  readonly port: number;
  readonly host: string;
  readonly databaseUrl: string;
  /** PostgreSQL only: connections per process for requests (the ingest writer has 2 of its own), and the server-side statement timeout. */
  readonly pgPoolMax: number;
  readonly pgStatementTimeoutMs: number;
  readonly redisUrl: string | null;
  /** Namespace of every Redis key and channel: deployments (or test runs) sharing one Redis stay apart. */
  readonly redisPrefix: string;
  readonly demo: boolean;
  /** Serve search from the in-memory index (SEARCH_INDEX=memory, the default) or from the store alone (off). */
  readonly searchIndex: boolean;
  readonly tierOverrides: Readonly<Record<string, Partial<TierLimits>>>;
  readonly adminSecret: string | null;
  /** CLICK_SECRET: signs click links (at least 32 characters); unset, a random one is kept in the store. */
  readonly clickSecret: string | null;
  readonly smtpUrl: string | null;
  /** MAIL_DIR: without SMTP_URL, where each mail is written as a file (default: `mail/` beside the SQLite file). */
  readonly mailDir: string;
  /** PUBLIC_URL as configured (no trailing slash): the only origin of links and the OAuth issuer. */
  readonly publicUrl: string | null;
  /** Self-registrations allowed per client IP per hour, and in all per UTC day. */
  readonly registrationPerIpPerHour: number;
  readonly registrationDailyCap: number;
  /** Request, header, idle and keep-alive timeouts and the per-address connection cap (http/connections.ts). */
  readonly connections: ConnectionLimits;
  /** Event streams (docs/realtime.md): heartbeat, idle close, replay window, buffer cap, streams per key. */
  readonly streams: StreamLimits;
  /** SHUTDOWN_TIMEOUT_MS: how long a stopping server lets in-flight requests finish. */
  readonly shutdownTimeoutMs: number;
  /** INGEST_MAX_BYTES: the most one POST /v1/ingest/products body may hold (it is streamed, not held). */
  readonly ingestMaxBytes: number;
  /** CORS_ORIGINS: the origins browsers may call from (comma-separated); null = any origin. */
  readonly corsOrigins: readonly string[] | null;
  /** Failed key or admin-secret checks allowed per client address per minute; then 429. */
  readonly authFailuresPerMinute: number;
  /** Webhook delivery (docs/realtime.md, "Webhooks"). */
  readonly webhooks: WebhookConfig;
  /** Where a daily-quota 429 sends the client to upgrade. */
  readonly upgradeUrl: string;
  readonly logLevel: string;
  readonly environment: string;
  readonly version: string;
}

export interface StreamLimits {
  /** SSE_HEARTBEAT_MS: a heartbeat event this often (capped at half the socket idle timeout, which it keeps open). */
  readonly heartbeatMs: number;
  /** SSE_IDLE_MS: a stream that sent no event (heartbeats aside) for this long is closed. */
  readonly idleMs: number;
  /** SSE_REPLAY_EVENTS: how far back (in event ids behind the newest) Last-Event-ID can resume. */
  readonly replayEvents: number;
  /** SSE_MAX_BUFFER_BYTES: a client with more than this unread is dropped (it resumes by Last-Event-ID). */
  readonly maxBufferBytes: number;
  /** Concurrent streams per key (spec 8.1), across instances in scale-out mode. */
  readonly maxPerKey: number;
}

export interface WebhookConfig {
  /** WEBHOOK_RETRY_BASE_MS: the wait before the first retry; later ones wait 4 and 16 times longer (plus jitter). */
  readonly retryBaseMs: number;
  /** WEBHOOK_TIMEOUT_MS: how long an attempt may take, connect to last byte (spec: 10 s; shorter for tests). */
  readonly timeoutMs: number;
  /** WEBHOOK_ALLOW_HOSTS: hosts exempt from the HTTPS rule and the address guard. Local development and tests only. */
  readonly allowHosts: readonly string[];
  /** WEBHOOK_SECRET_KEY: 32 bytes (64 hex characters or base64) that seal signing secrets at rest; null stores them as they are. */
  readonly secretKey: string | null;
  /** WEBHOOK_CONCURRENCY: attempts in flight at once per process. */
  readonly concurrency: number;
}

function readTiers(file: string | undefined): Record<string, Partial<TierLimits>> {
  if (!file) return {};
  const raw = JSON.parse(readFileSync(file, 'utf8')) as Record<string, { per_minute?: number; per_day?: number | null }>;
  const out: Record<string, Partial<TierLimits>> = {};
  for (const [tier, v] of Object.entries(raw)) {
    out[tier] = {
      ...(v.per_minute !== undefined ? { perMinute: v.per_minute } : {}),
      ...(v.per_day !== undefined ? { perDay: v.per_day } : {}),
    };
  }
  return out;
}

function positiveInt(env: NodeJS.ProcessEnv, name: string, fallback: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 1) throw new Error(`${name} must be a positive integer, got ${raw}`);
  return n;
}

function nonNegativeInt(env: NodeJS.ProcessEnv, name: string, fallback: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 0) throw new Error(`${name} must be a whole number (0 or more), got ${raw}`);
  return n;
}

/** The only reader of process.env: one typed, frozen Config. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const port = Number(env.PORT ?? 8080);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`PORT must be a port number, got ${env.PORT}`);
  return Object.freeze({
    port,
    host: env.HOST ?? '0.0.0.0',
    databaseUrl: env.DATABASE_URL ?? 'sqlite:./data/catalog.db',
    pgPoolMax: positiveInt(env, 'PG_POOL_MAX', 10),
    pgStatementTimeoutMs: positiveInt(env, 'PG_STATEMENT_TIMEOUT_MS', 10_000),
    redisUrl: env.REDIS_URL || null,
    redisPrefix: env.REDIS_PREFIX || 'catalog',
    demo: (env.CATALOG_DEMO ?? 'on').toLowerCase() !== 'off',
    searchIndex: (env.SEARCH_INDEX ?? 'memory').toLowerCase() !== 'off',
    tierOverrides: Object.freeze(readTiers(env.TIERS_FILE)),
    adminSecret: env.ADMIN_SECRET || null,
    clickSecret: clickSecretOf(env.CLICK_SECRET),
    smtpUrl: env.SMTP_URL || null,
    mailDir: env.MAIL_DIR || mailDirOf(env.DATABASE_URL ?? 'sqlite:./data/catalog.db'),
    publicUrl: publicUrlOf(env.PUBLIC_URL),
    registrationPerIpPerHour: positiveInt(env, 'REGISTRATION_PER_IP_PER_HOUR', 10),
    registrationDailyCap: positiveInt(env, 'REGISTRATION_DAILY_CAP', 5000),
    connections: Object.freeze({
      requestTimeoutMs: positiveInt(env, 'REQUEST_TIMEOUT_MS', 300_000),
      headersTimeoutMs: positiveInt(env, 'HEADERS_TIMEOUT_MS', 15_000),
      idleTimeoutMs: positiveInt(env, 'IDLE_TIMEOUT_MS', 60_000),
      keepAliveTimeoutMs: positiveInt(env, 'KEEP_ALIVE_TIMEOUT_MS', 10_000),
      maxPerAddress: nonNegativeInt(env, 'MAX_CONNECTIONS_PER_ADDRESS', 256),
    }),
    streams: Object.freeze({
      heartbeatMs: positiveInt(env, 'SSE_HEARTBEAT_MS', 30_000),
      idleMs: positiveInt(env, 'SSE_IDLE_MS', 300_000),
      replayEvents: positiveInt(env, 'SSE_REPLAY_EVENTS', 100_000),
      maxBufferBytes: positiveInt(env, 'SSE_MAX_BUFFER_BYTES', 1024 * 1024),
      maxPerKey: 10,
    }),
    shutdownTimeoutMs: positiveInt(env, 'SHUTDOWN_TIMEOUT_MS', 10_000),
    ingestMaxBytes: positiveInt(env, 'INGEST_MAX_BYTES', 256 * 1024 * 1024),
    corsOrigins: env.CORS_ORIGINS && env.CORS_ORIGINS.trim() !== '*'
      ? Object.freeze(env.CORS_ORIGINS.split(',').map((o) => o.trim()).filter(Boolean)) : null,
    authFailuresPerMinute: positiveInt(env, 'AUTH_FAILURES_PER_MINUTE', 20),
    webhooks: Object.freeze({
      retryBaseMs: positiveInt(env, 'WEBHOOK_RETRY_BASE_MS', 60_000),
      timeoutMs: positiveInt(env, 'WEBHOOK_TIMEOUT_MS', 10_000),
      allowHosts: Object.freeze((env.WEBHOOK_ALLOW_HOSTS ?? '').split(',').map((h) => h.trim()).filter(Boolean)),
      secretKey: env.WEBHOOK_SECRET_KEY || null,
      concurrency: positiveInt(env, 'WEBHOOK_CONCURRENCY', 32),
    }),
    upgradeUrl: env.UPGRADE_URL || `${publicUrlOf(env.PUBLIC_URL) ?? ''}/v1/auth/me`,
    logLevel: env.LOG_LEVEL ?? 'info',
    environment: env.NODE_ENV ?? 'development',
    version: '0.1.0',
  });
}

function clickSecretOf(raw: string | undefined): string | null {
  if (!raw) return null;
  // Anyone who knows it can make links that record clicks: it must not be guessable.
  if (raw.length < 32) throw new Error(`CLICK_SECRET must be at least 32 characters (e.g. openssl rand -base64 32), got ${raw.length}`);
  return raw;
}

function publicUrlOf(raw: string | undefined): string | null {
  if (!raw) return null;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new Error(`PUBLIC_URL must be an absolute http(s) URL, got ${raw}`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error(`PUBLIC_URL must be an http(s) URL, got ${raw}`);
  return `${url.origin}${url.pathname}`.replace(/\/+$/, '');
}

/**
 * Where links point when PUBLIC_URL is unset (development only): the address the server listens
 * on, never a client's Host header. A wildcard address is reached as localhost.
 */
export function listenOrigin(host: string, port: number): string {
  const name = host === '0.0.0.0' || host === '::' || host === '' ? 'localhost' : host.includes(':') ? `[${host}]` : host;
  return `http://${name}:${port}`;
}

/** A production server needs PUBLIC_URL: links and the OAuth issuer must not come from a guess. */
export function assertServable(config: Config): void {
  if (config.environment === 'production' && !config.publicUrl) {
    throw new Error('PUBLIC_URL must be set when NODE_ENV=production: it is the origin of every link and the OAuth issuer');
  }
}

/** Mail files sit beside the SQLite file; an in-memory or PostgreSQL store writes them to the temp or ./data directory. */
function mailDirOf(databaseUrl: string): string {
  const file = sqlitePath(databaseUrl);
  if (file === ':memory:') return join(tmpdir(), 'catalog-mail');
  return join(file ? dirname(file) : './data', 'mail');
}

/** `sqlite:<path>` (default) or `postgres://...`. */
export function sqlitePath(databaseUrl: string): string | null {
  if (databaseUrl.startsWith('sqlite:')) return databaseUrl.slice('sqlite:'.length) || './data/catalog.db';
  if (databaseUrl === ':memory:') return ':memory:';
  return null;
}
