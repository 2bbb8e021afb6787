/**
 * The operations of the served OpenAPI document, in the form the fuzzer needs: where each
 * parameter goes, its schema, the body schema, and the documented answer of each status.
 */
export type Schema = Record<string, unknown> & {
  type?: string | string[]; enum?: unknown[]; const?: unknown; minimum?: number; maximum?: number; exclusiveMinimum?: number; exclusiveMaximum?: number;
  minLength?: number; maxLength?: number; pattern?: string; format?: string; items?: Schema; minItems?: number; maxItems?: number;
  properties?: Record<string, Schema>; required?: string[]; additionalProperties?: boolean | Schema; anyOf?: Schema[]; oneOf?: Schema[]; default?: unknown;
};

export interface Param { name: string; in: 'query' | 'path' | 'header'; required: boolean; schema: Schema }

export interface Operation {
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE' | 'PUT';
  /** The path template as documented, e.g. /v1/products/{ref}. */
  path: string;
  /** The operation's id for messages: `GET /v1/products/{ref}`, plus the surface variant when documented twice. */
  id: string;
  params: Param[];
  body: { schema: Schema; contentType: string; required: boolean } | null;
  /** Status (or `4XX`/`default`) → the JSON schema of the body, null when not JSON or not described. */
  responses: Map<string, { schema: Schema | null; json: boolean }>;
  secured: boolean;
  /** A long-lived answer (text/event-stream): only requests that fail before the stream starts are sent. */
  streaming: boolean;
}

type Doc = { paths: Record<string, Record<string, OperationObject>>; security?: unknown[]; components?: { schemas?: Record<string, Schema> } };
type OperationObject = {
  parameters?: Array<{ name: string; in: string; required?: boolean; schema?: Schema }>;
  requestBody?: { required?: boolean; content?: Record<string, { schema?: Schema }> };
  responses?: Record<string, { content?: Record<string, { schema?: Schema }> }>;
  security?: unknown[];
};

const METHODS = ['get', 'post', 'patch', 'delete', 'put'] as const;

/** Replaces local `$ref`s by their targets (the document has no cycles). */
function deref(node: unknown, doc: Doc): unknown {
  if (Array.isArray(node)) return node.map((n) => deref(n, doc));
  if (!node || typeof node !== 'object') return node;
  const ref = (node as { $ref?: string }).$ref;
  if (typeof ref === 'string' && ref.startsWith('#/')) {
    const target = ref.slice(2).split('/').reduce<unknown>((o, k) => (o as Record<string, unknown>)?.[k.replace(/~1/g, '/').replace(/~0/g, '~')], doc);
    return deref(target, doc);
  }
  return Object.fromEntries(Object.entries(node).map(([k, v]) => [k, deref(v, doc)]));
}

export function operationsOf(raw: unknown): Operation[] {
  const doc = deref(raw, raw as Doc) as Doc;
  const ops: Operation[] = [];
  for (const [documented, item] of Object.entries(doc.paths)) {
    const path = documented.replace(/#.*$/, '');
    for (const m of METHODS) {
      const op = item[m];
      if (!op) continue;
      const params = (op.parameters ?? [])
        .filter((p) => p.in === 'query' || p.in === 'path' || p.in === 'header')
        .map((p) => ({ name: p.name, in: p.in as Param['in'], required: !!p.required, schema: p.schema ?? {} }));
      const content = op.requestBody?.content ?? {};
      const [contentType, media] = Object.entries(content)[0] ?? [];
      const responses = new Map<string, { schema: Schema | null; json: boolean }>();
      let streaming = false;
      for (const [status, r] of Object.entries(op.responses ?? {})) {
        const types = Object.keys(r.content ?? {});
        if (types.includes('text/event-stream')) streaming = true;
        const json = types.find((t) => t.includes('json'));
        responses.set(status, { schema: json ? (r.content![json].schema ?? null) : null, json: !!json });
      }
      ops.push({
        method: m.toUpperCase() as Operation['method'], path, id: `${m.toUpperCase()} ${documented}`, params,
        body: contentType ? { schema: media?.schema ?? {}, contentType, required: !!op.requestBody?.required } : null,
        responses, secured: (op.security ?? doc.security ?? []).length > 0, streaming,
      });
    }
  }
  return ops;
}

/** The documented entry for a status: exact, then its class (`4XX`), then `default`. */
export function documented(op: Operation, status: number) {
  return op.responses.get(String(status)) ?? op.responses.get(`${String(status)[0]}XX`) ?? op.responses.get('default');
}
