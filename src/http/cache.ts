import type { FastifyInstance, FastifyRequest } from 'fastify';
import { withoutCredentials } from './credentials.js';
import { entityTag, noneMatchHits } from './etag.js';

interface Entry { body: Buffer; type: string; expires: number; generation: number; note: unknown; etag: string }

/**
 * Server-side response cache of spec 8.3, keyed on method, surface and the full query (so an unused
 * extra parameter bypasses it) — not on the key, unless the route's answer is the key's own
 * (`cachePerKey`: surface B's search signs its click links for the key that asked; the key's id,
 * never the key, is then part of the cache key). Any catalog change bumps the generation, so a
 * cached answer never outlives the data it was computed from. Bodies are kept as bytes, outside
 * the JavaScript heap: a hit is written as it is, not copied through the heap, which spares the
 * garbage collector. Converting at store time, not at the first hit, lets the string die young
 * instead of being promoted.
 */
export class ResponseCache {
  private readonly entries = new Map<string, Entry>();
  private generation = 0;
  private bytes = 0;

  /**
   * `maxBytes` bounds the bodies kept: answers of 100 KB (batch lookups, keyed on their body)
   * would otherwise hold some 500 MB at `maxEntries`, each freed only by a full collection.
   */
  constructor(private readonly maxEntries = 5000, private readonly now: () => number = Date.now, private readonly maxBytes = 64 * 1024 * 1024) {}

  invalidate(): void {
    this.generation++;
    this.entries.clear();
    this.bytes = 0;
  }

  get(key: string): Entry | null {
    const e = this.entries.get(key);
    if (!e) return null;
    if (e.expires <= this.now() || e.generation !== this.generation) {
      this.remove(key, e);
      return null;
    }
    return e;
  }

  private remove(key: string, e: Entry): void {
    this.entries.delete(key);
    this.bytes -= e.body.length;
  }

  /** `etag`: the body's entity tag (etag.ts), computed once when the answer is stored so a hit costs no hashing; '' for none. */
  set(key: string, body: Buffer, type: string, seconds: number, note: unknown = null, etag = ''): void {
    if (body.length > this.maxBytes) return;
    const old = this.entries.get(key);
    if (old) this.remove(key, old);
    // The oldest answers go first (a Map iterates in insertion order).
    for (const [k, e] of this.entries) {
      if (this.entries.size < this.maxEntries && this.bytes + body.length <= this.maxBytes) break;
      this.remove(k, e);
    }
    this.entries.set(key, { body, type, expires: this.now() + seconds * 1000, generation: this.generation, note, etag });
    this.bytes += body.length;
  }
}

declare module 'fastify' {
  interface FastifyRequest {
    cacheKey: string | null;
    /**
     * What a handler tells its route's later hooks about the answer (surface B search: the total it
     * records). Kept with a cached answer and given back on a hit, where no handler runs.
     */
    cacheNote: unknown;
  }
}

const TIMING_TAIL = /"response_time_ms":\d+,"cached":false}(}?)$/;

/** Surface B reports its own timing and whether the answer was cached (the last two members of its envelope, or of its `meta`, its last member). */
function markCached(body: Buffer, elapsedMs: number): string | Buffer {
  const text = body.toString();
  const marked = text.replace(TIMING_TAIL, `"response_time_ms":${Math.max(0, Math.round(elapsedMs))},"cached":true}$1`);
  return marked === text ? body : marked;
}

/**
 * Whether a route's 200 answers carry an entity tag, and so answer a matching If-None-Match with
 * 304: GET (and HEAD) on a route that does not opt out (`etag: false`: the answer is the request's
 * own, or the request has an effect a 304 must not skip, or it is a stream or `no-store`). The
 * reference declares the 304 by this same rule (api/route-errors.ts).
 */
export function routeTagsAnswers(method: string, config: { etag?: boolean } | undefined): boolean {
  return (method === 'GET' || method === 'HEAD') && config?.etag !== false;
}

/** Whether this answer carries a tag: its route's rule, and an answer that may be stored (not `no-store`, checked by the caller). */
function carriesTag(req: FastifyRequest): boolean {
  return routeTagsAnswers(req.method, req.routeOptions.config);
}

export function installCache(app: FastifyInstance, cache: ResponseCache): void {
  app.decorateRequest('cacheKey', null);
  app.decorateRequest('cacheNote', null);
  // Runs after auth (registered later), so an unauthenticated request never reads the cache.
  // Callback-style hooks, here and in the other per-request hooks: no promise per hook per request.
  app.addHook('preHandler', (req, reply, done) => {
    const config = req.routeOptions.config;
    const seconds = config?.cacheSeconds;
    if (!seconds) return done();
    reply.header('Cache-Control', `private, max-age=${seconds}`);
    const body = req.method === 'POST' ? JSON.stringify(req.body ?? null) : '';
    const owner = config.cachePerKey ? ` k${req.principal?.keyId ?? '-'}` : '';
    // What else the answer depends on besides the URL (V2 region=auto reads the request headers).
    const vary = config.cacheVary ? ` v${config.cacheVary(req)}` : '';
    req.cacheKey = `${req.method} ${config.surface}${owner}${vary} ${withoutCredentials(req.url)} ${body}`;
    const hit = cache.get(req.cacheKey);
    if (hit) {
      req.cacheNote = hit.note;
      reply.header('X-Cache', 'HIT');
      if (hit.etag) {
        reply.header('ETag', hit.etag);
        if (noneMatchHits(req.headers['if-none-match'], hit.etag)) {
          reply.code(304).send();
          return;
        }
      }
      reply.type(hit.type);
      reply.send(config.surface === 'v1b' ? markCached(hit.body, reply.elapsedTime) : hit.body);
      return;
    }
    reply.header('X-Cache', 'MISS');
    done();
  });
  app.addHook('onSend', (req, reply, payload, done) => {
    if (reply.statusCode !== 200) return done(null, payload);
    const tagged = !reply.hasHeader('ETag') && carriesTag(req) && !String(reply.getHeader('Cache-Control') ?? '').includes('no-store');
    const caching = req.cacheKey !== null && reply.getHeader('X-Cache') === 'MISS';
    if (!tagged && !caching) return done(null, payload);
    // Strings are JSON and SVG answers; a Buffer is an image (a PNG chart). One encoding of a string
    // serves the cache, the tag and the socket (a batch answer is some 100 KB).
    const bytes = typeof payload === 'string' ? Buffer.from(payload) : Buffer.isBuffer(payload) ? payload : null;
    if (!bytes) return done(null, payload);
    const etag = tagged ? entityTag(bytes) : '';
    if (caching) cache.set(req.cacheKey!, bytes, String(reply.getHeader('content-type') ?? 'application/json'), req.routeOptions.config!.cacheSeconds!, req.cacheNote, etag);
    if (!tagged) return done(null, bytes);
    reply.header('ETag', etag);
    if (!noneMatchHits(req.headers['if-none-match'], etag)) return done(null, bytes);
    reply.code(304).removeHeader('Content-Type');
    done(null, '');
  });
}
