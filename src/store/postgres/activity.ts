import type pg from 'pg';
import type { ActivityStore, ClickRecord, SearchRecord } from '../types.js';
import { one, rows } from './sql.js';

interface SearchRow { key_id: number; job_id: string | null; query: string; total: number | null; created_at: string }
interface ClickRow { listing_id: number; key_id: number; job_id: string | null; created_at: string }

const toSearch = (r: SearchRow): SearchRecord => ({ keyId: r.key_id, jobId: r.job_id, query: r.query, total: r.total, at: r.created_at });
const toClick = (r: ClickRow): ClickRecord => ({ listingId: r.listing_id, keyId: r.key_id, jobId: r.job_id, at: r.created_at });

/** Searches and clicks on PostgreSQL (migration 7): a batch is one statement over column arrays. */
export class PgActivity implements ActivityStore {
  constructor(private readonly pool: pg.Pool) {}

  async recordSearches(list: SearchRecord[]): Promise<void> {
    if (!list.length) return;
    await this.pool.query(`INSERT INTO searches (key_id, job_id, query, total, created_at)
      SELECT * FROM unnest($1::bigint[], $2::text[], $3::text[], $4::int[], $5::text[])`,
    [list.map((r) => r.keyId), list.map((r) => r.jobId), list.map((r) => r.query), list.map((r) => r.total), list.map((r) => r.at)]);
  }

  async recordClicks(list: ClickRecord[]): Promise<void> {
    if (!list.length) return;
    await this.pool.query(`INSERT INTO clicks (listing_id, key_id, job_id, created_at)
      SELECT * FROM unnest($1::bigint[], $2::bigint[], $3::text[], $4::text[])`,
    [list.map((r) => r.listingId), list.map((r) => r.keyId), list.map((r) => r.jobId), list.map((r) => r.at)]);
  }

  async searches(since: string, opts: { jobId?: string; limit: number }): Promise<SearchRecord[]> {
    const job = opts.jobId !== undefined ? ' AND job_id = ?' : '';
    const found = await rows<SearchRow>(this.pool,
      `SELECT key_id, job_id, query, total, created_at FROM searches WHERE created_at >= ?${job} ORDER BY created_at DESC, id DESC LIMIT ?`,
      opts.jobId !== undefined ? [since, opts.jobId, opts.limit] : [since, opts.limit]);
    return found.map(toSearch);
  }

  async clicksFor(listingId: number, since: string, limit: number): Promise<ClickRecord[]> {
    const found = await rows<ClickRow>(this.pool,
      'SELECT listing_id, key_id, job_id, created_at FROM clicks WHERE listing_id = ? AND created_at >= ? ORDER BY created_at DESC, id DESC LIMIT ?',
      [listingId, since, limit]);
    return found.map(toClick);
  }

  async clickCounts(listingIds: number[], since: string): Promise<Map<number, number>> {
    const out = new Map<number, number>();
    if (!listingIds.length) return out;
    const found = await rows<{ listing_id: number; n: number }>(this.pool,
      'SELECT listing_id, count(*) AS n FROM clicks WHERE listing_id = ANY(?::bigint[]) AND created_at >= ? GROUP BY listing_id',
      [listingIds, since]);
    for (const r of found) out.set(r.listing_id, r.n);
    return out;
  }

  async clickSecret(candidate: string): Promise<string> {
    // Two statements: the read's snapshot must see a secret another instance committed meanwhile.
    await this.pool.query("INSERT INTO service_secrets (name, value, created_at) VALUES ('click', $1, $2) ON CONFLICT (name) DO NOTHING",
      [candidate, new Date().toISOString()]);
    return (await one<{ value: string }>(this.pool, "SELECT value FROM service_secrets WHERE name = 'click'"))!.value;
  }
}
