import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerOptions, type ServerResponse } from 'node:http';
import type { FastifyContextConfig } from 'fastify';
import type { Authenticator } from '../accounts/authenticator.js';
import type { QuotaDecision, QuotaService } from '../accounts/quota.js';
import { tierAtLeast } from '../domain/tier.js';
import { cacheKeyOf, type ResponseCache } from './cache.js';
import { entityTag } from './etag.js';
import { headerCredential } from './auth.js';
import { CORS_EXPOSED_HEADERS } from './cors.js';
import { countedAhead, eachLimitHeader } from './rate-limit.js';

/** What the route that answered a URL said about its answers: all a kept answer needs to be sent again. */
interface Learned {
  /** The response cache's key for the URL, kept: a string looked up again has its hash at hand. */
  key: string;
  surface: string;
  seconds: number;
  minTier: FastifyContextConfig['minTier'];
  limited: boolean;
}

/**
 * A route whose first answer for a reference the front door makes itself, with the route's own
 * code (`answer`), so a reference never asked before costs no pass through Fastify's request,
 * reply and hooks: only GET `prefix` + a reference `takes` accepts, with no query but free
 * parameters (`_n`, spec 8.3's cache buster). `answer` gives the 200's body, or null where the
 * route must answer itself (no such product, another form of reference): the request then goes
 * to Fastify, counted once.
 */
export interface ColdRoute {
  prefix: string;
  takes(ref: string): boolean;
  surface: string;
  config: FastifyContextConfig;
  /** The answer's Content-Type, as the route's reply sets it. */
  type: string;
  /** `took`: the milliseconds since the request came, as Fastify's `reply.elapsedTime` counts them. */
  answer(ref: string, took: () => number): Promise<string | null>;
}

/**
 * A route the front door answers on every request, its parameters read from the query (`parse`):
 * only GET `path` exactly, with a query `parse` accepts (it returns null for anything the route's
 * own validation must see). Its answers are not kept in the response cache (the route has no
 * cache time), so they carry no Cache-Control or X-Cache, as the hooks send them. `answer` gives
 * the 200's bytes and entity tag, or null where the route must answer itself.
 */
export interface QueryRoute<P = unknown> {
  path: string;
  surface: string;
  config: FastifyContextConfig;
  /** The answer's Content-Type, as the route's reply sets it. */
  type: string;
  parse(query: string): P | null;
  answer(params: P): Promise<{ body: Buffer; etag: string } | null>;
}

/** A free parameter's name as the client sent it (schema-kit's FREE_PARAMS but the key): `_`, then no escape. */
const FREE_NAME_TEXT = '_[^&=%]*';
export const FREE_NAME = new RegExp(`^${FREE_NAME_TEXT}$`);
/** A query of free parameters only, as the client sent them. */
const FREE_QUERY = new RegExp(`^${FREE_NAME_TEXT}(=[^&]*)?(&${FREE_NAME_TEXT}(=[^&]*)?)*$`);

/** A request for a cold route: the route, the reference, and what a kept answer of it is sent with. */
interface ColdRequest {
  route: ColdRoute;
  ref: string;
  learned: Learned;
}

/** A request for a query route: the route, its parameters, and its rules as a Learned of no cache key. */
interface AskedRequest {
  route: QueryRoute;
  params: unknown;
  learned: Learned;
}

/** A route's rules for the front door; `key` the response cache's key of the URL ('' for a query route's, kept nowhere). */
function learnedOf(key: string, surface: string, config: FastifyContextConfig): Learned {
  return { key, surface, seconds: config.cacheSeconds ?? 0, minTier: config.minTier, limited: config.rateLimit !== false };
}

const getKey = (url: string, surface: string) => cacheKeyOf('GET', surface, '', '', url, '');

/** The longest URL learned: a crawler's long URLs must not grow the map past a few MB. */
const MAX_URL = 1024;
const EXPOSED = CORS_EXPOSED_HEADERS.join(', ');

/**
 * Kept answers sent before Fastify routes the request. A GET whose answer the response cache holds
 * otherwise goes through Fastify's request, reply and hooks only to be answered from its first hooks
 * (readiness, CORS, auth, the rate limit, the tier gate, the cache lookup); here the same checks run
 * on the raw request and the same headers are written, for about 70% of the CPU (bench/RESULTS.md).
 * A cold route's URL (ColdRoute) that the cache does not hold is answered first here, by the
 * route's own code; so is every request of a query route (QueryRoute), whose answers are not kept.
 *
 * It answers only what it can answer exactly as the hooks would, and steps aside (returns false,
 * having counted nothing) for everything else: a URL no cached route has answered from its cache
 * yet and no cold or query route takes, a route that needs no key (the hooks count none there), a
 * key not in the key cache, a method other than GET, an If-None-Match, a `Catalog-Surface` header,
 * a key in the query, a per-key or header-dependent answer, a CORS allow-list, a limiter that answers
 * asynchronously (Redis), a refused tier, a service that is starting or closing, and logging at
 * `info` (Fastify logs every request there, and the log must not depend on which path answered).
 * A request the rate limit refuses was counted here: it goes on to Fastify carrying that decision,
 * so the 429 is written by the usual hook and counted once.
 */
