import type { ServerResponse } from 'node:http';
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { Container } from '../../container.js';
import { STREAM_KINDS, streamMatches, type StreamFilter } from '../../domain/stream-filter.js';
import { STREAM_MIN_TIER } from '../../domain/tier.js';
import type { StreamSink } from '../../events/stream-hub.js';
import { invalidInput } from '../../http/request-error.js';
import { sendRateLimited } from '../../http/rate-limit.js';
import { countriesOf, priceBounds } from '../params.js';
import { frameStreamEvent } from './stream-present.js';
import { MAX_STREAM_PRODUCT_IDS, PriceStreamQuery, ProductStreamQuery, StreamHeaders, streamResponses } from './stream-schemas.js';

/** How long a client refused for too many streams is told to wait: a closed stream frees its slot at once. */
const FULL_RETRY_SECONDS = 5;

/** The V2 event streams (spec 4.4, 6.1; docs/realtime.md). */
export function streamRoutes(c: Container): FastifyPluginAsync {
  return async (base) => {
    const app = base.withTypeProvider<TypeBoxTypeProvider>();
    // A stream never ends by itself: on shutdown each is told why and ended, so the server can close.
    app.addHook('preClose', (done) => {
      c.streams.closeAll('shutdown');
      done();
    });

    // No HEAD twin: a stream never ends, so a HEAD would hold a slot and a socket for nothing.
    app.get('/v2/products/stream', {
      exposeHeadRoute: false,
      // A stream is never tagged: no 304.
      config: { minTier: STREAM_MIN_TIER, etag: false },
      schema: {
        summary: 'Server-Sent Events: product_update and stock_change of the listings matching the filters',
        querystring: ProductStreamQuery, headers: StreamHeaders, response: streamResponses(),
      },
    }, async (req, reply) => {
      const q = req.query;
      return openStream(c, req, reply, {
        stream: 'products', accountId: accountOf(req), ...common(c, q), sources: q.platform ? [q.platform.toLowerCase()] : undefined,
        countries: countriesOf(q.country, 'country'), inStock: q.in_stock,
      });
    });

    app.get('/v2/prices/stream', {
      exposeHeadRoute: false,
      config: { minTier: STREAM_MIN_TIER, etag: false },
      schema: {
        summary: 'Server-Sent Events: price_change of the listings matching the filters',
        querystring: PriceStreamQuery, headers: StreamHeaders, response: streamResponses(),
      },
    }, async (req, reply) => {
      const q = req.query;
      return openStream(c, req, reply, {
        stream: 'prices', accountId: accountOf(req), ...common(c, q), productIds: productIdsOf(q.product_ids), minChangePct: q.min_price_change_pct,
      });
    });
  };
}

const accountOf = (req: FastifyRequest) => req.principal!.accountId ?? req.principal!.keyId;

function common(c: Container, q: { category?: string; min_price?: number; max_price?: number }) {
  const bounds = priceBounds(c.fx, q.min_price, q.max_price, 'SGD', ['min_price', 'max_price']);
  return {
    categoryLike: q.category?.trim() ? q.category.trim().toLowerCase() : undefined,
    minPriceSgdMinor: bounds.minPriceSgdMinor, maxPriceSgdMinor: bounds.maxPriceSgdMinor,
  };
}

function productIdsOf(text: string | undefined): ReadonlySet<number> | undefined {
  if (text === undefined) return undefined;
  const ids = new Set(text.split(',').map((s) => Number(s.trim())));
  if (ids.size > MAX_STREAM_PRODUCT_IDS) {
    throw invalidInput(['query', 'product_ids'], `product_ids takes at most ${MAX_STREAM_PRODUCT_IDS} ids, got ${ids.size}`, 'too_long');
  }
  return ids;
}

/** A hijacked HTTP response as a stream's sink. */
function responseSink(res: ServerResponse): StreamSink {
  res.on('error', () => undefined); // a write racing the client's disconnect; 'close' follows
  const open = () => !res.writableEnded && !res.destroyed;
  return {
    write: (text) => {
      if (!open()) return;
      // Corked by hand, so the write goes out now: Node otherwise uncorks on the next tick, which a
      // long chain of promise work elsewhere (the search index catching up) can put off for a while.
      res.cork();
      res.write(text);
      res.uncork();
    },
    buffered: () => res.writableLength,
    drained: () => new Promise<void>((resolve) => {
      if (!open() || !res.writableNeedDrain) return resolve();
      const done = () => {
        res.off('drain', done);
        res.off('close', done);
        resolve();
      };
      res.on('drain', done);
      res.on('close', done);
    }),
    end: () => {
      if (open()) res.end();
    },
    destroy: () => res.destroy(),
    onClose: (fn) => res.once('close', fn),
  };
}

/**
 * Takes one of the key's stream slots (or answers 429 before anything is streamed), then hands
 * the response to the stream hub. The request was authenticated, validated, counted and tier-gated
 * by the hooks every route runs.
 */
async function openStream(c: Container, req: FastifyRequest, reply: FastifyReply, filter: StreamFilter): Promise<void> {
  const principal = req.principal!;
  const max = c.config.streams.maxPerKey;
  const lease = await c.streamSlots.acquire(`key:${principal.keyId}`, max);
  if (!lease) {
    const retryAfter = FULL_RETRY_SECONDS;
    await sendRateLimited(reply, { limit: max, used: max, remaining: 0, retryAfter, resetAt: new Date(c.clock.now().getTime() + retryAfter * 1000) },
      `At most ${max} concurrent streams per key; close one (its slot is free at once) and retry.`);
    return;
  }
  const limitScope = lease.scope === 'shared' || !c.config.redisUrl ? 'deployment' : 'instance';
  if (limitScope === 'instance') req.log.warn('stream slots unreachable in Redis: the per-key stream limit is counted on this instance only');
  const header = (req.headers as { 'last-event-id'?: string })['last-event-id'];
  const started = Date.now();
  reply.hijack();
  const res = reply.raw;
  try {
    // What the hooks set (rate-limit headers, CORS) goes out too: a hijacked reply skips onSend.
    for (const [name, value] of Object.entries(reply.getHeaders())) if (value !== undefined) res.setHeader(name, value);
    res.writeHead(200, {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-cache, no-transform',
      'x-accel-buffering': 'no',
      'x-request-id': req.id,
      'x-content-type-options': 'nosniff',
    });
    await c.streams.start({
      name: filter.stream,
      keyId: principal.keyId,
      kinds: STREAM_KINDS[filter.stream],
      lastEventId: header === undefined ? null : Number(header),
      accepts: (e) => streamMatches(filter, e),
      listingIds: filter.productIds,
      frame: frameStreamEvent,
      sink: responseSink(res),
      info: { limit_scope: limitScope, max_streams_per_key: max },
      onClose: (reason) => {
        lease.release();
        req.log.info({ stream: filter.stream, reason, ms: Date.now() - started }, 'stream closed');
      },
    });
  } catch (err) {
    lease.release();
    req.log.warn({ err: { message: (err as Error).message } }, 'stream failed to start');
    res.destroy();
  }
}
