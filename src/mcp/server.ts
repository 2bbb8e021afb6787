import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { registerPrompts } from './prompts.js';
import { registerResources } from './resources.js';
import type { McpOptions, McpServices } from './services.js';
import { registerAlertTools } from './tools/alerts.js';
import { registerCategoryTools } from './tools/categories.js';
import { registerCompareTools } from './tools/compare.js';
import { registerProductTools } from './tools/product.js';
import { registerSearchTools } from './tools/search.js';

const INSTRUCTIONS = 'A product catalog of retail platforms in South-East Asia and the US: one listing is one offer on one platform. '
  + 'Find products with search_products (or best_price for a name), then pass a listing\'s integer id to compare_offers, price_history, '
  + 'get_product or similar_products. Prices are exact decimal strings in the listing\'s own currency; pass `currency` to see them converted. '
  + 'Before recommending an offer, check its signals (is_available, data_freshness, confidence_score). '
  + 'Hand a shopper over with affiliate_url when present, else url.';

/**
 * The SDK's McpServer checks each tool result against the tool's output schema (zod) before
 * sending it: a sixth of an MCP search's CPU (bench/RESULTS.md). The results are built as those
 * schemas' types, and test/mcp/tools.test.ts holds every tool's result to the schema tools/list
 * advertises (expectValidOutput), so the server does not check them again per call. A guard, not
 * a silent no-op: an SDK without the method fails here (and every MCP test with it).
 */
function withoutOutputChecks(server: McpServer): McpServer {
  const checks = server as unknown as { validateToolOutput?: unknown };
  if (typeof checks.validateToolOutput !== 'function') throw new Error('McpServer.validateToolOutput is gone: see withoutOutputChecks');
  checks.validateToolOutput = async () => {};
  return server;
}

/** The catalog as an MCP server: tools, resources and prompts over the services; one per connection (or per HTTP request). */
export function createMcpServer(s: McpServices, opts: McpOptions): McpServer {
  const server = withoutOutputChecks(new McpServer(
    { name: 'catalog', title: 'Catalog service', version: opts.version },
    { capabilities: { tools: {}, resources: {}, prompts: {} }, instructions: INSTRUCTIONS },
  ));
  registerSearchTools(server, s, opts);
  registerProductTools(server, s, opts);
  registerCompareTools(server, s, opts);
  registerCategoryTools(server, s, opts);
  if (opts.keyTools) registerAlertTools(server, s, opts);
  registerResources(server, s);
  registerPrompts(server);
  return server;
}
