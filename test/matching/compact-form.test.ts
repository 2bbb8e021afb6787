import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { generateDemoRecords } from '../../src/demo/generate.js';
import { profileOfListing } from '../../src/domain/listing-profile.js';
import { CompactArena } from '../../src/domain/matching/compact-arena.js';
import { ALIGN, compactLength, KEEPER, logPrice, numbersAgreement } from '../../src/domain/matching/compact-profile.js';
import { buildProfile, type MatchProfile } from '../../src/domain/matching/index.js';
import { compactProfile, CompactWriter, mayBeExact, mayBeExactAt, writeCompact } from '../../src/domain/matching/prefilter.js';
import { numberAgreement } from '../../src/domain/matching/signals.js';

function demoProfiles(n: number, seed: number): MatchProfile[] {
  return [...generateDemoRecords({ listings: n, seed, historyDays: 0 })].map((r) => profileOfListing({
    title: r.title, description: r.description ?? null, brand: r.brand ?? null, gtin: r.gtin ?? null, mpn: r.mpn ?? null,
    category: r.category ?? null, specs: r.specs ?? null, priceUsd: r.price,
  }));
}

describe('compact forms', () => {
  it('read the same wherever they lie: one after another in a shared array, or each in its own', () => {
    const profiles = demoProfiles(400, 21);
    const w = new CompactWriter(64); // small, so it grows while forms are written
    const at = profiles.map((p) => writeCompact(p, w));
    let ruledOut = 0;
    for (let i = 0; i < profiles.length; i++) {
      expect(at[i] % ALIGN).toBe(0);
      // The form at its offset is the form on its own.
      expect(w.h.slice(at[i], at[i] + compactLength(w.h, at[i]))).toEqual(compactProfile(profiles[i]));
      for (let j = 0; j < profiles.length; j += 7) {
        const shared = mayBeExactAt(w.h, at[i], w.h, at[j]);
        expect(shared).toBe(mayBeExact(profiles[i], compactProfile(profiles[j])));
        if (!shared) ruledOut++;
      }
    }
    expect(ruledOut).toBeGreaterThan(10_000);
  });

  it('keep the log of the price, and say when there is none (a price of one cent included)', () => {
    const of = (priceUsd: string | null) => compactProfile(buildProfile({ title: 'acme widget 2000', brand: null, gtin: null, mpn: null, category: null, specs: null, priceUsd }));
    expect(logPrice(of('0.01'), 0)).toBe(0);
    expect(logPrice(of('399.99'), 0)).toBeCloseTo(Math.log(39999), 12);
    expect(logPrice(of(null), 0)).toBeNaN();
  });

  it('agree on version numbers where the strings agree (refinements included), by hashes', () => {
    const version = fc.array(fc.integer({ min: 0, max: 12 }), { minLength: 1, maxLength: 3 }).map((parts) => parts.join('.'));
    const numbers = fc.uniqueArray(version, { maxLength: 3 });
    const form = (ns: string[]) => {
      const p = buildProfile({ title: 'acme widget', brand: null, gtin: null, mpn: null, category: null, specs: null, priceUsd: null });
      return compactProfile({ ...p, numbers: ns });
    };
    fc.assert(fc.property(numbers, numbers, (a, b) => {
      expect(numbersAgreement(form(a), 0, form(b), 0)).toBe(numberAgreement(a, b));
    }), { numRuns: 1000 });
    expect(numbersAgreement(form(['10.4']), 0, form(['10.4.6']), 0)).toBe('agree');
    expect(numbersAgreement(form(['10.4']), 0, form(['10.41']), 0)).toBe('disjoint');
  });
});

describe('CompactArena', () => {
  it('keeps forms where their arrays hold them, and a value beside each', () => {
    const profiles = demoProfiles(30, 3);
    const arena = new CompactArena();
    const batches = [profiles.slice(0, 10), profiles.slice(10)].map((batch) => {
      const w = new CompactWriter();
      const at = batch.map((p) => writeCompact(p, w));
      return { array: arena.adopt(w.h), at };
    });
    // Every other listing kept, under ids far apart (the arena grows to them).
    for (let i = 0; i < profiles.length; i += 2) {
      const b = i < 10 ? batches[0] : batches[1];
      arena.set(5000 + 100 * i, b.array, b.at[i < 10 ? i : i - 10], 7000 + i);
    }
    for (let i = 0; i < profiles.length; i++) {
      const id = 5000 + 100 * i;
      expect(arena.has(id)).toBe(i % 2 === 0);
      if (i % 2) continue;
      const h = arena.array(id);
      const at = arena.offset(id);
      expect(h[at + KEEPER]).toBe(7000 + i);
      expect(mayBeExactAt(h, at, h, at)).toBe(mayBeExact(profiles[i], compactProfile(profiles[i])));
    }
    expect(arena.has(1)).toBe(false);
    expect(arena.has(10 ** 7)).toBe(false);
  });
});
