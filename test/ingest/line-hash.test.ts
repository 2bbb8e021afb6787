import { describe, expect, it } from 'vitest';
import { lineHash, unparsedBytesHash } from '../../src/catalog/line-hash.js';
import { rec } from '../helpers/records.js';

const hashOf = (text: string) => lineHash(text, JSON.parse(text) as Record<string, unknown>);

describe('lineHash: what a line says apart from when it was observed', () => {
  it('is the same for the line observed at another time, whatever the spacing around the value', () => {
    const a = JSON.stringify(rec({ observed_at: '2026-11-20T10:00:00.000Z' }));
    const b = JSON.stringify(rec({ observed_at: '2026-11-21T10:00:00Z' }));
    expect(hashOf(a)).toMatch(/^[A-Za-z0-9+/]{27}=$/);
    expect(hashOf(b)).toBe(hashOf(a));
    expect(hashOf(a.replace('"observed_at":', '"observed_at" :\t'))).not.toBe(hashOf(a));
    expect(hashOf(a.replace('"observed_at":', '"observed_at" :\t'))).toBe(hashOf(b.replace('"observed_at":', '"observed_at" :\t')));
  });

  it('differs when anything else differs, nested members and spelling included', () => {
    const base = hashOf(JSON.stringify(rec()));
    expect(hashOf(JSON.stringify(rec({ price: '499.01' })))).not.toBe(base);
    expect(hashOf(JSON.stringify(rec({ metadata: { sold: 1 } })))).not.toBe(hashOf(JSON.stringify(rec({ metadata: { sold: 2 } }))));
    expect(hashOf(JSON.stringify(rec({ price: 499 })))).not.toBe(hashOf(JSON.stringify(rec({ price: '499' }))));
  });

  it('hashes a line without observed_at whole, a nested observed_at included', () => {
    const { observed_at: _o, ...r } = rec();
    const a = JSON.stringify({ ...r, metadata: { observed_at: '2026-01-01' } });
    const b = JSON.stringify({ ...r, metadata: { observed_at: '2026-01-02' } });
    expect(hashOf(a)).not.toBeNull();
    expect(hashOf(a)).not.toBe(hashOf(b));
  });

  it('is null when the value cannot be told apart in the text: the key twice, or written escaped', () => {
    expect(hashOf(JSON.stringify(rec({ metadata: { observed_at: 'x' } })))).toBeNull();
    expect(hashOf(JSON.stringify(rec()).replace('"observed_at"', '"observed\\u005fat"'))).toBeNull();
    expect(hashOf(JSON.stringify(rec()).replace('"2026-11-20T10:00:00.000Z"', '"2026-11-20T10:00:00.000\\u005a"'))).toBeNull();
  });

  it('cuts a value that is not a string as well (normalizing decides whether it is a time)', () => {
    expect(hashOf(JSON.stringify(rec({ observed_at: null })))).toBe(hashOf(JSON.stringify(rec({ observed_at: 5 }))));
  });
});

describe('unparsedBytesHash: the same hash from the line\'s bytes, neither decoded nor parsed', () => {
  const bytes = (text: string) => unparsedBytesHash(Buffer.from(text));

  it('gives lineHash and the observed_at of a line that writes them plainly, or none, in any script', () => {
    const { observed_at: _o, ...r } = rec();
    const thai = JSON.stringify(rec({ title: 'นมผง Nelix Summit 【พร้อมส่ง】 hàng chính hãng', observed_at: '2026-11-21T10:00:00Z' }));
    const lines = [
      JSON.stringify(rec({ observed_at: '2026-11-21T10:00:00Z' })), thai, thai.replace('"observed_at":', '"observed_at" :\t'),
      JSON.stringify(rec({ observed_at: '2026-11-21T10:00:00Z 😀' })),
      // A line longer than any before it.
      JSON.stringify(rec({ description: 'ข'.repeat(40_000), observed_at: '2026-11-21T10:00:00Z' })),
    ];
    for (const text of lines) {
      const observedAt = (JSON.parse(text) as { observed_at: string }).observed_at;
      expect(bytes(text)).toEqual({ hash: hashOf(text), observedAt });
    }
    const none = JSON.stringify(r);
    expect(bytes(none)).toEqual({ hash: hashOf(none), observedAt: undefined });
  });

  it('is null when observed_at is not a plain string or comes twice; a nested one gives a hash no stored line has', () => {
    expect(bytes(JSON.stringify(rec({ observed_at: null })))).toBeNull();
    expect(bytes(JSON.stringify(rec({ observed_at: 5 })))).toBeNull();
    expect(bytes(JSON.stringify(rec()).replace('.000Z"', '.000\\u005a"'))).toBeNull();
    expect(bytes(JSON.stringify(rec({ metadata: { observed_at: 'x' } })))).toBeNull();
    const { observed_at: _o, ...r } = rec();
    const nested = JSON.stringify({ ...r, metadata: { observed_at: '2026-01-01' } });
    expect(bytes(nested)!.hash).not.toBe(hashOf(nested));
  });

  it('differs from the hash of the text where the bytes are not UTF-8 (that text holds U+FFFD)', () => {
    const text = JSON.stringify(rec({ title: 'Phone X', observed_at: '2026-11-21T10:00:00Z' }));
    const raw = Buffer.from(text.replace('Phone X', 'Phone \u0001'));
    raw[raw.indexOf(1)] = 0xff;
    const decoded = raw.toString('utf8');
    expect(decoded).toContain('\ufffd');
    expect(unparsedBytesHash(raw)!.hash).not.toBe(hashOf(decoded));
  });
});
