import type { IncomingMessage } from 'node:http';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { QuotaDecision, QuotaService, WindowState } from '../accounts/quota.js';
import { tierAtLeast } from '../domain/tier.js';
import { DomainError } from '../domain/errors.js';
import type { Tier } from '../domain/tier.js';
import { presenterFor } from './error-presenter.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** false exempts an authenticated route from the tier limits (none does today; kept for internal probes). */
    rateLimit?: boolean;
    /** The lowest tier allowed on the route; below it the answer is 403 INSUFFICIENT_SCOPE. */
    minTier?: Tier;
  }
}

const epoch = (d: Date) => String(Math.floor(d.getTime() / 1000));

/** X-RateLimit-* (the per-minute window), X-DailyQuota-* (omitted when unlimited) and the IETF RateLimit fields, in that order. */
export function eachLimitHeader(minute: WindowState, day: WindowState | null, put: (name: string, value: string) => void): void {
  put('x-ratelimit-limit', String(minute.limit));
  put('x-ratelimit-remaining', String(minute.remaining));
  put('x-ratelimit-reset', epoch(minute.resetAt));
  let policy = `"minute";q=${minute.limit};w=60`;
  let current = `"minute";r=${minute.remaining};t=${minute.retryAfter}`;
  if (day && day.limit !== null) {
    put('x-dailyquota-limit', String(day.limit));
    put('x-dailyquota-remaining', String(day.remaining));
    put('x-dailyquota-reset', epoch(day.resetAt));
    policy += `, "day";q=${day.limit};w=86400`;
    current += `, "day";r=${day.remaining};t=${day.retryAfter}`;
  }
  put('ratelimit-policy', policy);
  put('ratelimit', current);
}

export function setLimitHeaders(reply: FastifyReply, minute: WindowState, day: WindowState | null): void {
  eachLimitHeader(minute, day, (name, value) => reply.header(name, value));
}

/** The per-minute 429 of spec 7.1/7.3, in the envelope of the request's surface; also the registration throttles. */
export function sendRateLimited(reply: FastifyReply, w: WindowState, message: string) {
  return reply.status(429).header('Retry-After', String(w.retryAfter)).send(presenterFor(reply.request).rateLimited(w, message));
}

export function sendDailyLimited(reply: FastifyReply, w: WindowState, upgradeUrl: string) {
  const message = `Daily quota of ${w.limit} requests used up; it resets at midnight UTC. Upgrade for more.`;
  return reply.status(429).header('Retry-After', String(w.retryAfter)).send(presenterFor(reply.request).dailyLimited(w, message, upgradeUrl));
}

/** Requests the front door counted and then left to these hooks (http/front-door.ts), with their decision. */
const counted = new WeakMap<IncomingMessage, QuotaDecision>();

export function countedAhead(req: IncomingMessage, decision: QuotaDecision): void {
  counted.set(req, decision);
}

/**
 * Counts every authenticated request against its account's tier, on request, right after auth:
 * before the input is read or validated, so a refused input counts too and carries the limit
 * headers, and before the response cache, so a cache hit counts too. Counters in this process
 * decide at once; over Redis the hook waits for the count. A limiter fault (Redis down) lets the
 * request through unlimited and logs it: the catalog stays readable, and the outage shows as
 * missing headers, not as 5xx.
 */
export function installRateLimit(app: FastifyInstance, quota: QuotaService, upgradeUrl: string): void {
  app.addHook('onRequest', (req, reply, done) => {
    const p = req.principal;
    if (!p || req.routeOptions.config?.rateLimit === false) return done();
    const apply = (decision: QuotaDecision) => {
      setLimitHeaders(reply, decision.minute, decision.day);
      if (decision.ok) return done();
      if (decision.reason === 'day') return void sendDailyLimited(reply, decision.day, upgradeUrl);
      const m = decision.minute;
      sendRateLimited(reply, m, `Rate limit of ${m.limit} requests per minute exceeded; retry after ${m.retryAfter} s.`);
    };
    const account = `acct:${p.accountId ?? p.keyId}`;
    // Counted already when the front door left a refused request to these hooks.
    const decided = counted.get(req.raw) ?? quota.consumeNow(account, p.tier);
    if (decided) return apply(decided);
    quota.consume(account, p.tier).then(apply, (err: unknown) => {
      req.log.warn({ err: { message: (err as Error).message } }, 'rate limiter unavailable; request admitted unlimited');
      done();
    }).catch(done);
  });
}

function gate(req: FastifyRequest, min: Tier): void {
  const p = req.principal;
  if (p && !tierAtLeast(p.tier, min)) {
    throw new DomainError('INSUFFICIENT_SCOPE', `This endpoint needs the ${min} tier or higher; this key is ${p.tier}.`, { required_tier: min, tier: p.tier });
  }
}

/** Route config `minTier` checked for every route, on request after the rate limit (a refused request still counts). */
export function installTierGate(app: FastifyInstance): void {
  app.addHook('onRequest', (req, _reply, done) => {
    const min = req.routeOptions.config?.minTier;
    if (!min) return done();
    try {
      gate(req, min);
    } catch (err) {
      return done(err as Error);
    }
    done();
  });
}

/** The same gate as a route-level preHandler: `preHandler: requireTier('pro')`. */
export function requireTier(min: Tier) {
  return async (req: FastifyRequest) => gate(req, min);
}
