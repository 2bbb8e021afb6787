import { TAG_GROUPS } from './document.js';

/**
 * `/llms.txt` (llmstxt.org): a short index an agent reads first. Made from the OpenAPI document
 * the routes produce and the service's origin, at request time, so it lists exactly what is served.
 */

interface Operation { summary?: string; tags?: string[]; security?: unknown[] }
interface Document {
  info: { title: string; version: string };
  tags?: Array<{ name: string; description?: string }>;
  paths?: Record<string, Record<string, Operation>>;
}

const METHODS = ['get', 'post', 'put', 'patch', 'delete'];

/** Each tag's operations as `- METHOD path: summary`, an operation of two surfaces under each. */
function operationsByTag(doc: Document): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const [path, ops] of Object.entries(doc.paths ?? {})) {
    for (const method of METHODS) {
      const op = ops[method];
      if (!op) continue;
      for (const tag of op.tags ?? []) out.set(tag, [...(out.get(tag) ?? []), `- ${method.toUpperCase()} ${path}: ${op.summary ?? ''}`.trimEnd()]);
    }
  }
  return out;
}

export function llmsTxt(doc: Document, origin: string): string {
  const byTag = operationsByTag(doc);
  const described = new Map((doc.tags ?? []).map((t) => [t.name, t.description ?? '']));
  const sections = TAG_GROUPS.flatMap((g) => g.tags)
    .filter((tag) => byTag.has(tag))
    .map((tag) => [`## ${tag}`, '', described.get(tag) ?? '', '', ...byTag.get(tag)!].join('\n'));
  return [
    `# ${doc.info.title}`,
    '',
    '> Product catalog and price comparison for shopping agents and shopping apps in Southeast Asia and the US: search, '
      + 'product detail, the same product across platforms, price history, deals, real-time price streams and webhooks.',
    '',
    `Version ${doc.info.version}. Every path below is relative to ${origin}.`,
    '',
    '## Start',
    '',
    `- Get a key: POST ${origin}/v1/auth/register?verify=false with JSON {"agent_name": "<your agent>"}; the answer's api_key is shown once.`,
    '- Send it as `Authorization: Bearer <API_KEY>` on every request (also X-API-Key).',
    `- OAuth 2.1 client credentials: ${origin}/.well-known/oauth-authorization-server`,
    `- OpenAPI 3.1 of every endpoint: ${origin}/openapi.json`,
    `- Reference and guide for people: ${origin}/docs`,
    `- MCP (Streamable HTTP, stateless, same key): POST ${origin}/mcp; on a desktop: \`npx catalog mcp\` (stdio)`,
    '- Surfaces: A (/v1, integer ids, decimal strings), B (/v1, UUIDs, {amount, currency}), V2 (/v2, for agents). '
      + 'Some /v1 paths are answered by A or B by their parameters; the header `Catalog-Surface: A|B` decides.',
    '',
    ...sections.flatMap((s) => [s, '']),
  ].join('\n');
}
