import { describe, expect, it } from 'vitest';
import { TwoGenerationCache, UnboundedMap } from '../../src/domain/id-caches.js';

describe('TwoGenerationCache', () => {
  it('keeps what is used, drops what is not, and holds at most two generations', () => {
    const c = new TwoGenerationCache<number, string>(3);
    for (const k of [1, 2, 3]) c.set(k, `v${k}`);
    c.set(4, 'v4'); // 1-3 age
    expect(c.get(1)).toBe('v1'); // back to the young generation
    c.set(5, 'v5');
    c.set(6, 'v6'); // young full (4, 1, 5): 2 and 3 are dropped with the old generation
    expect(c.get(2)).toBeUndefined();
    expect(c.get(3)).toBeUndefined();
    expect([1, 4, 5, 6].map((k) => c.get(k))).toEqual(['v1', 'v4', 'v5', 'v6']);
    c.set(1, 'w1');
    expect(c.get(1)).toBe('w1');
    c.delete(1);
    expect(c.get(1)).toBeUndefined();
    c.clear();
    expect(c.get(4)).toBeUndefined();
  });

  it('stays fast however many entries pass through it', () => {
    const c = new TwoGenerationCache<number, number>(1000);
    const started = performance.now();
    for (let i = 0; i < 300_000; i++) {
      c.set(i, i);
      c.get(i >> 1);
    }
    expect(performance.now() - started).toBeLessThan(2000);
  });
});

describe('UnboundedMap', () => {
  it('answers as one Map does across the Maps it chains, a key in exactly one of them', () => {
    // Four entries a Map: 200 random operations on 40 keys chain several, compared with a plain Map.
    const chained = new UnboundedMap<string, number>(4);
    const plain = new Map<string, number>();
    let seed = 7;
    const next = () => (seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) % 40;
    for (let i = 0; i < 200; i++) {
      const key = `k${next()}`;
      const op = next() % 4;
      if (op === 0) {
        chained.delete(key);
        plain.delete(key);
      } else {
        chained.set(key, i);
        plain.set(key, i);
      }
      expect(chained.size).toBe(plain.size);
    }
    expect(chained.size).toBeGreaterThan(4); // more than one Map
    for (let k = 0; k < 40; k++) {
      expect(chained.get(`k${k}`)).toBe(plain.get(`k${k}`));
    }
    chained.clear();
    expect(chained.size).toBe(0);
    expect(chained.get('k1')).toBeUndefined();
  });
});
