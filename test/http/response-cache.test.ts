import { describe, expect, it } from 'vitest';
import { ResponseCache } from '../../src/http/cache.js';

const body = (s: string) => Buffer.from(s);

describe('ResponseCache', () => {
  it('answers until the entry expires or any catalog change', () => {
    let t = 0;
    const cache = new ResponseCache(10, () => t);
    cache.set('a', body('A'), 'application/json', 60);
    expect(cache.get('a')?.body.toString()).toBe('A');
    t = 59_999;
    expect(cache.get('a')).not.toBeNull();
    t = 60_000;
    expect(cache.get('a')).toBeNull();
    cache.set('b', body('B'), 'application/json', 60);
    cache.invalidate();
    expect(cache.get('b')).toBeNull();
  });

  it('stays within its size, keeping what is read', () => {
    const cache = new ResponseCache(100, () => 0);
    cache.set('hot', body('H'), 'application/json', 60);
    for (let i = 0; i < 1000; i++) {
      cache.set(`k${i}`, body(String(i)), 'application/json', 60);
      expect(cache.get('hot')).not.toBeNull();
    }
    const kept = Array.from({ length: 1000 }, (_, i) => cache.get(`k${i}`)).filter((e) => e !== null).length;
    expect(kept).toBeGreaterThanOrEqual(50);
    expect(kept).toBeLessThan(100);
    expect(cache.get('k999')?.body.toString()).toBe('999');
    expect(cache.get('k0')).toBeNull();
  });
});
