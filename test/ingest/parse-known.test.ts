import { afterEach, describe, expect, it, vi } from 'vitest';
import { shippedRates } from '../../src/catalog/fx-service.js';
import { emptyBatch, knownBytes, parseLine } from '../../src/catalog/ingest-lines.js';
import { lineHash } from '../../src/catalog/line-hash.js';
import type { KnownLine } from '../../src/domain/ingest-record.js';
import { rec } from '../helpers/records.js';

/**
 * The parse side beside a store that holds listings: a line found stored as it is (its observed_at
 * aside) becomes a KnownLine, read from its bytes without decoding or JSON.parse where the bytes
 * allow, and otherwise from its parsed text.
 */
const day = (d: number) => `2026-11-2${d}T10:00:00.000Z`;

/** A store of one listing per stored line, and the look-ups asked of it. */
function storeOf(lines: string[]) {
  const rows = new Map<string, { id: number; hash: string | null }>();
  lines.forEach((text, i) => {
    const raw = JSON.parse(text) as Record<string, unknown>;
    rows.set(`${String(raw.source).toLowerCase()}|${String(raw.sku)}`, { id: i + 1, hash: lineHash(text, raw) });
  });
  const asked: string[] = [];
  const known = (source: string, sku: string) => {
    asked.push(`${source}|${sku}`);
    return rows.get(`${source}|${sku}`);
  };
  return { known, asked };
}

/** As a parse worker reads a line: its bytes first (knownBytes), then, unless known, its text with the look-up made. */
function parseBytes(line: Buffer, known: (source: string, sku: string) => { id: number; hash: string | null } | undefined) {
  const out = emptyBatch();
  const opts = { rates: shippedRates(), now: () => new Date(day(9)), prepare: false, known };
  const looked = knownBytes(line, 7, out, opts);
  if (looked !== true) parseLine(line.toString('utf8'), 7, out, opts, looked);
  return out;
}
const parse = (text: string, known: Parameters<typeof parseBytes>[1]) => parseBytes(Buffer.from(text), known);

afterEach(() => { vi.restoreAllMocks(); });

describe('a known line, read without parsing or decoding', () => {
  it('the same line a day later is known from its bytes: one look-up, no JSON.parse', () => {
    const stored = JSON.stringify(rec({ sku: 'A', observed_at: day(0) }));
    const { known, asked } = storeOf([stored]);
    const parsed = vi.spyOn(JSON, 'parse');
    const out = parse(JSON.stringify(rec({ sku: 'A', observed_at: day(1) })), known);
    expect(parsed).not.toHaveBeenCalled();
    expect(out.records).toEqual([]);
    expect(out.known).toEqual([expect.objectContaining({ known: true, line: 7, id: 1, observedAt: day(1), hash: lineHash(stored, JSON.parse(stored) as Record<string, unknown>) })]);
    expect(asked).toEqual(['shopee_sg|A']);
  });

  it('without observed_at it is observed now; a source in capitals is the same listing', () => {
    const { observed_at: _o, ...r } = rec({ sku: 'A' });
    const { known } = storeOf([JSON.stringify(r)]);
    const out = parse(JSON.stringify(r), known);
    expect(out.known).toEqual([expect.objectContaining({ id: 1, observedAt: day(9) })]);
    const upper = JSON.stringify({ ...r, source: 'SHOPEE_SG' });
    expect(parse(upper, storeOf([upper]).known).known).toEqual([expect.objectContaining({ id: 1 })]);
  });

  it('a changed line is parsed and normalized after one look-up, not two', () => {
    const { known, asked } = storeOf([JSON.stringify(rec({ sku: 'A', price: '10.00' }))]);
    const out = parse(JSON.stringify(rec({ sku: 'A', price: '11.00', observed_at: day(1) })), known);
    expect(out.known).toEqual([]);
    expect(out.records).toEqual([expect.objectContaining({ sku: 'A', price: '11.00' })]);
    expect(asked).toEqual(['shopee_sg|A']);
  });

  it('where the text misleads (a nested sku first, an escaped value) the parsed line decides, as before', () => {
    const nested = (at: string) => JSON.stringify({ metadata: { sku: 'B' }, ...rec({ sku: 'A', observed_at: at }) });
    const { known, asked } = storeOf([nested(day(0)), JSON.stringify(rec({ sku: 'B' }))]);
    const out = parse(nested(day(1)), known);
    expect(out.known).toEqual([expect.objectContaining({ id: 1, observedAt: day(1) })]);
    expect(asked).toEqual(['shopee_sg|B', 'shopee_sg|A']);
    const escaped = JSON.stringify(rec({ sku: 'C', observed_at: day(1) })).replace('.000Z"', '.000\\u005a"');
    const c = storeOf([escaped]);
    // lineHash refuses a value written escaped, so such a line is never known: it is normalized.
    expect(parse(escaped, c.known)).toMatchObject({ known: [], records: [expect.objectContaining({ sku: 'C', observedAt: day(1) })] });
  });
});