export class FrontDoor {
  private readonly learned = new Map<string, Learned>();
  private readonly cold: ColdRoute[] = [];
  private readonly queried = new Map<string, { route: QueryRoute; learned: Learned }>();
  private closing = false;
  /** Answers sent here (tests read it). */
  answered = 0;
  /** Whether Fastify logs every request (its level is `info` or lower): then every request goes to it. */
  requestsLogged = false;

  constructor(
    private readonly deps: {
      cache: ResponseCache;
      auth: Authenticator;
      quota: QuotaService;
      readiness: { readonly notReadyBecause: string | null };
      /** CORS_ORIGINS: null lets any origin read answers (the header is then always `*`). */
      corsOrigins: readonly string[] | null;
    },
    private readonly maxUrls = 5000,
  ) {}

  /** Called where a cached route answered `url` again from the cache (a raw GET URL, without credentials or a surface header). */
  learn(url: string, config: FastifyContextConfig): void {
    if (url.length > MAX_URL || config.auth === false || this.learned.has(url)) return;
    const surface = config.surface ?? '';
    this.keep(url, learnedOf(getKey(url, surface), surface, config));
  }

  private keep(url: string, route: Learned): void {
    // Full, it starts again: a URL learned again costs one more answer through the hooks. (Deleting
    // the oldest one at a time walks the holes a Map keeps at its start.)
    if (this.learned.size >= this.maxUrls) this.learned.clear();
    this.learned.set(url, route);
  }

  /** Called by a route that lets the front door make its first answers (ColdRoute). */
  answerCold(route: ColdRoute): void {
    this.cold.push(route);
  }

  /** Called by a route whose every answer the front door may make (QueryRoute). */
  answerQueries<P>(route: QueryRoute<P>): void {
    this.queried.set(route.path, { route: route as QueryRoute, learned: learnedOf('', route.surface, route.config) });
  }

  /** The query route and parameters `url` asks for, or null. */
  private askedOf(url: string): AskedRequest | null {
    const q = url.indexOf('?');
    const lane = this.queried.get(q < 0 ? url : url.slice(0, q));
    if (lane === undefined || url.length > MAX_URL) return null;
    const params = lane.route.parse(q < 0 ? '' : url.slice(q + 1));
    return params === null ? null : { route: lane.route, params, learned: lane.learned };
  }

  /** The cold route and reference `url` asks for, or null. */
  private coldOf(url: string): ColdRequest | null {
    if (url.length > MAX_URL) return null;
    for (const route of this.cold) {
      if (!url.startsWith(route.prefix)) continue;
      const q = url.indexOf('?', route.prefix.length);
      const ref = url.slice(route.prefix.length, q < 0 ? undefined : q);
      if (!route.takes(ref)) continue;
      if (q >= 0 && !FREE_QUERY.test(url.slice(q + 1))) return null;
      return { route, ref, learned: learnedOf(getKey(url, route.surface), route.surface, route.config) };
    }
    return null;
  }

  close(): void {
    this.closing = true;
  }

  /**
   * Sends the kept answer, or takes a cold route's request, and returns true; or returns false
   * having written and counted nothing. A cold request the route leaves to Fastify goes to `hooks`.
   */
  answer(req: IncomingMessage, res: ServerResponse, hooks: (req: IncomingMessage, res: ServerResponse) => void): boolean {
    if (req.method !== 'GET' || this.closing) return false;
    const url = req.url!;
    let cold: ColdRequest | null = null;
    let asked: AskedRequest | null = null;
    let route = this.learned.get(url);
    if (route === undefined) {
      cold = this.coldOf(url);
      if (cold === null && (asked = this.askedOf(url)) === null) return false;
      route = cold?.learned ?? asked!.learned;
    }
    const h = req.headers;
    if (h['if-none-match'] !== undefined || h['catalog-surface'] !== undefined) return false;
    const { cache, auth, quota, readiness, corsOrigins } = this.deps;
    if (corsOrigins !== null || readiness.notReadyBecause !== null || this.requestsLogged) return false;
    const credential = headerCredential(h) ?? null;
    const principal = credential === null ? null : auth.cached(credential);
    if (principal === null || (route.minTier && !tierAtLeast(principal.tier, route.minTier))) return false;
    const started = performance.now();
    const hit = asked === null ? cache.get(route.key) : null;
    // A learned URL whose answer is gone (a catalog change) may still be a cold route's.
    if (hit === null && cold === null && asked === null && (cold = this.coldOf(url)) === null) return false;
    const decision = route.limited ? quota.consumeNow(`acct:${principal.accountId ?? principal.keyId}`, principal.tier) : null;
    if (route.limited && decision === null) return false;
    if (decision !== null && !decision.ok) {
      countedAhead(req, decision);
      return false;
    }
    try {
      if (asked !== null || hit === null) {
        const query = asked;
        const make = query !== null ? () => this.queryAnswer(query, decision, res) : () => this.firstAnswer(cold!, decision, res, started);
        void this.answerLater(make, decision, req, res, hooks);
        return true;
      }
      const body = route.surface === 'v1b' ? cache.markedBody(hit, performance.now() - started) : hit.body;
      this.send(res, route, decision, 'HIT', hit.etag, hit.type, body);
      // A cold route's URL asked again is learned, as the hooks learn a hit: its key is kept, hashed.
      if (cold !== null) this.keep(url, route);
    } catch (err) {
      // The hooks answer it (serverWithFrontDoor) with the count made here, not a second one.
      if (decision !== null && !res.headersSent) countedAhead(req, decision);
      throw err;
    }
    this.answered++;
    return true;
  }

