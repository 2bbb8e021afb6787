import type { FastifyContextConfig, FastifyInstance, FastifyReply, FastifyRequest, HookHandlerDoneFunction } from 'fastify';
import type { FrontDoor } from './front-door.js';
import { withoutCredentials } from './credentials.js';
import { entityTag, noneMatchHits } from './etag.js';

/** Where an answer's bytes lie in the arena, and what a hit sends with them. */
interface Entry {
  key: string; offset: number; length: number; type: string; expires: number; generation: number; note: unknown; etag: string;
  /** Its answer in bytes of its own, once it was hit (see `get`), else null. */
  own: CachedAnswer | null;
}

/** A cached answer as a hit sends it: `body` may be shared with other hits, so it is never written. */
export interface CachedAnswer {
  body: Buffer; type: string; note: unknown; etag: string;
  /** Whether this is the entry's own answer, which later hits share (else a copy for one hit). */
  kept: boolean;
  /** `body` marked cached at 0 ms (surface B, markCached), kept once a kept answer was so marked. */
  marked: Buffer | null;
}

/**
 * Server-side response cache of spec 8.3, keyed on method, surface and the full query (so an unused
 * extra parameter bypasses it) — not on the key, unless the route's answer is the key's own
 * (`cachePerKey`: surface B's search signs its click links for the key that asked; the key's id,
 * never the key, is then part of the cache key). Any catalog change bumps the generation, so a
 * cached answer never outlives the data it was computed from.
 *
 * Bodies are written into one arena, a ring of `maxBytes` allocated once, oldest answers making
 * room first: a Buffer per answer put some 26 MB a second outside the heap when every answer was
 * new (searches nobody repeats, batch lookups keyed on their body), freed only by the full
 * collections that growth itself kept starting. A write still queued on a slow socket must not see
 * the ring move on, so a hit never sends the ring's bytes: an answer asked again is copied once into
 * bytes of its own, which every later hit sends as they are, up to `maxBytes / 4` of such copies;
 * past that a hit sends a copy of its own (a young Buffer, freed by the next scavenge).
 */
export class ResponseCache {
  private readonly entries = new Map<string, Entry>();
  /**
   * The entries in the order they were kept (the ring's order), from `first` on; one no longer in
   * `entries` (replaced, expired) is skipped. Finding the oldest through the Map's own order walks
   * the holes its deletions leave at its start: about 3 µs an eviction at 5,000 entries.
   */
  private order: Entry[] = [];
  private first = 0;
  private generation = 0;
  private arena: Buffer | null = null;
  /** Where the next answer is written. */
  private head = 0;
  /** The bytes of the answers kept in bytes of their own (`Entry.own`). */
  private ownBytes = 0;

  constructor(private readonly maxEntries = 5000, private readonly now: () => number = Date.now, private readonly maxBytes = 64 * 1024 * 1024) {}

  invalidate(): void {
    this.generation++;
    this.entries.clear();
    this.order = [];
    this.first = 0;
    this.head = 0;
    this.ownBytes = 0;
  }

  get(key: string): CachedAnswer | null {
    const e = this.entries.get(key);
    if (!e) return null;
    if (e.expires <= this.now() || e.generation !== this.generation) {
      this.drop(e);
      return null;
    }
    if (e.own !== null) return e.own;
    const own = this.ownBytes + e.length <= this.maxBytes / 4;
    const body = own ? Buffer.allocUnsafeSlow(e.length) : Buffer.allocUnsafe(e.length);
    this.arena!.copy(body, 0, e.offset, e.offset + e.length);
    const answer: CachedAnswer = { body, type: e.type, note: e.note, etag: e.etag, kept: own, marked: null };
    if (own) {
      e.own = answer;
      this.ownBytes += e.length;
    }
    return answer;
  }

  /**
   * Surface B's body for a hit (markCached), in one Buffer. A hit answered within half a millisecond
   * (most) reports 0 ms: a kept answer keeps that body, within the same quarter of maxBytes, so
   * its later hits decode, allocate and copy nothing.
   */
  markedBody(hit: CachedAnswer, elapsedMs: number): Buffer {
    if (elapsedMs >= 0.5) return markCached(hit.body, elapsedMs);
    if (hit.marked !== null) return hit.marked;
    // At 0 ms the marked body is shorter than the kept one ("0", "true" for "false").
    const keep = hit.kept && this.ownBytes + hit.body.length <= this.maxBytes / 4;
    const marked = markCached(hit.body, 0, keep);
    if (keep) {
      hit.marked = marked;
      if (marked !== hit.body) this.ownBytes += marked.length;
    }
    return marked;
  }

