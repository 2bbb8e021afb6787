import { describe, expect, it } from 'vitest';
import { TwoGenerationCache } from '../../src/domain/id-caches.js';

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
