import type { Database, Statement } from 'better-sqlite3';

/**
 * Prepared statements by SQL text. Preparing costs more than running a point lookup, so a
 * statement is prepared once per shape; the shapes are few (filters differ in which clauses they
 * have, never in values, and IN lists come in the arities of `inList`; the key and token reads
 * are a handful). Bounded all the same.
 */
export class Statements {
  private readonly cache = new Map<string, Statement>();

  constructor(private readonly db: Database, private readonly max = 500) {}

  /** `raw`: rows as arrays (`.raw()` mode), cached apart from the object form of the same SQL. */
  get(sql: string, raw = false): Statement {
    const key = raw ? `raw ${sql}` : sql;
    let s = this.cache.get(key);
    if (!s) {
      if (this.cache.size >= this.max) this.cache.delete(this.cache.keys().next().value as string);
      s = raw ? this.db.prepare(sql).raw() : this.db.prepare(sql);
      this.cache.set(key, s);
    }
    return s;
  }
}
