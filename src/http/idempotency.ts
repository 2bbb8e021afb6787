import { createCipheriv, createDecipheriv, createHash, randomBytes, type Hash } from 'node:crypto';
import { Readable, Transform, type TransformCallback } from 'node:stream';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { DomainError } from '../domain/errors.js';
import type { IdempotencyStore, StoredResponse } from '../store/types.js';
import { invalidInput } from './request-error.js';

/** How long a key's first answer is replayed; purged after. */
export const IDEMPOTENCY_TTL_MS = 24 * 3600_000;
export const IDEMPOTENCY_HEADER = 'idempotency-key';
export const REPLAYED_HEADER = 'Idempotent-Replayed';
const MAX_KEY_LENGTH = 255;
/** The answer's headers a replay repeats; the rest (request id, rate limits) belong to the replay itself. */
const KEPT_HEADERS = ['content-type', 'location', 'cache-control', 'pragma'];

/** The header as the OpenAPI document and the validator see it on every `idempotent` route. */
export const IdempotencyKeyHeader = Type.String({
  minLength: 1, maxLength: MAX_KEY_LENGTH,
  description: 'Makes a retry safe: the same key with the same request within 24 h answers the first response again '
    + '(with `Idempotent-Replayed: true`); with another body it is 422; while the first is still running, 409 (docs/sync.md).',
});

declare module 'fastify' {
  interface FastifyContextConfig {
    /** A POST that creates or changes something: takes an `Idempotency-Key` (http/idempotency.ts). */
    idempotent?: boolean;
  }
  interface FastifyRequest {
    idempotency: Claim | null;
  }
}

interface Claim {
  scope: string;
  /** What the store keeps of the key: its hash. */
  key: string;
  /** Seals the kept answer (it may carry a new secret: a client secret, a signing secret, an API key). */
  seal: Buffer;
  /** Known at once for a parsed body; for a streamed one when the stream has been read to its end. */
  fingerprint: () => string | null;
  settled: boolean;
}

/** Whose keys these are: the OAuth client, the API key, or (registration, no credential) the caller's address. */
function scopeOf(req: FastifyRequest): string {
  const p = req.principal;
  if (p?.clientId) return `client:${p.clientId}`;
  if (p) return `key:${p.keyId}`;
  return `ip:${req.ip}`;
}

function fingerprintHash(req: FastifyRequest, scope: string): Hash {
  return createHash('sha256').update(`${req.method}\n${req.url}\n${scope}\n`);
}

const isStream = (body: unknown): body is Readable => body instanceof Readable;

/** The parsed body as text; a route that takes its own validation errors may be handed one too deep to write out. */
function bodyText(body: unknown): string {
  try {
    return JSON.stringify(body ?? null);
  } catch {
    throw invalidInput(['body'], 'the body is nested too deeply', 'json_invalid');
  }
}

/** Reads a streamed body to its end into the hash, at most `limit` bytes. */
async function hashStream(body: Readable, hash: Hash, limit: number): Promise<string> {
  let seen = 0;
  for await (const chunk of body) {
    seen += (chunk as Buffer).length;
    if (seen > limit) throw new DomainError('PAYLOAD_TOO_LARGE', `the body is larger than ${limit} bytes`, { max_bytes: limit });
    hash.update(chunk as Buffer);
  }
  return hash.digest('hex');
}

/** Passes a streamed body on to the handler, hashing it on the way; the digest once it has ended. */
class HashingTap extends Transform {
  digest: string | null = null;
  constructor(private readonly hash: Hash) {
    super();
  }

  override _transform(chunk: Buffer, _enc: BufferEncoding, cb: TransformCallback): void {
    this.hash.update(chunk);
    cb(null, chunk);
  }

  override _flush(cb: TransformCallback): void {
    this.digest = this.hash.digest('hex');
    cb();
  }
}

/**
 * The store keeps the key's hash, and the answer sealed (AES-256-GCM) with a key derived from the
 * caller's key: a copy of the database holds no answer's secret, and only a retry can open it.
 */
function keyMaterial(scope: string, key: string): { id: string; seal: Buffer } {
  return {
    id: createHash('sha256').update(`id\n${scope}\n${key}`).digest('hex'),
    seal: createHash('sha256').update(`seal\n${scope}\n${key}`).digest(),
  };
}

function seal(body: Buffer, key: Buffer): Buffer {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  const sealed = Buffer.concat([cipher.update(body), cipher.final()]);
  return Buffer.concat([iv, cipher.getAuthTag(), sealed]);
}

function unseal(stored: Buffer, key: Buffer): Buffer {
  const decipher = createDecipheriv('aes-256-gcm', key, stored.subarray(0, 12));
  decipher.setAuthTag(stored.subarray(12, 28));
  return Buffer.concat([decipher.update(stored.subarray(28)), decipher.final()]);
}

function replay(reply: FastifyReply, r: StoredResponse, key: Buffer): FastifyReply {
  reply.code(r.status).headers(r.headers).header(REPLAYED_HEADER, 'true');
  return reply.send(unseal(r.body, key));
}

/**
 * `Idempotency-Key` on the routes marked `idempotent`: the first request with a key claims it (in
 * the store, so every instance sees it) and its answer is kept for 24 h; a retry with the same
 * key and the same request (method, path, credential, body) gets that answer again; another body
 * is a 422, a retry while the first still runs a 409. A server fault (5xx) or a request cut off
 * gives the key back, so the retry runs. Registered after authentication: keys are per credential.
 */
