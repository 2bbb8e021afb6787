/**
 * The terms each listing is on, as term numbers in one growable array (no object per listing):
 * what the index reads to take a listing off its old terms when its text changes. A replaced
 * range is left behind and the array compacted once half of it is stale.
 */
export class DocTerms {
  private pool = new Uint32Array(1 << 16);
  private used = 0;
  private stale = 0;
  private start = new Uint32Array(0);
  private count = new Uint16Array(0);

  get(id: number): Uint32Array {
    return id < this.count.length ? this.pool.subarray(this.start[id], this.start[id] + this.count[id]) : this.pool.subarray(0, 0);
  }

  set(id: number, terms: number[]): void {
    if (id >= this.count.length) this.grow(id);
    this.stale += this.count[id];
    if (this.used + terms.length > this.pool.length) {
      if (this.stale * 2 > this.used) this.compact();
      if (this.used + terms.length > this.pool.length) {
        const bigger = new Uint32Array(Math.max(this.pool.length * 2, this.used + terms.length));
        bigger.set(this.pool.subarray(0, this.used));
        this.pool = bigger;
      }
    }
    this.pool.set(terms, this.used);
    this.start[id] = this.used;
    this.count[id] = terms.length;
    this.used += terms.length;
  }

  private grow(id: number): void {
    const size = Math.max(id + 1, Math.ceil(this.count.length * 1.5), 1024);
    const start = new Uint32Array(size);
    start.set(this.start);
    const count = new Uint16Array(size);
    count.set(this.count);
    this.start = start;
    this.count = count;
  }

  private compact(): void {
    const pool = new Uint32Array(this.pool.length);
    let used = 0;
    for (let id = 0; id < this.count.length; id++) {
      const n = this.count[id];
      if (!n) continue;
      pool.set(this.pool.subarray(this.start[id], this.start[id] + n), used);
      this.start[id] = used;
      used += n;
    }
    this.pool = pool;
    this.used = used;
    this.stale = 0;
  }
}
