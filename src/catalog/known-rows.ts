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
  private ahead = new Map<string, StoredLine>();
  /** The last id read ahead (its line ends the rows read ahead), and how many to read next. */
  private aheadTo = -1;
  private window = FIRST_AHEAD;
  private lastId = -1;

  /**
   * `point`: (source, sku) -> [id, line_hash]; `range`: (after id, limit) -> [id, source, sku,
   * line_hash] rows in id order. Both raw.
   */
  constructor(private readonly point: Statement, private readonly range: Statement) {}

  get(source: string, sku: string): StoredLine | undefined {
    const key = `${source}\u0000${sku}`;
    let found = this.ahead.get(key);
    if (found === undefined) {
      const row = this.point.get(source, sku) as [number, string | null] | undefined;
      found = row && { id: row[0], hash: row[1] };
      if (!found || found.id !== this.lastId + 1) {
        this.ahead.clear();
        this.aheadTo = -1;
        this.window = FIRST_AHEAD;
      } else if (this.aheadTo < found.id) {
        this.readAhead(found.id);
      }
    } else if (found.id === this.aheadTo) {
      this.window = Math.min(MOST_AHEAD, this.window * 2);
      this.readAhead(found.id);
    }
    this.lastId = found?.id ?? -1;
    return found;
  }

  private readAhead(after: number): void {
    this.ahead.clear();
    const rows = this.range.all(after, this.window) as Array<[number, string, string, string | null]>;
    for (const [id, source, sku, hash] of rows) this.ahead.set(`${source}\u0000${sku}`, { id, hash });
    this.aheadTo = rows.length ? rows[rows.length - 1][0] : -1;
  }
}