export function installIdempotency(app: FastifyInstance, store: IdempotencyStore, now: () => Date): void {
  app.decorateRequest('idempotency', null);

  // The hooks are the marked routes' own: every other route runs none of them.
  const preHandler = (req: FastifyRequest, reply: FastifyReply, done: (err?: Error) => void) => {
    if (req.headers[IDEMPOTENCY_HEADER] === undefined) return done();
    // A replay has answered: the handler must not run.
    claimOrReplay(req, reply).then((replayed) => { if (!replayed) done(); }, done);
  };

  /** Claims the key (true: answered from the store instead). */
  async function claimOrReplay(req: FastifyRequest, reply: FastifyReply): Promise<boolean> {
    const raw = req.headers[IDEMPOTENCY_HEADER]!;
    const key = Array.isArray(raw) ? raw.join(', ') : raw;
    if (!key.length || key.length > MAX_KEY_LENGTH) {
      throw invalidInput(['header', IDEMPOTENCY_HEADER], `Idempotency-Key must be 1 to ${MAX_KEY_LENGTH} characters`, key.length ? 'string_too_long' : 'string_too_short');
    }
    const scope = scopeOf(req);
    const material = keyMaterial(scope, key);
    const hash = fingerprintHash(req, scope);
    const streamed = isStream(req.body);
    const fingerprint = streamed ? null : hash.update(bodyText(req.body)).digest('hex');
    const at = now();
    const held = await store.claim({
      scope, key: material.id, fingerprint, createdAt: at.toISOString(), expiresAt: new Date(at.getTime() + IDEMPOTENCY_TTL_MS).toISOString(),
    }, at.toISOString());
    if (held === null) {
      if (!streamed) {
        req.idempotency = { scope, key: material.id, seal: material.seal, fingerprint: () => fingerprint, settled: false };
        return false;
      }
      const body = req.body as Readable;
      const tap = new HashingTap(hash);
      body.on('error', (e) => tap.destroy(e));
      req.body = body.pipe(tap);
      req.idempotency = { scope, key: material.id, seal: material.seal, fingerprint: () => tap.digest, settled: false };
      return false;
    }
    if (held.response === null) {
      throw new DomainError('CONFLICT', 'A request with this Idempotency-Key is still in progress; retry after it has finished.', { idempotency_key: key });
    }
    const limit = req.routeOptions.bodyLimit ?? app.initialConfig.bodyLimit ?? 1_048_576;
    const sent = streamed ? await hashStream(req.body as Readable, hash, limit) : fingerprint;
    if (sent !== held.fingerprint) {
      throw invalidInput(['header', IDEMPOTENCY_HEADER], 'this Idempotency-Key was used with another request (method, path or body); use a new key', 'idempotency_key_reused');
    }
    replay(reply, held.response, material.seal);
    return true;
  }

  const onSend = (req: FastifyRequest, reply: FastifyReply, payload: unknown, done: (err: Error | null, payload?: unknown) => void) => {
    const claim = req.idempotency;
    if (!claim || claim.settled) return done(null, payload);
    claim.settled = true;
    settle(claim, reply, payload).then((out) => done(null, out), (e: Error) => done(e));
  };

  async function settle(claim: Claim, reply: FastifyReply, payload: unknown): Promise<unknown> {
    const bytes = typeof payload === 'string' ? Buffer.from(payload) : Buffer.isBuffer(payload) ? payload : null;
    const fingerprint = claim.fingerprint();
    if (reply.statusCode >= 500 || bytes === null || fingerprint === null) {
      await store.release(claim.scope, claim.key);
      return payload;
    }
    const headers: Record<string, string> = {};
    for (const name of KEPT_HEADERS) {
      const v = reply.getHeader(name);
      if (v !== undefined) headers[name] = String(v);
    }
    await store.complete(claim.scope, claim.key, fingerprint, { status: reply.statusCode, headers, body: seal(bytes, claim.seal) });
    return bytes;
  }

  // A request that never reached onSend (cut off) leaves no claim behind.
  const giveBack = (req: FastifyRequest, done: () => void) => {
    const claim = req.idempotency;
    if (!claim || claim.settled) return done();
    claim.settled = true;
    store.release(claim.scope, claim.key).then(() => done(), () => done());
  };
  app.addHook('onRoute', (route) => {
    if (!route.config?.idempotent) return;
    const add = <T>(hooks: T | T[] | undefined, hook: T): T[] => [...(hooks === undefined ? [] : Array.isArray(hooks) ? hooks : [hooks]), hook];
    route.preHandler = add(route.preHandler, preHandler as never);
    route.onSend = add(route.onSend, onSend as never);
    route.onResponse = add(route.onResponse, ((req: FastifyRequest, _reply: FastifyReply, done: () => void) => giveBack(req, done)) as never);
    route.onRequestAbort = add(route.onRequestAbort, ((req: FastifyRequest, done: () => void) => giveBack(req, done)) as never);
  });
}

/** The expired keys' purge, run on a timer by whoever serves. */
export async function purgeIdempotencyKeys(store: IdempotencyStore, now: () => Date): Promise<number> {
  return store.purge(now().toISOString());
}
