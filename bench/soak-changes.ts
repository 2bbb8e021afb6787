import { writeFileSync } from 'node:fs';
import Big from 'big.js';
import { Rng } from '../src/demo/prng.js';

/** A listing as the soak and the drills know it: the record they sent and its current price. */
export interface Listing { record: Record<string, unknown>; price: string }

/**
 * A new price 3 % to 15 % up or down from `price`, with the same number of decimals (so a
 * currency without minor units keeps none), exact; never equal to `price`.
 */
export function movedPrice(price: string, rng: Rng): string {
  const decimals = price.split('.')[1]?.length ?? 0;
  const pct = rng.int(3, 15) * (rng.chance(0.5) ? 1 : -1);
  let next = new Big(price).times(new Big(100 + pct).div(100)).round(decimals, Big.roundHalfUp);
  if (next.eq(price)) next = new Big(price).plus(new Big(1).div(new Big(10).pow(decimals)));
  return next.toFixed(decimals);
}

/**
 * Writes an NDJSON file of `n` price changes of distinct listings drawn with `seed`, observed at
 * `at`, and moves each listing's current price. Returns the number written.
 */
export function changeFile(file: string, listings: Listing[], n: number, seed: number, at: Date): number {
  const rng = new Rng(seed);
  const picked = new Set<number>();
  while (picked.size < Math.min(n, listings.length)) picked.add(rng.int(0, listings.length - 1));
  const lines: string[] = [];
  for (const i of picked) {
    const l = listings[i];
    l.price = movedPrice(l.price, rng);
    lines.push(JSON.stringify({ ...l.record, price: l.price, observed_at: at.toISOString() }));
  }
  writeFileSync(file, lines.join('\n') + '\n');
  return lines.length;
}
