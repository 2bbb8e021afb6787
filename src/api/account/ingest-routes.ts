import { Readable, Transform, type TransformCallback } from 'node:stream';
import type { FastifyPluginAsync } from 'fastify';
import { Type } from 'typebox';
import type { IngestSummary } from '../../catalog/ingest.js';
import type { Container } from '../../container.js';
import { DomainError } from '../../domain/errors.js';
import { invalidInput } from '../../http/request-error.js';
import { CodedError, DetailValidation } from '../error-schemas.js';
import { withFields } from '../../domain/with-fields.js';

/** Records per transaction for a request: small enough that one batch is a short pause for everyone else. */
const HTTP_BATCH = 50;
/** A JSON array body is parsed whole, so it has a limit of its own; NDJSON streams. */
export const ARRAY_BODY_MAX = 16 * 1024 * 1024;

class BodyTooLarge extends Error {
  constructor(readonly limit: number) {
    super(`the body is larger than ${limit} bytes`);
  }
}

/** Passes the body through while counting it; past `limit` the stream fails with BodyTooLarge. */
class ByteLimit extends Transform {
  private seen = 0;
  constructor(private readonly limit: number) {
    super();
  }

  override _transform(chunk: Buffer, _enc: BufferEncoding, cb: TransformCallback): void {
    this.seen += chunk.length;
    if (this.seen > this.limit) return cb(new BodyTooLarge(this.limit));
    cb(null, chunk);
  }
}

const tooLarge = (limit: number, what: string, details?: Record<string, unknown>) => new DomainError(
  'PAYLOAD_TOO_LARGE',
  `${what} is larger than ${limit} bytes (INGEST_MAX_BYTES); split it into several requests or use \`catalog import\``,
  { max_bytes: limit, ...details },
);

/** The body's first non-blank character, to tell a JSON array from NDJSON; the stream given back still starts at byte 0. */
async function peek(body: Readable): Promise<{ first: string; body: Readable }> {
  // One iterator throughout: leaving a for-await early would destroy the body.
  const it = body[Symbol.asyncIterator]() as AsyncIterator<Buffer>;
  const head: Buffer[] = [];
  let first = '';
  while (!first) {
    const r = await it.next();
    if (r.done) break;
    head.push(r.value);
    first = r.value.toString('utf8').trimStart().charAt(0);
  }
  async function* all() {
    yield* head;
    for (let r = await it.next(); !r.done; r = await it.next()) yield r.value;
  }
  return { first, body: Readable.from(all(), { objectMode: false }) };
}

/** A JSON array body: its elements become the lines, numbered as elements. */
async function arrayLines(body: Readable, limit: number): Promise<Readable> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body) {
    size += (chunk as Buffer).length;
    if (size > limit) throw tooLarge(limit, 'a JSON array body (NDJSON has no such limit)');
    chunks.push(chunk as Buffer);
  }
  let records: unknown;
  try {
    records = JSON.parse(Buffer.concat(chunks).toString('utf8'));
  } catch {
    throw invalidInput(['body'], 'the body starts with [ but is not a JSON array', 'json_invalid');
  }
  if (!Array.isArray(records)) throw invalidInput(['body'], 'the body starts with [ but is not a JSON array', 'json_invalid');
  return Readable.from(records.map((r) => JSON.stringify(r) + '\n'));
}

const Summary = Type.Object({
  lines: Type.Integer({ description: 'non-blank lines read' }), inserted: Type.Integer(), updated: Type.Integer(), unchanged: Type.Integer(), rejected: Type.Integer(),
  rejections: Type.Array(Type.Object({ line: Type.Integer({ description: 'from 1 (element index + 1 for a JSON array)' }), field: Type.String(), reason: Type.String() })),
  events: Type.Integer({ description: 'change events written (price, stock, created)' }),
});
/** Documented, not validated: the body is a stream, read line by line. */
const NdjsonBody = Type.String({ description: 'one ingest record (docs/ingest.md) per line; or a JSON array of records' });
const NDJSON_TYPES = ['application/x-ndjson', 'application/json', 'text/plain'];
const documentBody = ({ schema, url }: { schema: object; url: string }) => ({ schema: withFields(schema, { body: NdjsonBody, consumes: NDJSON_TYPES }), url });

