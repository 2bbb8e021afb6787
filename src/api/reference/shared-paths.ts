import { dispatchRule } from '../dispatch.js';

/**
 * OpenAPI keys operations by path and method, but surfaces A and B both answer some /v1 paths
 * (dispatch.ts). While the document is built, surface B's variant of a shared path is listed
 * under `path#B`; `mergeSharedPaths` then folds each into the path's one operation, with both
 * shapes, the dispatch rule, and the `Catalog-Surface` header that overrides it.
 */

const B_SUFFIX = '#B';

type Json = Record<string, unknown>;
interface Parameter { in: string; name: string; required?: boolean; description?: string; schema?: Json }
interface Response { description?: string; content?: Record<string, { schema?: Json }>; headers?: Record<string, unknown> }
interface Operation { summary?: string; description?: string; tags?: string[]; parameters?: Parameter[]; responses?: Record<string, Response>; [k: string]: unknown }

/** The document path of a route: surface B's variant of a shared path is marked until the merge. */
export function documentedUrl(url: string, constraints: unknown): string {
  return (constraints as { surface?: string } | undefined)?.surface === 'B' ? `${url}${B_SUFFIX}` : url;
}

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);
/** A summary without the surface it names: the merged operation carries both surfaces as tags. */
const plain = (summary = '') => summary.replace(/\s*\(surface [AB]( variant)?\)/g, '').replace(/surface [AB]; /g, '').trim();
const titled = (schema: Json | undefined, title: string): Json => ({ ...schema, title });

export const SURFACE_HEADER: Parameter = {
  in: 'header', name: 'Catalog-Surface', required: false,
  description: 'Forces the surface that answers this shared path, whatever the dispatch rule says.',
  schema: { type: 'string', enum: ['A', 'B'] },
};

/** A parameter of both surfaces: one entry; where the two schemas differ, either one (a value may fit both: the rule decides). */
function mergeParameter(a: Parameter | undefined, b: Parameter | undefined): Parameter {
  if (a && b) {
    const required = !!a.required && !!b.required;
    const note = a.required !== b.required ? ` Required on surface ${a.required ? 'A' : 'B'}.` : '';
    const description = a.description === b.description ? a.description : `Surface A: ${a.description ?? ''}. Surface B: ${b.description ?? ''}.`;
    // A default both share is the parameter's default, whichever surface answers.
    const dflt = a.schema?.default !== undefined && same(a.schema.default, b.schema?.default) ? { default: a.schema.default } : {};
    const schema = same(a.schema, b.schema) ? a.schema : { anyOf: [titled(a.schema, 'surface A'), titled(b.schema, 'surface B')], ...dflt };
    return { ...a, required, description: `${description ?? ''}${note}`.trim(), schema };
  }
  const only = (a ?? b)!;
  const surface = a ? 'A' : 'B';
  return { ...only, required: false, description: `Surface ${surface} only${only.required ? ' (required there)' : ''}: ${only.description ?? ''}` };
}

function mergeResponse(a: Response | undefined, b: Response | undefined): Response {
  if (!a || !b) return { ...(a ?? b)!, description: `Surface ${a ? 'A' : 'B'} only: ${(a ?? b)!.description ?? ''}` };
  if (same(a, b)) return a;
  const content: Record<string, { schema?: Json }> = {};
  for (const type of new Set([...Object.keys(a.content ?? {}), ...Object.keys(b.content ?? {})])) {
    const sa = a.content?.[type]?.schema;
    const sb = b.content?.[type]?.schema;
    content[type] = { schema: sa && sb && !same(sa, sb) ? { oneOf: [titled(sa, 'surface A'), titled(sb, 'surface B')] } : (sa ?? sb) };
  }
  const description = a.description === b.description ? a.description : `Surface A: ${a.description}. Surface B: ${b.description}.`;
  // Headers either surface sends (an entity tag is surface A's where B's answer carries none).
  const headers = a.headers || b.headers ? { headers: { ...a.headers, ...b.headers } } : {};
  return { ...a, ...b, description, content, ...headers };
}

function byKey<T>(items: T[] | undefined, key: (t: T) => string): Map<string, T> {
  return new Map((items ?? []).map((t) => [key(t), t]));
}

export function mergeOperations(path: string, a: Operation, b: Operation): Operation {
  const key = (p: Parameter) => `${p.in}:${p.name.toLowerCase()}`;
  const pa = byKey(a.parameters, key);
  const pb = byKey(b.parameters, key);
  const parameters = [...new Set([...pa.keys(), ...pb.keys()])].map((k) => mergeParameter(pa.get(k), pb.get(k)));
  const statuses = [...new Set([...Object.keys(a.responses ?? {}), ...Object.keys(b.responses ?? {})])].sort();
  const responses = Object.fromEntries(statuses.map((s) => [s, mergeResponse(a.responses?.[s], b.responses?.[s])]));
  return {
    ...a,
    summary: `${plain(a.summary)} · ${plain(b.summary)}`,
    description: [
      `**Shared path: surface A or surface B answers.** ${dispatchRule(path)}`,
      a.description && `**Surface A.** ${a.description}`,
      b.description && `**Surface B.** ${b.description}`,
    ].filter(Boolean).join('\n\n'),
    tags: [...new Set([...(a.tags ?? []), ...(b.tags ?? [])])],
    parameters: [...parameters, SURFACE_HEADER],
    responses,
  };
}

/** Folds every `path#B` entry into its path (in place) and returns the document. */
export function mergeSharedPaths<T extends { paths?: Record<string, Record<string, Operation>> }>(doc: T): T {
  const paths = doc.paths ?? {};
  for (const marked of Object.keys(paths).filter((p) => p.endsWith(B_SUFFIX))) {
    const path = marked.slice(0, -B_SUFFIX.length);
    const merged = { ...paths[path] };
    for (const [method, b] of Object.entries(paths[marked])) {
      merged[method] = merged[method] ? mergeOperations(path, merged[method], b) : b;
    }
    delete paths[marked];
    paths[path] = merged;
  }
  return doc;
}
