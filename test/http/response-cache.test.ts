import { describe, expect, it } from 'vitest';
import { markCached, ResponseCache } from '../../src/http/cache.js';

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

  // First in, first out: a working set as large as the cache, read round and round (a crawler,
  // the benchmark's 5,000 SKUs), stays whole; a two-generation cache of the same size dropped it
  // generation by generation (SKU detail at 1M: 15,249 -> 3,358 req/s).
  it('keeps the newest maxEntries answers, so a cycle over that many stays cached', () => {
    const cache = new ResponseCache(100, () => 0);
    for (let round = 0; round < 3; round++) for (let i = 0; i < 150; i++) if (!cache.get(`k${i % 100}`)) cache.set(`k${i % 100}`, body(String(i)), 'application/json', 60);
    expect(Array.from({ length: 100 }, (_, i) => cache.get(`k${i}`)).every((e) => e !== null)).toBe(true);
    cache.set('new', body('N'), 'application/json', 60);
    expect(cache.get('k0')).toBeNull();
    expect(cache.get('new')).not.toBeNull();
  });

  it('keeps at most maxBytes of bodies, the oldest making room, and never one larger than that', () => {
    const cache = new ResponseCache(100, () => 0, 1000);
    for (let i = 0; i < 5; i++) cache.set(`k${i}`, Buffer.alloc(300), 'application/json', 60);
    // 5 x 300 bytes do not fit in 1,000: the two oldest made room.
    expect([0, 1, 2, 3, 4].map((i) => cache.get(`k${i}`) !== null)).toEqual([false, false, true, true, true]);
    cache.set('k3', Buffer.alloc(600), 'application/json', 60);
    // Replacing k3 (300 -> 600) writes it anew where the ring goes on: what lies in the way (k2 at
    // its end, then k4 at its start) makes room.
    expect(['k2', 'k3', 'k4'].map((k) => cache.get(k) !== null)).toEqual([false, true, false]);
    cache.set('huge', Buffer.alloc(1001), 'application/json', 60);
    expect(cache.get('huge')).toBeNull();
    expect(cache.get('k3')).not.toBeNull();
    cache.invalidate();
    for (let i = 0; i < 3; i++) cache.set(`n${i}`, Buffer.alloc(300), 'application/json', 60);
    expect([0, 1, 2].map((i) => cache.get(`n${i}`) !== null)).toEqual([true, true, true]);
  });

  it('never answers bytes other than those kept for the key, however the ring wraps', () => {
    let seed = 4242;
    const rand = () => ((seed = (seed * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff);
    const cache = new ResponseCache(50, () => 0, 4096);
    const kept = new Map<string, string>();
    const order: string[] = [];
    for (let i = 0; i < 5000; i++) {
      const key = `k${Math.floor(rand() * 80)}`;
      if (rand() < 0.5) {
        // Strings (encoded into the ring, multi-byte characters included) and Buffers, 0-1,500 bytes.
        // Now and then an empty answer, which must not shield the answers after it from eviction.
        const text = rand() < 0.05 ? '' : `${i}:${'é€x'.repeat(Math.floor(rand() * 500))}`;
        cache.set(key, rand() < 0.5 ? text : Buffer.from(text), 'application/json', 60);
        kept.set(key, text);
        order.splice(order.indexOf(key) >>> 0, order.includes(key) ? 1 : 0);
        order.push(key);
      } else {
        const hit = cache.get(key);
        if (hit) expect(hit.body.toString()).toBe(kept.get(key));
      }
      // The newest answer is always there, whole.
      const newest = order.at(-1);
      if (newest) expect(cache.get(newest)?.body.toString()).toBe(kept.get(newest));
    }
  });

  it('evicts an answer a new one overwrites even behind an empty answer at the same place', () => {
    const cache = new ResponseCache(100, () => 0, 100);
    const put = (k: string, n: number) => cache.set(k, Buffer.alloc(n, k), 'application/json', 60);
    put('a', 60);
    put('z', 0); // at 60, where b begins
    put('b', 30); // 60-90
    put('c', 40); // wraps to 0-40: a goes
    put('d', 20); // 40-60
    put('e', 10); // 60-70: over the start of b
    const b = cache.get('b');
    expect(b === null || b.body.equals(Buffer.alloc(30, 'b'))).toBe(true);
    expect(cache.get('e')?.body.equals(Buffer.alloc(10, 'e'))).toBe(true);
  });

  it('marks a kept surface B answer cached with the hit\'s timing, in a copy', () => {
    const kept = (ms: number, meta: boolean) => Buffer.from(meta ? `{"a":[1],"meta":{"response_time_ms":${ms},"cached":false}}` : `{"a":[1],"response_time_ms":${ms},"cached":false}`);
    const shared = kept(42, true);
    expect(markCached(shared, 3).toString()).toBe('{"a":[1],"meta":{"response_time_ms":3,"cached":true}}');
    // The kept bytes are every hit's: the next hit finds them as they were.
    expect(shared.toString()).toBe('{"a":[1],"meta":{"response_time_ms":42,"cached":false}}');
    expect(markCached(kept(42, false), 3.6).toString()).toBe('{"a":[1],"response_time_ms":4,"cached":true}');
    // A timing of more digits than the kept one: the answer grows.
    expect(markCached(kept(0, true), 12345).toString()).toBe('{"a":[1],"meta":{"response_time_ms":12345,"cached":true}}');
    const other = Buffer.from('{"response_time_ms":1,"cached":false,"more":1}');
    expect(markCached(other, 3)).toBe(other);
  });

  it('keeps a kept answer\'s body marked at 0 ms for its later hits, within the same room', () => {
    const cache = new ResponseCache(100, () => 0, 1100);
    const answer = '{"a":[1],"meta":{"response_time_ms":42,"cached":false}}'; // 56 bytes
    for (const k of ['a', 'b', 'c', 'd', 'e']) cache.set(k, answer, 'application/json', 60);
    const a = cache.get('a')!;
    const first = cache.markedBody(a, 0.2);
    expect(first.toString()).toBe('{"a":[1],"meta":{"response_time_ms":0,"cached":true}}');
    // The next hit sends those same bytes; one of 0.5 ms or more, a copy with its own timing.
    expect(cache.markedBody(cache.get('a')!, 0.4)).toBe(first);
    expect(cache.markedBody(cache.get('a')!, 2.5).toString()).toBe('{"a":[1],"meta":{"response_time_ms":3,"cached":true}}');
    expect(cache.get('a')!.body.toString()).toBe(answer);
    // 275 bytes for kept answers: a (56 + 53) and b (56 + 53) fit; c's own bytes fit, its marked
    // body would not, so each of its hits marks a copy; d is not kept at all.
    const b = cache.get('b')!;
    expect(cache.markedBody(b, 0)).toBe(cache.markedBody(b, 0));
    const c = cache.get('c')!;
    expect(c.kept).toBe(true);
    expect(cache.markedBody(c, 0)).not.toBe(cache.markedBody(c, 0));
    const d = cache.get('d')!;
    expect(d.kept).toBe(false);
    expect(cache.markedBody(d, 0).toString()).toBe(first.toString());
    // Once a and b are gone, their room (own and marked bytes) is free again.
    for (let i = 0; i < 30; i++) cache.set(`n${i}`, answer, 'application/json', 60);
    expect(cache.get('a')).toBeNull();
    const n = cache.get('n29')!;
    expect(cache.markedBody(n, 0)).toBe(cache.markedBody(n, 0));
    // An answer without surface B's tail is its own marked body.
    cache.set('plain', '{"x":1}', 'application/json', 60);
    const plain = cache.get('plain')!;
    expect(cache.markedBody(plain, 0)).toBe(plain.body);
  });

  // A hit's bytes may still be queued on a slow socket when the ring moves on over where they lay.
  it('answers a hit with bytes the ring can no longer reach, of their own up to a quarter of maxBytes', () => {
    const cache = new ResponseCache(100, () => 0, 1000);
    for (const k of ['a', 'b', 'c']) cache.set(k, Buffer.alloc(100, k), 'application/json', 60);
    const hits = ['a', 'b', 'c'].map((k) => cache.get(k)!.body);
    // 200 of the 250 bytes allowed hold a and b: their later hits send those same bytes; c's, a copy each time.
    expect(cache.get('a')!.body).toBe(hits[0]);
    expect(cache.get('b')!.body).toBe(hits[1]);
    expect(cache.get('c')!.body).not.toBe(hits[2]);
    // The ring wraps over all three: each hit's bytes are still what was kept.
    for (let i = 0; i < 12; i++) cache.set(`n${i}`, Buffer.alloc(100, 'n'), 'application/json', 60);
    expect(hits.map((b) => b.toString())).toEqual(['a', 'b', 'c'].map((k) => k.repeat(100)));
    expect(cache.get('a')).toBeNull();
    // Their room is free again once they are gone.
    const n = ['n9', 'n10', 'n11'].map((k) => cache.get(k)!.body);
    expect(cache.get('n9')!.body).toBe(n[0]);
    expect(cache.get('n10')!.body).toBe(n[1]);
    expect(cache.get('n11')!.body).not.toBe(n[2]);
    cache.invalidate();
    cache.set('x', Buffer.alloc(200, 'x'), 'application/json', 60);
    expect(cache.get('x')!.body).toBe(cache.get('x')!.body);
  });

  // The order of eviction is kept apart from the Map (whose oldest key is found by walking the holes
  // deletions leave): answers replaced again and again behind one that stays must not pile up there.
  it('keeps its eviction order no larger than a few times its entries, however keys are replaced', () => {
    const cache = new ResponseCache(10, () => 0, 1 << 20);
    cache.set('stays', body('S'), 'application/json', 60);
    for (let i = 0; i < 1000; i++) cache.set(`k${i % 3}`, body(String(i)), 'application/json', 60);
    expect((cache as unknown as { order: unknown[]; first: number }).order.length).toBeLessThanOrEqual(41);
    expect(cache.get('stays')?.body.toString()).toBe('S');
    expect(cache.get('k0')?.body.toString()).toBe('999');
    for (let i = 0; i < 20; i++) cache.set(`n${i}`, body('N'), 'application/json', 60);
    expect(cache.get('stays')).toBeNull();
    expect(Array.from({ length: 10 }, (_, i) => cache.get(`n${i + 10}`) !== null).every(Boolean)).toBe(true);
  });
});
