import type { FastifyRequest } from 'fastify';
/** Which wire shape a request is answered in; decides envelopes and presenters. */
export type Surface = 'v1a' | 'v1b' | 'v2' | 'account' | 'meta' | 'mcp';

declare module 'fastify' {
  interface FastifyContextConfig {
    surface?: Surface;
    /** false on the few endpoints that need no key (health, registration, OAuth discovery). */
    auth?: boolean;
    /** Server-side cache lifetime in seconds (spec 8.3), keyed on the full query. */
    cacheSeconds?: number;
    /** The cached answer is the key's own (it carries per-key links): cached per key id, never shared. */
    cachePerKey?: boolean;
    /** false: no ETag and no 304 (the answer is per request, or the request has an effect that must run). */
    etag?: boolean;
    /** Anything else the answer depends on, read from the request (a header); part of the cache key. */
    cacheVary?: (req: FastifyRequest) => string;
    /** A POST that creates or changes something: a retry with the same Idempotency-Key must not repeat it. */
    idempotent?: boolean;
  }
}
