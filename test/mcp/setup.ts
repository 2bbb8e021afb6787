import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport, type StreamableHTTPClientTransportOptions } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult, Tool } from '@modelcontextprotocol/sdk/types.js';
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { promisify } from 'node:util';
import AjvModule, { type ValidateFunction } from 'ajv';
import { loadConfig } from '../../src/config.js';
import { createContainer, type Container } from '../../src/container.js';
import { makeHarness, type Harness } from '../helpers/app.js';
import { CATALOG } from '../helpers/catalog.js';
import { rec } from '../helpers/records.js';

// CommonJS seen from ESM: the constructor is the default member.
const Ajv = AjvModule as unknown as typeof AjvModule.default;

/**
 * The small catalog of test/helpers/catalog.ts with a price history: the Singapore A55 was 549 and
 * 479 before today's 499; the kettle was 79 twice before today's 59 (a deal: 25% under its median).
 */
export const HISTORY = [
  rec({ source: 'shopee_sg', sku: 'SG-A55', price: '549.00', gtin: '8806095426280', observed_at: '2026-11-01T10:00:00.000Z' }),
  rec({ source: 'shopee_sg', sku: 'SG-A55', price: '479.00', gtin: '8806095426280', observed_at: '2026-11-10T10:00:00.000Z' }),
  rec({ source: 'lazada_sg', sku: 'SG-KETTLE', title: 'Philips Electric Kettle 1.7L HD9350', brand: 'Philips', price: '79.00', category: 'Kettles', category_path: ['Home & Living', 'Kitchen Appliances', 'Kettles'], observed_at: '2026-11-01T10:00:00.000Z' }),
  rec({ source: 'lazada_sg', sku: 'SG-KETTLE', title: 'Philips Electric Kettle 1.7L HD9350', brand: 'Philips', price: '79.00', category: 'Kettles', category_path: ['Home & Living', 'Kitchen Appliances', 'Kettles'], observed_at: '2026-11-05T10:00:00.000Z' }),
];

/** Records into a container's store through the real ingest path (for a store a spawned process then opens). */
export async function ingestInto(c: Container, lines: object[]): Promise<void> {
  await c.ingest.ingestStream(Readable.from([lines.map((l) => JSON.stringify(l)).join('\n')]));
}

export interface Served {
  h: Harness;
  origin: string;
  url: URL;
  key: string;
  client(opts?: StreamableHTTPClientTransportOptions): Promise<Client>;
  close(): Promise<void>;
}

/** The app listening on a free loopback port, seeded, with a pro key and SDK clients on /mcp. */
export async function serveSeeded(env: Record<string, string> = {}, tier: Parameters<Harness['key']>[0] = 'pro'): Promise<Served> {
  // HOST makes the origin (the OAuth issuer, the metadata URL) the loopback address the tests call.
  const h = await makeHarness({ HOST: '127.0.0.1', ...env });
  await h.ingest(HISTORY);
  await h.ingest(CATALOG);
  await h.app.listen({ port: 0, host: '127.0.0.1' });
  const port = (h.app.server.address() as { port: number }).port;
  h.c.listening(port);
  const origin = `http://127.0.0.1:${port}`;
  const url = new URL(`${origin}/mcp`);
  const { key, headers } = await h.key(tier);
  const clients: Client[] = [];
  return {
    h, origin, url, key,
    async client(opts = { requestInit: { headers } }) {
      const client = new Client({ name: 'test', version: '1.0.0' });
      await client.connect(new StreamableHTTPClientTransport(url, opts));
      clients.push(client);
      return client;
    },
    async close() {
      await Promise.all(clients.map((c) => c.close()));
      await h.close();
    },
  };
}

const ajv = new Ajv({ strict: false, allErrors: true });
const compiled = new Map<string, ValidateFunction>();

/** Holds a tool result to the tool's declared outputSchema (ajv, independent of the SDK's own zod check). */
export function expectValidOutput(tool: Tool, result: CallToolResult): Record<string, unknown> {
  if (result.isError) throw new Error(`${tool.name} answered an error: ${JSON.stringify(result.content)}`);
  if (!tool.outputSchema) throw new Error(`${tool.name} declares no outputSchema`);
  let validate = compiled.get(tool.name);
  if (!validate) {
    const { $schema: _, ...schema } = tool.outputSchema as Record<string, unknown>;
    validate = ajv.compile(schema);
    compiled.set(tool.name, validate);
  }
  if (!validate(result.structuredContent)) throw new Error(`${tool.name}: structuredContent fails its outputSchema: ${ajv.errorsText(validate.errors)}`);
  const text = result.content.find((c) => c.type === 'text');
  if (!text || text.type !== 'text' || !text.text.trim()) throw new Error(`${tool.name}: no text rendering`);
  return result.structuredContent!;
}

