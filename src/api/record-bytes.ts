import { createHash } from 'node:crypto';
import type { FastifyReply } from 'fastify';
import fastJson from 'fast-json-stringify';
import type { TSchema } from 'typebox';
import type { ListingView } from '../catalog/listing-views.js';
import type { Listing } from '../domain/listing.js';
import { answerIsTagged } from '../http/cache.js';
import { TwoGenerationCache } from '../domain/id-caches.js';

const COMMA = Buffer.from(',');
/** What Fastify sends JSON as; a reply that is bytes, or has a serializer of its own, gets no Content-Type from it. */
export const JSON_TYPE = 'application/json; charset=utf-8';
/** Pages kept per generation (up to two), and the largest kept: a search page of 20 is about 26 KB. */
const PAGES = 128;
const LARGEST_KEPT_PAGE = 64 * 1024;

/**
 * The records of listing views as serialized bytes, kept per listing object and reused while the
 * view is the same: a search page is mostly listings served before, and serializing and encoding
 * their records was most of what a search answer cost (bench/RESULTS.md). A listing object is never
 * changed, only replaced when the listing is read again (read-cache.ts), and `ListingView.stamp`
 * names everything else a presenter reads, so a kept record is the one the presenter would make.
 */
export class RecordBytes {
  private readonly kept = new WeakMap<Listing, Kept>();
  /**
   * The last answer made for an envelope's text, with the kept records it holds: the same text and
   * the same records are the same bytes, so a popular page is not joined and hashed again (nor is
   * a new 26 KB buffer made per request, which the garbage collector pays for). Bounded: at most
   * 2 x PAGES pages of up to LARGEST_KEPT_PAGE bytes (16 MB).
   */
  private readonly pages = new TwoGenerationCache<string, Page>(PAGES);
  /** The record schema's serializer, for answers made without a reply (pageOf). */
  private ownSerializer: ((record: unknown) => string) | null = null;

  /** `present` makes a record of a view; `schema` is the record's response schema. */
  constructor(private readonly present: (v: ListingView) => unknown, private readonly schema: TSchema) {}

  /**
   * The answer the route's serializer would write for `envelope` with `views`' records in its array
   * member `field` (empty in `envelope`), as bytes: the envelope serialized alone, the kept records
   * spliced in. The route's response schema still describes the answer. `extra` gives members a
   * record gets per request (`,"name":value`, serialized), written after its kept members, as the
   * serializer writes members added last to a free-form record.
   *
   * Where the answer carries a tag (http/cache.ts `answerIsTagged`), it is set from the parts: the
   * envelope's bytes, each record's digest (kept with the record) and its extra members, so the
   * page is not hashed whole (a strong tag still: any byte that differs changes a part's hash).
   */
  page(reply: FastifyReply, envelope: Record<string, unknown>, field: string, views: readonly ListingView[], extra?: (v: ListingView) => string): Buffer {
    const text = String(reply.serialize(envelope));
    const serialize = reply.compileSerializationSchema(this.schema as never) as (record: unknown) => string;
    reply.type(JSON_TYPE);
    const page = this.assemble(text, field, serialize, answerIsTagged(reply.request, reply), views, extra);
    if (page.tag !== null) reply.header('ETag', page.tag);
    return page.bytes;
  }

  /**
   * The same tagged answer made without a reply (the front door's, http/front-door.ts QueryRoute):
   * `envelopeText` is the route's serializer for its 200 (the one `reply.serialize` uses), and the
   * records are serialized by a serializer compiled from the record schema.
   */
  pageOf(envelopeText: (envelope: Record<string, unknown>) => string, envelope: Record<string, unknown>, field: string, views: readonly ListingView[]): { bytes: Buffer; tag: string } {
    this.ownSerializer ??= fastJson(this.schema as never) as (record: unknown) => string;
    const page = this.assemble(envelopeText(envelope), field, this.ownSerializer, true, views);
    return { bytes: page.bytes, tag: page.tag! };
  }

