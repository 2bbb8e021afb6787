import { KEEPER } from './compact-profile.js';

/**
 * Compact forms (compact-profile.ts) by listing id, left where they were written: a bulk load's
 * forms arrive in one Int32Array a batch, and the arena keeps those arrays and, for each listing,
 * which one and where. Matching a million listings then makes no object per listing for V8 to
 * trace, and no copy of a form (first touches of fresh memory are what costs here).
 */
export class CompactArena {
  private arrays: Int32Array[] = [];
  /** By id, side by side (one cache line for both): its array + 1 (0: none kept), and its offset there. */
  private where = new Int32Array(2048);

  /** Keeps `h` (which is never written again) and returns its number for `set`. */
  adopt(h: Int32Array): number {
    this.arrays.push(h);
    return this.arrays.length - 1;
  }

  /** Listing `id`'s form is at `offset` of adopted array `array`; `value` goes in its KEEPER slot. */
  set(id: number, array: number, offset: number, value: number): void {
    if (2 * id >= this.where.length) this.grow(id);
    this.where[2 * id] = array + 1;
    this.where[2 * id + 1] = offset;
    this.arrays[array][offset + KEEPER] = value;
  }

  has(id: number): boolean {
    return 2 * id < this.where.length && this.where[2 * id] !== 0;
  }

  /** The array listing `id`'s form is in (it must have one); its offset is `offset(id)`. */
  array(id: number): Int32Array {
    return this.arrays[this.where[2 * id] - 1];
  }

  offset(id: number): number {
    return this.where[2 * id + 1];
  }

  private grow(id: number): void {
    let n = this.where.length;
    while (n <= 2 * id) n *= 2;
    const where = new Int32Array(n);
    where.set(this.where);
    this.where = where;
  }
}
