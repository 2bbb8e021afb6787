import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, describe, expect, it } from 'vitest';
import { shippedRates } from '../../src/catalog/fx-service.js';
import { MAX_LINE_BYTES, parseLines, type ParsedBatch } from '../../src/catalog/ingest-lines.js';
import { parseInWorker } from '../../src/catalog/ingest-parallel.js';
import { profileOfListing } from '../../src/domain/listing-profile.js';
import { blockingKeys, compactProfile, decodeProfile } from '../../src/domain/matching/index.js';
import { listingUuid } from '../../src/domain/listing-id.js';
import { plainRecord, rec } from '../helpers/records.js';

// The worker runs the TypeScript sources here, as the compiled build runs ingest-worker.js.
const runner = { url: new URL('../helpers/ts-worker.mjs', import.meta.url), argv: [new URL('../../src/catalog/ingest-worker.js', import.meta.url).href] };
const rates = shippedRates();
// Records carry no observed_at, so both sides stamp the wall clock: compare everything else.
// Batches may be cut elsewhere (the workers' pieces): compare what they hold, in order.
const stable = (batches: ParsedBatch[]) => ({
  records: batches.flatMap((b) => b.records.map(plainRecord).map(({ observedAt: _o, ...r }) => ({
    ...r, stored: { ...r.stored, createdEventTail: r.stored?.createdEventTail?.replace(/"updated_at":"[^"]*"/, '') },
  }))),
  rejections: batches.flatMap((b) => b.rejections),
  lines: batches.reduce((n, b) => n + b.lines, 0),
  bytes: batches[batches.length - 1].bytes,
});

const dir = mkdtempSync(join(tmpdir(), 'parallel-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
/** The text as a file, which parseInWorker reads itself. */
function file(name: string, text: string | Buffer): { path: string } {
  const path = join(dir, name);
  writeFileSync(path, text);
  return { path };
}

async function all(it: AsyncIterable<ParsedBatch>): Promise<ParsedBatch[]> {
  const out: ParsedBatch[] = [];
  for await (const b of it) out.push(b);
  return out;
}

function input(): string[] {
  const lines: string[] = [];
  for (let i = 0; i < 230; i++) {
    // Some titles beyond ASCII, some lines ending in \r\n: each line is decoded alone, its \r dropped.
    const title = `${i % 5 ? '' : 'Điện thoại 【Ready Stock】 '}Xiaomi Redmi Note ${i % 17} Pro ${i % 3 ? '256GB' : '128GB'}`;
    const { observed_at: _o, ...r } = rec({ sku: `S${i}`, title, price: `${100 + i}.50` });
    const line = i % 41 === 7 ? '{not json' : i % 53 === 9 ? JSON.stringify({ ...r, currency: 'XYZ' }) : i % 61 === 0 ? '   ' : JSON.stringify(r);
    lines.push(i % 7 === 3 ? `${line}\r` : line);
  }
  return lines;
}

describe('parsing in a worker thread', () => {
  it('yields the batches parseLines yields, profiles included', async () => {
    const text = input().join('\n') + '\n';
    const here = await all(parseLines(Readable.from([text]), { batchSize: 50, rates, now: () => new Date(), prepare: true }));
    // Small chunks: lines cross chunk boundaries.
    const chunks = text.match(/[\s\S]{1,997}/g)!.map((c) => Buffer.from(c));
    // Small pieces over three workers: records come back from each in turn, in input order.
    const there = await all(parseInWorker(Readable.from(chunks), 50, rates, () => true, { ...runner, workers: 3, pieceBytes: 3000 }));
    expect(stable(there)).toEqual(stable(here));
    // From a file, read ahead a little at a time (four pieces out at most).
    const fromFile = await all(parseInWorker(file('input.ndjson', text), 50, rates, () => true, { ...runner, workers: 3, pieceBytes: 3000, inFlightBytes: 12000 }));
    expect(stable(fromFile)).toEqual(stable(here));
    expect(there.length).toBeGreaterThan(3);
    for (const b of there.slice(0, -1)) expect(b.records.length).toBeGreaterThanOrEqual(50);
    expect(there.reduce((n, b) => n + b.records.length, 0)).toBeGreaterThan(200);
    expect(there.flatMap((b) => b.rejections).length).toBeGreaterThan(5);
    for (const r of there.flatMap((b) => b.records)) {
      expect(r.matchProfile).toEqual(profileOfListing(r));
      expect(r.prepared!.keys).toEqual(blockingKeys(r.matchProfile!));
      expect(decodeProfile(r.prepared!.profileText)).toEqual(r.matchProfile);
      expect(r.prepared!.uuid).toBe(listingUuid(r.source, r.sku));
      expect(r.prepared!.compact).toEqual(compactProfile(r.matchProfile!));
    }
  }, 20_000);

  it('attaches profiles to the records of the pieces that went out while the caller wanted them', async () => {
    const lines = Array.from({ length: 400 }, (_, i) => JSON.stringify(rec({ sku: `S${i}`, title: `Widget ${i} Pro` }))).join('\n');
    let asked = 0;
    const chunks = lines.match(/[\s\S]{1,4000}/g)!.map((c) => Buffer.from(c));
    const there = await all(parseInWorker(Readable.from(chunks), 1000, rates, () => asked++ < 2, { ...runner, pieceBytes: 8000 }));
    const records = there.flatMap((b) => b.records);
    expect(records).toHaveLength(400);
    const prepared = records.filter((r) => r.prepared);
    expect(prepared.length).toBeGreaterThan(10);
    expect(prepared.length).toBeLessThan(200);
    expect(records.slice(0, prepared.length)).toEqual(prepared);
    for (const r of prepared) expect(r.matchProfile).toEqual(profileOfListing(r));
    for (const r of records.slice(prepared.length)) expect([r.matchProfile, r.prepared]).toEqual([undefined, undefined]);
  }, 20_000);

  it('keeps going when a batch holds more input than may be in flight, and when the writer is slow', async () => {
    const lines = Array.from({ length: 3000 }, (_, i) => JSON.stringify(rec({ sku: `S${i}` }))).join('\n');
    const chunks = lines.match(/[\s\S]{1,4096}/g)!;
    let records = 0;
    let batches = 0;
    for await (const b of parseInWorker(Readable.from(chunks), 1000, rates, () => true, { ...runner, inFlightBytes: 64 << 10, pieceBytes: 16 << 10 })) {
      records += b.records.length;
      if (batches++ === 0) await new Promise((r) => setTimeout(r, 200)); // the worker waits meanwhile
    }
    expect(records).toBe(3000);
  }, 20_000);

  it('ends the input at a line over the limit and reports it', async () => {
    const long = JSON.stringify(rec({ sku: 'L', description: 'x'.repeat(MAX_LINE_BYTES + 100_000) }));
    const lines = Buffer.from([JSON.stringify(rec({ sku: 'A' })), long, JSON.stringify(rec({ sku: 'B' }))].join('\n'));
    // As a file is read: 64 KiB chunks.
    const chunks = Array.from({ length: Math.ceil(lines.length / 65536) }, (_, i) => lines.subarray(i * 65536, (i + 1) * 65536));
    const there = await all(parseInWorker(Readable.from(chunks), 10, rates, () => true, runner));
    expect(there.flatMap((b) => b.records).map((r) => r.sku)).toEqual(['A']);
    expect(there.flatMap((b) => b.rejections)).toEqual([{ line: 2, field: '(line)', reason: expect.stringMatching(/longer than/) }]);
    const fromFile = await all(parseInWorker(file('long.ndjson', lines), 10, rates, () => true, runner));
    expect(stable(fromFile)).toEqual(stable(there));
  }, 20_000);

  it('a file that cannot be read ends the parse with its error', async () => {
    await expect(all(parseInWorker({ path: join(dir, 'missing.ndjson') }, 10, rates, () => true, runner))).rejects.toThrow(/ENOENT/);
  });

  it('ends the input at a line over the limit that a piece holds whole, as parseLines does', async () => {
    const long = JSON.stringify(rec({ sku: 'L', description: 'x'.repeat(MAX_LINE_BYTES + 10) }));
    const text = [JSON.stringify(rec({ sku: 'A' })), '', JSON.stringify(rec({ sku: 'B' })), long, JSON.stringify(rec({ sku: 'C' }))].join('\n');
    const here = await all(parseLines(Readable.from([text]), { batchSize: 10, rates, now: () => new Date(), prepare: false }));
    const there = await all(parseInWorker(Readable.from([Buffer.from(text)]), 10, rates, () => false, { ...runner, pieceBytes: 2 * MAX_LINE_BYTES }));
    expect(there.flatMap((b) => b.records).map((r) => r.sku)).toEqual(['A', 'B']);
    expect(there.flatMap((b) => b.rejections)).toEqual([{ line: 4, field: '(line)', reason: expect.stringMatching(/longer than/) }]);
    expect(stable(there).rejections).toEqual(stable(here).rejections);
  }, 20_000);
});