/** The text of an isError result. */
export function refusalOf(result: CallToolResult): string {
  if (!result.isError) throw new Error(`expected an error result, got ${JSON.stringify(result.structuredContent)}`);
  const t = result.content[0];
  return t.type === 'text' ? t.text : '';
}

/** One good call and one bad call of every tool; what each bad call's message must say. */
export const GOOD_CALLS: Record<string, Record<string, unknown>> = {
  search_products: { query: 'galaxy a55', country: ['SG', 'MY'], min_price: 100, max_price: 2000, currency: 'MYR', brand: 'samsung', category: 'phones', in_stock: true, sort: 'price_asc', limit: 5 },
  get_product: { ref: 'SG-A55', currency: 'USD' },
  compare_offers: { ref: '1', currency: 'SGD' },
  price_history: { ref: '1', days: 30 },
  deals: { country: ['SEA'] },
  best_price: { query: 'galaxy a55' },
  similar_products: { ref: '1', limit: 5 },
  categories: { depth: 3 },
  batch_lookup: { refs: ['1', 'US-A55', 'NOPE'] },
};

export const BAD_CALLS: Record<string, [Record<string, unknown>, RegExp]> = {
  search_products: [{ query: 'galaxy', limit: 500 }, /limit must be at most 50/],
  get_product: [{ ref: 'NO-SUCH-SKU' }, /No product has the id, UUID, SKU, barcode or URL "NO-SUCH-SKU"/],
  compare_offers: [{ ref: '' }, /ref must not be empty/],
  price_history: [{ ref: '1', days: 0 }, /days must be at least 1/],
  deals: [{ min_discount_pct: 200 }, /min_discount_pct must be at most 100/],
  best_price: [{ query: 'zzqx nonexistent' }, /No product matches "zzqx nonexistent"/],
  similar_products: [{ ref: '999999' }, /No product has the id/],
  categories: [{ parent: 'no-such-category' }, /No category has the slug "no-such-category"/],
  batch_lookup: [{ refs: [] }, /refs needs at least one reference/],
};

/** The tools that act for the calling key (alerts): listed over HTTP only, where a key is known. */
export const KEY_GOOD_CALLS: Record<string, Record<string, unknown>> = {
  create_alert: { product: 'SG-A55', condition: { type: 'price_at_or_below', target: '450.00', currency: 'SGD' }, rearm: { after: 'price_above_target' } },
  list_alerts: { limit: 10 },
};
export const KEY_BAD_CALLS: Record<string, [Record<string, unknown>, RegExp]> = {
  create_alert: [{ product: 'SG-A55', condition: { type: 'price_at_or_below', currency: 'SGD' } }, /condition\.target: price_at_or_below needs a target/],
  list_alerts: [{ limit: 0 }, /limit must be at least 1/],
};

export const TOOL_NAMES = Object.keys(GOOD_CALLS).sort();
/** What tools/list answers over HTTP. */
export const HTTP_TOOL_NAMES = [...TOOL_NAMES, ...Object.keys(KEY_GOOD_CALLS)].sort();
export const toolNames = (r: Record<string, unknown>) => (r.tools as Array<{ name: string }>).map((t) => t.name).sort();

export const ROOT = join(import.meta.dirname, '..', '..');
const INSPECTOR = join(ROOT, 'node_modules', '@modelcontextprotocol', 'inspector-cli', 'build', 'cli.js');
const run = promisify(execFile);

/**
 * The official inspector CLI (`mcp-inspector-cli --cli ...`), its JSON output parsed.
 *
 * Its index.js (1.0.3) looks for its own package.json with fs.existsSync('../package.json'),
 * relative to the working directory, then imports that path relative to itself: run from the
 * repository root it imports a file that does not exist. Run from test/, whose parent holds a
 * package.json, the check passes and the import finds its own; paths given to it are absolute.
 */
export async function inspect(args: string[], env: Record<string, string> = {}): Promise<Record<string, unknown>> {
  const { stdout } = await run(process.execPath, [INSPECTOR, '--cli', ...args], {
    cwd: join(ROOT, 'test'), env: { ...process.env, ...env }, timeout: 30_000, maxBuffer: 10 * 1024 * 1024,
  });
  return JSON.parse(stdout) as Record<string, unknown>;
}

/** A SQLite file seeded with the test catalog, for `catalog mcp` to open: its environment, and how to remove it. */
export async function seededStore(): Promise<{ env: Record<string, string>; remove: () => void }> {
  const dir = mkdtempSync(join(tmpdir(), 'mcp-store-'));
  const env = { DATABASE_URL: `sqlite:${join(dir, 'catalog.db')}` };
  const c = await createContainer(loadConfig(env));
  await ingestInto(c, [...HISTORY, ...CATALOG]);
  await c.close();
  return { env, remove: () => rmSync(dir, { recursive: true, force: true }) };
}