  private drop(e: Entry): void {
    this.entries.delete(e.key);
    if (e.own === null) return;
    const { body, marked } = e.own;
    this.ownBytes -= e.length + (marked !== null && marked !== body ? marked.length : 0);
  }

  /**
   * Keeps `body` (a string is encoded straight into the arena) and answers its bytes as kept, for
   * hashing; null when it is larger than the whole cache. `etag`: the body's entity tag (etag.ts),
   * computed once so a hit costs no hashing ('' for none), or a function of the kept bytes.
   */
  set(key: string, body: Buffer | string, type: string, seconds: number, note: unknown = null, etag: string | ((bytes: Buffer) => string) = ''): Buffer | null {
    const length = typeof body === 'string' ? Buffer.byteLength(body) : body.length;
    if (length > this.maxBytes) return null;
    const replaced = this.entries.get(key);
    if (replaced) this.drop(replaced);
    this.arena ??= Buffer.allocUnsafeSlow(this.maxBytes);
    const offset = this.reserve(length);
    if (typeof body === 'string') this.arena.write(body, offset, length);
    else body.copy(this.arena, offset);
    const bytes = this.arena.subarray(offset, offset + length);
    const entry: Entry = {
      key, offset, length, type, expires: this.now() + seconds * 1000, generation: this.generation, note,
      etag: typeof etag === 'string' ? etag : etag(bytes), own: null,
    };
    this.entries.set(key, entry);
    this.order.push(entry);
    // Answers replaced or expired behind a long-lived oldest one: dropped before they outnumber the kept.
    if (this.order.length - this.first > 4 * this.maxEntries) {
      this.order = this.order.slice(this.first).filter((e) => this.entries.get(e.key) === e);
      this.first = 0;
    }
    return bytes;
  }

  /**
   * The arena's next `length` bytes, wrapping to its start when they do not fit before its end.
   * Answers lie in the ring in the order they were kept, which is `order`: those in the way are
   * always the oldest.
   */
  private reserve(length: number): number {
    if (this.head + length > this.maxBytes) {
      this.evictWhile((e) => e.offset >= this.head);
      this.head = 0;
    }
    const from = this.head;
    const to = from + length;
    // An empty answer is in the way where it starts, or it would stop the eviction before those after it.
    this.evictWhile((e) => e.offset < Math.max(to, from + 1) && e.offset + Math.max(e.length, 1) > from);
    this.evictWhile(() => this.entries.size >= this.maxEntries);
    this.head = to;
    return from;
  }

  private evictWhile(inTheWay: (e: Entry) => boolean): void {
    for (let e = this.oldest(); e !== null && inTheWay(e); e = this.oldest()) {
      this.drop(e);
      this.first++;
    }
    // Dropped from the front once they are most of the array, so each entry is moved at most once more.
    if (this.first > 1024 && this.first * 2 > this.order.length) {
      this.order = this.order.slice(this.first);
      this.first = 0;
    }
  }

  /** The oldest entry still kept, or null. */
  private oldest(): Entry | null {
    while (this.first < this.order.length) {
      const e = this.order[this.first];
      if (this.entries.get(e.key) === e) return e;
      this.first++;
    }
    return null;
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

const TIMING = Buffer.from('"response_time_ms":');
const TIMING_TAIL = /^"response_time_ms":\d+,"cached":false}(}?)$/;

/**
 * Surface B reports its own timing and whether the answer was cached (the last two members of its
 * envelope, or of its `meta`, its last member). Only the few bytes of that tail are decoded and
 * rewritten, in a copy: `body` is a hit's, shared with other hits, and is not written. `body` itself
 * when it has no such tail. `kept`: the copy is kept by the cache (bytes of its own, not a slice
 * of the shared pool that a young answer may use).
 */
