import type { Database, Statement } from 'better-sqlite3';
import type { ActivityStore, ClickRecord, SearchRecord } from '../types.js';

interface SearchRow { key_id: number; job_id: string | null; query: string; total: number | null; created_at: string }
interface ClickRow { listing_id: number; key_id: number; job_id: string | null; created_at: string }

const toSearch = (r: SearchRow): SearchRecord => ({ keyId: r.key_id, jobId: r.job_id, query: r.query, total: r.total, at: r.created_at });
const toClick = (r: ClickRow): ClickRecord => ({ listingId: r.listing_id, keyId: r.key_id, jobId: r.job_id, at: r.created_at });

/** Searches and clicks on the embedded store (migration 8). */
export class SqliteActivity implements ActivityStore {
  private readonly insertSearch: Statement;
  private readonly insertClick: Statement;
  /** Read with every page of decision signals: prepared once, not per call. */
  private readonly countClicks: Statement;
  private readonly writeSearches: (rows: SearchRecord[]) => void;
  private readonly writeClicks: (rows: ClickRecord[]) => void;

  constructor(private readonly db: Database) {
    this.insertSearch = db.prepare('INSERT INTO searches (key_id, job_id, query, total, created_at) VALUES (?, ?, ?, ?, ?)');
    this.insertClick = db.prepare('INSERT INTO clicks (listing_id, key_id, job_id, created_at) VALUES (?, ?, ?, ?)');
    this.countClicks = db.prepare('SELECT listing_id, count(*) AS n FROM clicks WHERE listing_id IN (SELECT value FROM json_each(?)) AND created_at >= ? GROUP BY listing_id');
    this.writeSearches = db.transaction((rows: SearchRecord[]) => {
      for (const r of rows) this.insertSearch.run(r.keyId, r.jobId, r.query, r.total, r.at);
    });
    this.writeClicks = db.transaction((rows: ClickRecord[]) => {
      for (const r of rows) this.insertClick.run(r.listingId, r.keyId, r.jobId, r.at);
    });
  }

  async recordSearches(rows: SearchRecord[]): Promise<void> {
    if (rows.length) this.writeSearches(rows);
  }

  async recordClicks(rows: ClickRecord[]): Promise<void> {
    if (rows.length) this.writeClicks(rows);
  }

  async searches(since: string, opts: { jobId?: string; limit: number }): Promise<SearchRecord[]> {
    const job = opts.jobId !== undefined ? ' AND job_id = ?' : '';
    const rows = this.db.prepare(`SELECT key_id, job_id, query, total, created_at FROM searches WHERE created_at >= ?${job} ORDER BY created_at DESC, id DESC LIMIT ?`)
      .all(since, ...(opts.jobId !== undefined ? [opts.jobId] : []), opts.limit) as SearchRow[];
    return rows.map(toSearch);
  }

  async clicksFor(listingId: number, since: string, limit: number): Promise<ClickRecord[]> {
    const rows = this.db.prepare('SELECT listing_id, key_id, job_id, created_at FROM clicks WHERE listing_id = ? AND created_at >= ? ORDER BY created_at DESC, id DESC LIMIT ?')
      .all(listingId, since, limit) as ClickRow[];
    return rows.map(toClick);
  }

  async clickCounts(listingIds: number[], since: string): Promise<Map<number, number>> {
    const out = new Map<number, number>();
    if (!listingIds.length) return out;
    const rows = this.countClicks.all(JSON.stringify(listingIds), since) as Array<{ listing_id: number; n: number }>;
    for (const r of rows) out.set(r.listing_id, r.n);
    return out;
  }

  async clickSecret(candidate: string): Promise<string> {
    this.db.prepare("INSERT INTO service_secrets (name, value, created_at) VALUES ('click', ?, ?) ON CONFLICT (name) DO NOTHING").run(candidate, new Date().toISOString());
    return this.db.prepare("SELECT value FROM service_secrets WHERE name = 'click'").pluck().get() as string;
  }
}
