/** Integer hash of two 32-bit values (murmur3 finalizer); the seed of every per-entity stream. */
export function mix32(a: number, b: number): number {
  let h = Math.imul((a ^ 0x9e3779b9) >>> 0, 0x85ebca6b) ^ b;
  h = Math.imul(h ^ (h >>> 16), 0x7feb352d);
  h = Math.imul(h ^ (h >>> 15), 0x846ca68b);
  return (h ^ (h >>> 16)) >>> 0;
}

/** Stream ids: each aspect of an entity draws from its own stream so adding draws to one never shifts another. */
export const STREAM = { product: 1, listing: 2, timeline: 3, layout: 4, salt: 5 } as const;

/**
 * mulberry32. Every product and listing gets its own generator seeded from (seed, stream, index),
 * so any listing can be rebuilt alone, in any order, with the same result.
 */
export class Rng {
  private s: number;
  constructor(seed: number) {
    this.s = seed >>> 0;
  }

  static for(seed: number, stream: number, index: number): Rng {
    return new Rng(mix32(mix32(seed, stream), index));
  }

  next(): number {
    let t = (this.s = (this.s + 0x6d2b79f5) | 0);
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  /** Integer in [lo, hi], both inclusive. */
  int(lo: number, hi: number): number {
    return lo + Math.floor(this.next() * (hi - lo + 1));
  }

  chance(p: number): boolean {
    return this.next() < p;
  }

  pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.next() * items.length)];
  }

  /** Index into `cumulative` (ascending running totals of weights). */
  weighted(cumulative: readonly number[]): number {
    const x = this.next() * cumulative[cumulative.length - 1];
    let i = 0;
    while (cumulative[i] <= x) i++;
    return i;
  }

  /** floor(mean + u): an integer count with the given mean and little variance. */
  count(mean: number): number {
    return Math.floor(mean + this.next());
  }
}

export function cumulative(weights: readonly number[]): number[] {
  let sum = 0;
  return weights.map((w) => (sum += w));
}

/** A bijection of uint32 (xor with a salt, then an odd multiplier): unique ids that do not look sequential. */
export function permute32(i: number, salt: number): number {
  const x = Math.imul((i ^ salt) >>> 0, 0x2c1b3c6d) >>> 0;
  return (x ^ (x >>> 16)) >>> 0;
}
