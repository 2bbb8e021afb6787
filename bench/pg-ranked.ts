/**
 * The baseline of issue 27 item 3: what a team would otherwise pick for search on PostgreSQL, one
 * ranked full-text query (ts_rank over the GIN index of listings.tsv, every query word required,
 * the 20 best) behind bare Fastify, in its own process so it runs where the service runs. The
 * query's words are folded as the service folds them (tsqueryLiteral), so both search the same
 * terms. `DATABASE_URL` as the service takes it (`?schema=` included). Prints its port on stdout.
 */
import Fastify from 'fastify';
import pg from 'pg';
import { parsePostgresUrl } from '../src/store/postgres/index.js';
import { tsqueryLiteral } from '../src/store/postgres/text-search.js';

const { connectionString, schema } = parsePostgresUrl(process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test');
// The service's pool size and statement timeout: a query the load generator gave up on stops as the service's would.
const pool = new pg.Pool({
  connectionString, max: Number(process.env.PG_POOL_MAX ?? 10), statement_timeout: 10_000, options: schema ? `-c search_path=${schema}` : undefined,
});
const RANKED = `SELECT id, source, sku, title, brand, price, currency, url, ts_rank(tsv, q) AS rank
  FROM listings, (SELECT $1::tsquery AS q) fq WHERE tsv @@ q ORDER BY rank DESC, id DESC LIMIT $2`;

const app = Fastify();
app.get('/search', async (req) => {
  const { q = '', limit } = req.query as { q?: string; limit?: string };
  const query = tsqueryLiteral(q);
  if (!query) return { results: [] };
  const n = Math.min(100, Math.max(1, Math.trunc(Number(limit)) || 20));
  const client = await pool.connect();
  try {
    // A request the load generator gave up on while it waited for a connection is not run: its
    // query would only take the cores from whatever is measured next.
    if (req.raw.socket?.destroyed) return { results: [] };
    return { results: (await client.query(RANKED, [query, n])).rows };
  } finally {
    client.release();
  }
});
await app.listen({ port: 0, host: '127.0.0.1' });
const address = app.server.address();
console.log(typeof address === 'object' && address ? address.port : 0);
process.on('SIGTERM', () => void app.close().then(() => pool.end()).then(() => process.exit(0)));