  /**
   * Sends what `make` writes (true when it wrote the answer); where it wrote nothing (the route's
   * code found nothing, or failed), the request goes on to Fastify with its count, for the route
   * to answer as always.
   */
  private async answerLater(
    make: () => Promise<boolean>, decision: QuotaDecision | null,
    req: IncomingMessage, res: ServerResponse, hooks: (req: IncomingMessage, res: ServerResponse) => void,
  ): Promise<void> {
    try {
      if (await make()) {
        this.answered++;
        return;
      }
    } catch {
      // The route answers it again through Fastify, whose error handling says what went wrong.
      if (res.headersSent) return void res.destroy();
    }
    if (decision !== null) countedAhead(req, decision);
    hooks(req, res);
  }

  /** A cold route's first answer, kept as the hooks keep it. */
  private async firstAnswer(cold: ColdRequest, decision: QuotaDecision | null, res: ServerResponse, started: number): Promise<boolean> {
    const { route, ref, learned } = cold;
    const text = await route.answer(ref, () => performance.now() - started);
    if (text === null || this.closing) return false;
    let etag = '';
    const kept = this.deps.cache.set(learned.key, text, route.type, learned.seconds, null, (bytes) => (etag = entityTag(bytes)));
    const body = kept ?? Buffer.from(text);
    if (kept === null) etag = entityTag(body);
    this.send(res, learned, decision, 'MISS', etag, route.type, body);
    return true;
  }

  /** A query route's answer, kept nowhere. */
  private async queryAnswer(asked: AskedRequest, decision: QuotaDecision | null, res: ServerResponse): Promise<boolean> {
    const made = await asked.route.answer(asked.params);
    if (made === null || this.closing) return false;
    this.send(res, asked.learned, decision, null, made.etag, asked.route.type, made.body);
    return true;
  }

  /** The head the hooks write for a route's 200 (with the cache's headers where it is a cached route's: `cache`), then `body`. */
  private send(res: ServerResponse, route: Learned, decision: QuotaDecision | null, cache: 'HIT' | 'MISS' | null, etag: string, type: string, body: Buffer): void {
    const headers: string[] = ['access-control-allow-origin', '*', 'access-control-expose-headers', EXPOSED];
    if (decision !== null) eachLimitHeader(decision.minute, decision.day, (name, value) => headers.push(name, value));
    if (cache !== null) headers.push('cache-control', `private, max-age=${route.seconds}`, 'x-cache', cache);
    if (etag) headers.push('etag', etag);
    const id = res.req.headers['x-request-id'];
    headers.push('content-type', type, 'x-request-id', typeof id === 'string' && id ? id : randomUUID(), 'x-content-type-options', 'nosniff');
    headers.push('content-length', String(body.length));
    res.writeHead(200, headers);
    res.end(body);
  }
}

/**
 * The HTTP server Fastify would make (connections.ts's timeouts), with the front door before its
 * handler. A fault in the front door is the request's, not the process's: it goes on to Fastify
 * unless bytes were written.
 */
export function serverWithFrontDoor(
  front: FrontDoor,
  handler: (req: IncomingMessage, res: ServerResponse) => void,
  options: { http?: ServerOptions; keepAliveTimeout?: number; requestTimeout?: number; connectionTimeout?: number },
): Server {
  const server = createServer(options.http ?? {}, (req, res) => {
    let answered = false;
    try {
      answered = front.answer(req, res, handler);
    } catch {
      if (res.headersSent) return void res.destroy();
    }
    if (!answered) handler(req, res);
  });
  if (options.keepAliveTimeout !== undefined) server.keepAliveTimeout = options.keepAliveTimeout;
  if (options.requestTimeout !== undefined) server.requestTimeout = options.requestTimeout;
  if (options.connectionTimeout !== undefined) server.setTimeout(options.connectionTimeout);
  return server;
}