export function markCached(body: Buffer, elapsedMs: number, kept = false): Buffer {
  const at = body.lastIndexOf(TIMING);
  if (at < 0) return body;
  const end = TIMING_TAIL.exec(body.toString('latin1', at));
  if (!end) return body;
  const tail = `"response_time_ms":${Math.max(0, Math.round(elapsedMs))},"cached":true}${end[1]}`;
  const out = kept ? Buffer.allocUnsafeSlow(at + tail.length) : Buffer.allocUnsafe(at + tail.length);
  body.copy(out, 0, 0, at);
  out.write(tail, at, 'latin1');
  return out;
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

/** Whether this answer carries a tag: its route's rule, and an answer that may be stored (not `no-store`). */
export function answerIsTagged(req: FastifyRequest, reply: FastifyReply): boolean {
  return routeTagsAnswers(req.method, req.routeOptions.config) && !String(reply.getHeader('Cache-Control') ?? '').includes('no-store');
}

/**
 * The response cache's key: method, surface, the answer's owner (` k<key id>`) and what else it
 * varies with (` v<value>`), the URL without credentials, and a POST's body.
 */
export function cacheKeyOf(method: string, surface: string, owner: string, vary: string, url: string, body: string): string {
  return `${method} ${surface}${owner}${vary} ${url} ${body}`;
}

/**
 * Whether the front door may answer this URL again from what this route keeps: a GET whose key is
 * the URL alone (no owner, no header it varies with), routed by its URL alone (no Catalog-Surface),
 * with no credential in it.
 */
function learnable(req: FastifyRequest, config: FastifyContextConfig): boolean {
  return req.method === 'GET' && req.headers['catalog-surface'] === undefined && req.cacheKey === cacheKeyOf('GET', config.surface ?? '', '', '', req.url, '');
}

export function installCache(app: FastifyInstance, cache: ResponseCache, front: FrontDoor | null = null): void {
  app.decorateRequest('cacheKey', null);
  app.decorateRequest('cacheNote', null);
  // Runs after auth, the rate limit and the tier gate (registered later), so an unauthenticated or
  // refused request never reads the cache. A GET is looked up on request: a hit skips reading and
  // validating the input, which the same URL passed when its answer was kept. A POST is keyed on
  // its body, so it is looked up once the body is parsed and validated.
  // Callback-style hooks, here and in the other per-request hooks: no promise per hook per request.
  const lookUp = (req: FastifyRequest, reply: FastifyReply, done: HookHandlerDoneFunction) => {
    const config = req.routeOptions.config;
    const seconds = config?.cacheSeconds;
    if (!seconds) return done();
    reply.header('Cache-Control', `private, max-age=${seconds}`);
    const body = req.method === 'POST' ? JSON.stringify(req.body ?? null) : '';
    const owner = config.cachePerKey ? ` k${req.principal?.keyId ?? '-'}` : '';
    // What else the answer depends on besides the URL (V2 region=auto reads the request headers).
    const vary = config.cacheVary ? ` v${config.cacheVary(req)}` : '';
    req.cacheKey = cacheKeyOf(req.method, config.surface ?? '', owner, vary, withoutCredentials(req.url), body);
    const hit = cache.get(req.cacheKey);
    if (hit) {
      // Learned on a second request, not the first: a URL asked once (a crawler's) never fills the front door's map.
      if (front && learnable(req, config)) front.learn(req.url, config);
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
      reply.send(config.surface === 'v1b' ? cache.markedBody(hit, reply.elapsedTime) : hit.body);
      return;
    }
    reply.header('X-Cache', 'MISS');
    done();
  };
  app.addHook('onRequest', (req, reply, done) => (req.method === 'POST' ? done() : lookUp(req, reply, done)));
  app.addHook('preHandler', (req, reply, done) => (req.method === 'POST' ? lookUp(req, reply, done) : done()));
  app.addHook('onSend', (req, reply, payload, done) => {
    if (reply.statusCode !== 200) {
      // An error is not the answer the route's freshness was set for: no client may keep it.
      if (req.cacheKey !== null && reply.statusCode !== 304) reply.removeHeader('X-Cache').header('Cache-Control', 'no-store');
      return done(null, payload);
    }
    // A route may tag its own answer (api/record-bytes.ts): it is not hashed again.
    const given = reply.getHeader('ETag') as string | undefined;
    const tagged = answerIsTagged(req, reply);
    const caching = req.cacheKey !== null && reply.getHeader('X-Cache') === 'MISS';
    if (!tagged && !caching) return done(null, payload);
    // Strings are JSON and SVG answers; a Buffer is an image (a PNG chart). A kept answer is
    // encoded once, into the cache, and tagged from the bytes kept; the socket writes the payload.
    if (typeof payload !== 'string' && !Buffer.isBuffer(payload)) return done(null, payload);
    let etag = given ?? '';
    let body: string | Buffer = payload;
    if (caching) {
      const kept = cache.set(req.cacheKey!, payload, String(reply.getHeader('content-type') ?? 'application/json'),
        req.routeOptions.config!.cacheSeconds!, req.cacheNote, tagged ? (given ?? ((bytes) => (etag = entityTag(bytes)))) : '');
      if (!kept && tagged && !given) etag = entityTag((body = Buffer.from(payload)));
    } else if (!given) {
      // Encoded once: the socket writes the bytes that were hashed, not the string encoded again.
      etag = entityTag((body = typeof payload === 'string' ? Buffer.from(payload) : payload));
    }
    if (!tagged) return done(null, body);
    if (!given) reply.header('ETag', etag);
    if (!noneMatchHits(req.headers['if-none-match'], etag)) return done(null, body);
    reply.code(304).removeHeader('Content-Type');
    done(null, '');
  });
}
