/**
 * `npm run bench:webhooks -- [--deliveries N] [--subscriptions N]`
 * Signed webhook deliveries per second to a local receiver (issue 22: at least 300/s sustained).
 * A `catalog serve` on a fresh SQLite file delivers to a receiver in this process (another
 * process than the server's, as a real receiver would be), which verifies every signature with
 * the standardwebhooks package and answers 200. The events come from a `catalog import` of
 * price moves run beside the server, as in production: the server's event tail picks them up.
 * Prints the deliveries received, the time from the first to the last, the rate, and the
 * server's peak RSS.
 */
import { execFileSync, spawn } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { Webhook } from 'standardwebhooks';
import { freePort, rssPeakMb } from './processes.js';

const { values: args } = parseArgs({ options: { deliveries: { type: 'string', default: '10000' }, subscriptions: { type: 'string', default: '1' } } });
const SUBS = Number(args.subscriptions);
const LISTINGS = Math.ceil(Number(args.deliveries) / SUBS);
const TOTAL = LISTINGS * SUBS;
const root = join(import.meta.dirname, '..');
const out = join(root, 'bench', 'out', `webhooks-${process.pid}`);
mkdirSync(out, { recursive: true });

const env = {
  ...process.env, DATABASE_URL: `sqlite:${join(out, 'catalog.db')}`, CATALOG_DEMO: 'off', SEARCH_INDEX: 'off', LOG_LEVEL: 'warn',
  WEBHOOK_ALLOW_HOSTS: '127.0.0.1',
};
const cli = (...a: string[]) => execFileSync(process.execPath, [join(root, 'bin', 'catalog.js'), ...a], { env, cwd: root }).toString();

// The receiver: verifies each delivery, counts it once by webhook-id.
const verifiers: Webhook[] = [];
const seen = new Set<string>();
let duplicates = 0;
let invalid = 0;
let first = 0;
let last = 0;
const receiver = http.createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on('data', (c: Buffer) => chunks.push(c));
  req.on('end', () => {
    const body = Buffer.concat(chunks).toString('utf8');
    const headers = { 'webhook-id': String(req.headers['webhook-id']), 'webhook-timestamp': String(req.headers['webhook-timestamp']), 'webhook-signature': String(req.headers['webhook-signature']) };
    if (!verifiers.some((v) => { try { v.verify(body, headers); return true; } catch { return false; } })) invalid++;
    if (seen.has(headers['webhook-id'])) duplicates++;
    seen.add(headers['webhook-id']);
    const now = performance.now();
    if (!first) first = now;
    last = now;
    res.writeHead(200).end();
  });
});
await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
const hook = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;

const key = cli('keys', 'create', '--tier', 'pro').trim().split('\n').pop()!;
const port = await freePort();
const server = spawn(process.execPath, [join(root, 'bin', 'catalog.js'), 'serve'], { env: { ...env, PORT: String(port), HOST: '127.0.0.1' }, stdio: ['ignore', 'ignore', 'inherit'] });
const base = `http://127.0.0.1:${port}`;
for (let i = 0; ; i++) {
  try {
    if ((await fetch(`${base}/health`)).ok) break;
  } catch { /* not yet */ }
  if (i > 300) throw new Error('server did not start');
  await new Promise((r) => setTimeout(r, 100));
}
for (let i = 0; i < SUBS; i++) {
  const res = await fetch(`${base}/v1/webhooks`, {
    method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify({ url: `${hook}/${i}`, events: ['price_change'] }),
  });
  if (res.status !== 201) throw new Error(`subscribe: ${res.status} ${await res.text()}`);
  verifiers.push(new Webhook(((await res.json()) as { secret: string }).secret));
}

const line = (i: number, price: string, minute: number) => JSON.stringify({
  source: 'bench_sg', sku: `WB-${i}`, title: `Bench widget ${i}`, price, currency: 'SGD', url: `https://shop.example.com/wb/${i}`,
  category: 'Widgets', in_stock: true, observed_at: new Date(Date.UTC(2026, 10, 20, 10, minute)).toISOString(),
});
writeFileSync(join(out, 'base.ndjson'), Array.from({ length: LISTINGS }, (_, i) => line(i, '100.00', 0)).join('\n') + '\n');
writeFileSync(join(out, 'moves.ndjson'), Array.from({ length: LISTINGS }, (_, i) => line(i, '80.00', 1)).join('\n') + '\n');
cli('import', join(out, 'base.ndjson'));
const importStart = performance.now();
cli('import', join(out, 'moves.ndjson'));
const imported = performance.now();

const deadline = Date.now() + 600_000;
while (seen.size < TOTAL && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
const rss = rssPeakMb(server.pid!);
server.kill('SIGTERM');
await new Promise((r) => server.once('exit', r));
receiver.close();
rmSync(out, { recursive: true, force: true });

const seconds = (last - first) / 1000;
console.log(`\nWebhook deliveries (SQLite, ${SUBS} subscription(s), ${LISTINGS} price changes imported beside the server in ${((imported - importStart) / 1000).toFixed(1)} s)`);
console.log(`received ${seen.size} of ${TOTAL} (duplicates ${duplicates}, bad signatures ${invalid})`);
console.log(`first to last delivery: ${seconds.toFixed(2)} s -> ${Math.round(seen.size / seconds)} signed deliveries/s sustained`);
console.log(`from the import's start to the last delivery: ${((last - importStart) / 1000).toFixed(2)} s; server peak RSS ${rss} MB`);
if (seen.size < TOTAL || invalid) process.exitCode = 1;
