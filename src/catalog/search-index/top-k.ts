/**
 * The best `capacity` of a stream of (key, id) pairs: a higher key ranks first, equal keys by id
 * (descending, or ascending when `tieAscending`). A binary heap with the worst kept at the root,
 * so a candidate that cannot make the page costs one comparison.
 */
export class TopK {
  private readonly ids: Uint32Array;
  private readonly keys: Float64Array;
  private size = 0;

  constructor(private readonly capacity: number, private readonly tieAscending = false) {
    this.ids = new Uint32Array(capacity);
    this.keys = new Float64Array(capacity);
  }

  /** Would (key, id) enter now? Lets callers skip computing what they would push. */
  get floor(): number {
    return this.size < this.capacity ? -Infinity : this.keys[0];
  }

  push(key: number, id: number): void {
    if (this.capacity === 0) return;
    if (this.size < this.capacity) {
      let i = this.size++;
      while (i > 0) {
        const parent = (i - 1) >> 1;
        if (!this.better(this.keys[parent], this.ids[parent], key, id)) break;
        this.keys[i] = this.keys[parent];
        this.ids[i] = this.ids[parent];
        i = parent;
      }
      this.keys[i] = key;
      this.ids[i] = id;
      return;
    }
    if (!this.better(key, id, this.keys[0], this.ids[0])) return;
    this.siftDown(key, id);
  }

  /** Ids best first. */
  sorted(): number[] {
    const order = Array.from({ length: this.size }, (_, i) => i);
    order.sort((a, b) => (this.better(this.keys[a], this.ids[a], this.keys[b], this.ids[b]) ? -1 : 1));
    return order.map((i) => this.ids[i]);
  }

  private better(ka: number, ia: number, kb: number, ib: number): boolean {
    return ka > kb || (ka === kb && (this.tieAscending ? ia < ib : ia > ib));
  }

  private siftDown(key: number, id: number): void {
    let i = 0;
    const n = this.size;
    for (;;) {
      const l = 2 * i + 1;
      if (l >= n) break;
      const r = l + 1;
      const worse = r < n && this.better(this.keys[l], this.ids[l], this.keys[r], this.ids[r]) ? r : l;
      if (!this.better(key, id, this.keys[worse], this.ids[worse])) break;
      this.keys[i] = this.keys[worse];
      this.ids[i] = this.ids[worse];
      i = worse;
    }
    this.keys[i] = key;
    this.ids[i] = id;
  }
}
