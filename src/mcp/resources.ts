import { ResourceTemplate, type McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import { presentCategories, presentDetail } from './present.js';
import type { McpServices } from './services.js';

const JSON_TYPE = 'application/json';

/** The category tree and a product as resources a host can attach to a conversation. */
export function registerResources(server: McpServer, s: McpServices): void {
  server.registerResource('categories', 'catalog://categories', {
    title: 'Category tree', mimeType: JSON_TYPE,
    description: 'Every category with its slug, path and listing count, as a tree.',
  }, async (uri) => ({
    contents: [{ uri: uri.href, mimeType: JSON_TYPE, text: JSON.stringify({ categories: presentCategories(await s.catalog.categoryTree(), Infinity) }) }],
  }));

  server.registerResource('product', new ResourceTemplate('catalog://products/{id}', { list: undefined }), {
    title: 'Product', mimeType: JSON_TYPE,
    description: 'One listing by integer id (or UUID, or SKU): the record get_product returns.',
  }, async (uri, vars) => {
    const ref = decodeURIComponent(String(vars.id));
    const [r] = await s.products.resolveMany([ref]);
    // MCP's "resource not found" (-32002).
    if (!r) throw new McpError(-32002 as ErrorCode, `No product has the id, UUID, SKU, barcode or URL "${ref}"`, { uri: uri.href });
    return { contents: [{ uri: uri.href, mimeType: JSON_TYPE, text: JSON.stringify(presentDetail(await s.products.view(r.listing))) }] };
  });
}