describe('a known line, read from its bytes, in any script', () => {
  it('a line in Thai a day later is known undecoded, counted once, its text decoded only when asked', () => {
    const line = (at: string) => JSON.stringify(rec({ sku: 'A', title: 'นมผง Nelix Summit 【พร้อมส่ง】', observed_at: at }));
    const { known, asked } = storeOf([line(day(0))]);
    const parsed = vi.spyOn(JSON, 'parse');
    const out = parseBytes(Buffer.from(line(day(1))), known);
    expect(parsed).not.toHaveBeenCalled();
    expect(out).toMatchObject({ lines: 1, records: [], rejections: [] });
    expect(out.known).toEqual([expect.objectContaining({ known: true, line: 7, id: 1, observedAt: day(1) })]);
    expect((out.known[0] as KnownLine).text()).toBe(line(day(1)));
    expect(asked).toEqual(['shopee_sg|A']);
  });

  it('a changed line, a new one and one with an escaped key are parsed after one look-up each, as from text', () => {
    const { known, asked } = storeOf([JSON.stringify(rec({ sku: 'A', price: '10.00' }))]);
    const changed = parseBytes(Buffer.from(JSON.stringify(rec({ sku: 'A', price: '11.00', observed_at: day(1) }))), known);
    expect(changed).toMatchObject({ lines: 1, known: [], records: [expect.objectContaining({ sku: 'A', price: '11.00' })] });
    expect(parseBytes(Buffer.from(JSON.stringify(rec({ sku: 'N' }))), known).records).toEqual([expect.objectContaining({ sku: 'N' })]);
    expect(asked).toEqual(['shopee_sg|A', 'shopee_sg|N']);
    const escaped = JSON.stringify(rec({ sku: 'A', price: '10.00' })).replace('"sku"', '"\\u0073ku"');
    // Another text than the one stored: not known, normalized (and then found unchanged by the writer).
    expect(parseBytes(Buffer.from(escaped), known)).toMatchObject({ known: [], records: [expect.objectContaining({ sku: 'A' })] });
    expect(asked).toEqual(['shopee_sg|A', 'shopee_sg|N', 'shopee_sg|A']);
  });

  it('bytes that are not UTF-8 are known by their parsed text where that is what was stored, after one look-up', () => {
    const raw = Buffer.from(JSON.stringify(rec({ sku: 'A', title: 'Phone \u0001', observed_at: day(1) })));
    raw[raw.indexOf(1)] = 0xff;
    const text = raw.toString('utf8');
    const { known, asked } = storeOf([text.replace(day(1), day(0))]);
    expect(parseBytes(raw, known)).toMatchObject({ lines: 1, records: [], known: [expect.objectContaining({ id: 1, observedAt: day(1) })] });
    expect(asked).toEqual(['shopee_sg|A']);
  });
});