  private assemble(
    text: string, field: string, serialize: (record: unknown) => string, tagged: boolean, views: readonly ListingView[], extra?: (v: ListingView) => string,
  ): Page {
    const split = splitOf(text, field);
    const records = views.map((v) => this.record(v, serialize));
    const known = extra ? undefined : this.pages.get(text);
    if (known && (known.tag !== null || !tagged) && sameRecords(known.records, records)) return tagged ? known : { records: known.records, bytes: known.bytes, tag: null };
    const head = Buffer.from(text.slice(0, split));
    const tail = Buffer.from(text.slice(split));
    const tag = tagged ? createHash('sha1').update(`${head.length} ${tail.length} ${views.length}\n`).update(head).update(tail) : null;
    const parts: Buffer[] = [head];
    for (let i = 0; i < views.length; i++) {
      const record = records[i];
      if (i > 0) parts.push(COMMA);
      // A record's digest is made the first time a tagged page needs it.
      if (tag) tag.update((record.digest ??= createHash('sha1').update(record.bytes).digest()));
      if (!extra) {
        parts.push(record.bytes);
        continue;
      }
      const members = extra(views[i]);
      // The kept record without its closing brace, then the members and the brace.
      parts.push(record.bytes.subarray(0, record.bytes.length - 1), Buffer.from(`${members}}`));
      tag?.update(`${members.length} ${members}`);
    }
    parts.push(tail);
    const page: Page = { records, bytes: Buffer.concat(parts), tag: tag && `"${tag.digest('base64url')}"` };
    if (!extra && page.bytes.length <= LARGEST_KEPT_PAGE) this.pages.set(text, page);
    return page;
  }

  private record(v: ListingView, serialize: (record: unknown) => string): Kept {
    const stamp = v.stamp;
    const hit = this.kept.get(v.listing);
    if (hit?.stamp === stamp) return hit;
    const text = serialize(this.present(v));
    // A memory of its own: a kept slice of Buffer's shared 8 KB pool would keep the whole pool alive.
    const bytes = Buffer.allocUnsafeSlow(Buffer.byteLength(text));
    bytes.write(text);
    const kept: Kept = { stamp, bytes, digest: null };
    this.kept.set(v.listing, kept);
    return kept;
  }
}

/**
 * The answer the route's serializer would write for `envelope` with `records` in its array member
 * `field` (empty in `envelope`), as bytes, for the answers of up to a hundred records that nothing
 * keeps (the batch lookups). The serializer builds its text by appending thousands of small
 * pieces, and counting and encoding that text flattens it first, which cost several times the
 * serializing (bench/RESULTS.md, "Large answers"): a record at a time, each text stays small.
 * A record is serialized by the items schema of `field` in the route's own 200 schema.
 */
export function recordsAnswer(reply: FastifyReply, envelope: Record<string, unknown>, field: string, records: readonly unknown[]): Buffer {
  const { text, split } = serializedEnvelope(reply, envelope, field);
  const serialize = reply.compileSerializationSchema(recordSchema(reply, field) as never) as (record: unknown) => string;
  const parts: Buffer[] = [Buffer.from(text.slice(0, split))];
  for (let i = 0; i < records.length; i++) {
    if (i > 0) parts.push(COMMA);
    parts.push(Buffer.from(serialize(records[i])));
  }
  parts.push(Buffer.from(text.slice(split)));
  reply.type(JSON_TYPE);
  return Buffer.concat(parts);
}

/** The items schema of the array member `field` in the route's 200 response schema. */
function recordSchema(reply: FastifyReply, field: string): TSchema {
  type Shape = { properties?: Record<string, { items?: TSchema }> };
  const ok = (reply.request.routeOptions.schema?.response as Record<number, Shape> | undefined)?.[200];
  const items = ok?.properties?.[field]?.items;
  if (!items) throw new Error(`no array member ${field} in the route's 200 schema`);
  return items;
}

/** The envelope as the route's serializer writes it, and where its empty array member `field` opens. */
function serializedEnvelope(reply: FastifyReply, envelope: Record<string, unknown>, field: string): { text: string; split: number } {
  const text = String(reply.serialize(envelope));
  return { text, split: splitOf(text, field) };
}

/** Where the empty array member `field` of a serialized envelope opens. */
function splitOf(text: string, field: string): number {
  // Quotes inside a JSON string are escaped, so the member's key cannot appear in a value.
  const mark = `"${field}":[]`;
  const at = text.indexOf(mark);
  if (at < 0 || text.indexOf(mark, at + 1) >= 0) throw new Error(`no single empty ${field} in the envelope`);
  return at + mark.length - 1;
}

interface Kept { stamp: string; bytes: Buffer; digest: Buffer | null }

interface Page { records: Kept[]; bytes: Buffer; tag: string | null }

function sameRecords(a: Kept[], b: Kept[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}