/**
 * POST /v1/ingest/products (pro and enterprise): the body is NDJSON, one ingest record per line,
 * sent as application/json (spec 4.5) or application/x-ndjson; a JSON array of records is also
 * taken. The body is streamed: stored as it arrives, in small transactions that let other requests
 * through, never held whole. Bad lines are reported by number while the good ones are stored.
 */
export function ingestRoutes(c: Container): FastifyPluginAsync {
  const maxBytes = c.config.ingestMaxBytes;
  return async (app) => {
    // In this plugin only: the body stays a stream (NDJSON is not one JSON document, and may be large).
    app.removeContentTypeParser('application/json');
    app.addContentTypeParser(['application/json', 'application/x-ndjson', 'text/plain'], (_req, payload, done) => done(null, payload));

    app.post('/v1/ingest/products', {
      config: { surface: 'v1a', minTier: 'pro', idempotent: true, swaggerTransform: documentBody },
      // Counted as the body streams (ByteLimit); Fastify's own check would hold the whole body.
      bodyLimit: maxBytes,
      schema: {
        tags: ['account'], summary: 'Ingest listings (NDJSON body; pro and enterprise)',
        description: 'One record per line in the format of docs/ingest.md. The body is streamed and stored as it arrives, '
          + `at most ${maxBytes} bytes (INGEST_MAX_BYTES; a JSON array body at most ${ARRAY_BODY_MAX}). Answers the summary: `
          + 'inserted, updated, unchanged, rejected and each rejection with its line number, field and reason. '
          + 'A body that passes the limit midway is 413; the lines before it were stored, and the 413 details count them.',
        response: { 200: Summary, 400: CodedError, 413: CodedError, 415: CodedError, 422: DetailValidation },
      },
    }, async (req, reply) => {
      const declared = Number(req.headers['content-length']);
      if (declared > maxBytes) {
        reply.header('Connection', 'close');
        throw tooLarge(maxBytes, 'the body');
      }
      // No body and no content type: Fastify parses nothing and hands no stream.
      const raw = req.body as Readable | undefined;
      if (!raw) throw invalidInput(['body'], 'the body is empty; send one JSON record per line', 'missing');
      const limited = raw.pipe(new ByteLimit(maxBytes));
      raw.on('error', (e) => limited.destroy(e));
      const { first, body } = await peek(limited);
      if (!first) throw invalidInput(['body'], 'the body is empty; send one JSON record per line', 'missing');
      const lines = first === '[' ? await arrayLines(body, Math.min(ARRAY_BODY_MAX, maxBytes)) : body;
      // What was stored so far, for the 413 of a body that passes the limit midway.
      const stored: { summary: IngestSummary | null } = { summary: null };
      try {
        const s = await c.ingest.ingestStream(lines, {
          now: () => c.clock.now(), batchSize: HTTP_BATCH, yieldBetweenBatches: true, onProgress: (sum) => { stored.summary = sum; },
        });
        return {
          lines: s.lines, inserted: s.inserted, updated: s.updated, unchanged: s.unchanged, rejected: s.rejected,
          rejections: s.rejections, events: s.events,
        };
      } catch (e) {
        if (!(e instanceof BodyTooLarge)) throw e;
        reply.header('Connection', 'close');
        const s = stored.summary;
        throw tooLarge(maxBytes, 'the body', {
          stored_lines: s?.lines ?? 0, inserted: s?.inserted ?? 0, updated: s?.updated ?? 0, unchanged: s?.unchanged ?? 0, rejected: s?.rejected ?? 0,
        });
      } finally {
        await c.tail.poke();
      }
    });
  };
}
