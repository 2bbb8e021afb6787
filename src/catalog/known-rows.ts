import type { Statement } from 'better-sqlite3';

/** Rows read ahead at first, and at most, once lines follow the stored order. */
const FIRST_AHEAD = 64;
const MOST_AHEAD = 1024;

export interface StoredLine {
  id: number;
  hash: string | null;
}

/**
 * The id and line hash stored for a (source, sku), as a parse worker looks them up (ingest-lines.ts
 * ParseOptions.known). A feed imported again mostly lists its lines in the order its listings were
 * first stored, one id after another. Once a line's listing is the one after the previous line's,
 * the rows after it are read in one range scan (a point look-up costs several times a row of a
 * scan), more of them each time the lines keep following; a line that does not ends the run. A
 * feed in another order costs one point look-up a line, as without this.
 */
export class KnownRows {
  /** The rows read ahead, in id order: their ids, keys and hashes. */
  private ids: number[] = [];
  private sources: string[] = [];
  private skus: string[] = [];
  private hashes: Array<string | null> = [];
  /** The row read ahead that the next line is expected to be (lines mostly follow them one by one). */
  private cursor = 0;
  /** The rows read ahead by (source, sku), made only when a line is not the expected one. */
  private byKey: Map<string, number> | null = null;
  private window = FIRST_AHEAD;
  private lastId = -1;

  /**
   * `point`: (source, sku) -> [id, line_hash]; `range`: (after id, limit) -> [id, source, sku,
   * line_hash] rows in id order. Both raw.
   */
  constructor(private readonly point: Statement, private readonly range: Statement) {}

  get(source: string, sku: string): StoredLine | undefined {
    const at = this.aheadAt(source, sku);
    let found: StoredLine | undefined;
    if (at < 0) {
      const row = this.point.get(source, sku) as [number, string | null] | undefined;
      found = row && { id: row[0], hash: row[1] };
      if (!found || found.id !== this.lastId + 1) {
        this.clear();
        this.window = FIRST_AHEAD;
      } else if (!this.ids.length || this.ids[this.ids.length - 1] < found.id) {
        this.readAhead(found.id);
      }
    } else {
      found = { id: this.ids[at], hash: this.hashes[at] };
      this.cursor = at + 1;
      if (at === this.ids.length - 1) {
        this.window = Math.min(MOST_AHEAD, this.window * 2);
        this.readAhead(found.id);
      }
    }
    this.lastId = found?.id ?? -1;
    return found;
  }

  /** Where the rows read ahead hold (source, sku), or -1. */
  private aheadAt(source: string, sku: string): number {
    const c = this.cursor;
    if (c < this.ids.length && this.skus[c] === sku && this.sources[c] === source) return c;
    if (!this.ids.length) return -1;
    if (!this.byKey) {
      this.byKey = new Map();
      for (let i = 0; i < this.ids.length; i++) this.byKey.set(`${this.sources[i]}\u0000${this.skus[i]}`, i);
    }
    return this.byKey.get(`${source}\u0000${sku}`) ?? -1;
  }

  private clear(): void {
    this.ids = [];
    this.sources = [];
    this.skus = [];
    this.hashes = [];
    this.cursor = 0;
    this.byKey = null;
  }

  private readAhead(after: number): void {
    this.clear();
    const rows = this.range.all(after, this.window) as Array<[number, string, string, string | null]>;
    for (const [id, source, sku, hash] of rows) {
      this.ids.push(id);
      this.sources.push(source);
      this.skus.push(sku);
      this.hashes.push(hash);
    }
  }
}
