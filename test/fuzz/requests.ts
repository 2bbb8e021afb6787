import fc, { type Arbitrary } from 'fast-check';
import type { Operation, Param, Schema } from './operations.js';

/**
 * Requests for one operation, as fast-check arbitraries: valid ones drawn from the documented
 * schemas (with the catalog's real ids mixed in, so they reach the handlers), odd but allowed ones
 * (long, NUL and odd Unicode strings), broken ones that break exactly one documented rule, and
 * valid ones sent without a credential.
 */
export type Kind = 'valid' | 'odd' | 'broken' | 'nokey';

export interface FuzzRequest {
  kind: Kind;
  /** What was broken or made odd, for the failure message. */
  what: string;
  method: Operation['method'];
  url: string;
  headers: Record<string, string>;
  payload?: string;
  /** Which credential to send: a key of this tier, or none. */
  credential: 'enterprise' | 'free' | 'none';
  remoteAddress: string;
}

/** Real references of the fuzzed catalog by parameter name; generated values are mixed in. */
export type Fixtures = Record<string, string[]>;

/** Routes that ignore unknown members by their standard (RFC 6749 3.2, RFC 7591 2, JSON-RPC params). */
const LENIENT = /^\/(v1\/oauth|\.well-known|mcp)/;
/** Bodies that are NDJSON or a list of records: a bad record is reported in a 200, not refused. */
const RECORDS = /^\/v1\/(ingest\/products|products\/ingest)$/;
const NUMBER_LIKE = ['abc', '1e400', 'NaN', 'Infinity', '-Infinity', '0x10', ''];
const ODD = ['\u0000', 'a\u0000b', '\u202e\u0644\u0627', '🛒📱', '\ud800', 'ü'.repeat(600), 'x'.repeat(10_000), '%', '\\', '"\'<>', '../../etc/passwd', ' '];

const typeOf = (s: Schema): string | undefined => (Array.isArray(s.type) ? s.type.find((t) => t !== 'null') : s.type);
const nonNull = (list: Schema[]) => list.filter((s) => typeOf(s) !== undefined || s.enum || s.const !== undefined || s.properties);

export function valueOf(schema: Schema, name: string, fx: Fixtures, depth = 0, scope = ''): Arbitrary<unknown> {
  const known = fx[`${scope}.${name}`] ?? fx[name];
  const generic = genericOf(schema, name, fx, depth);
  return known?.length ? fc.oneof({ arbitrary: fc.constantFrom(...known), weight: 3 }, { arbitrary: generic, weight: 1 }) : generic;
}

function genericOf(schema: Schema, name: string, fx: Fixtures, depth: number): Arbitrary<unknown> {
  if (schema.const !== undefined) return fc.constant(schema.const);
  if (schema.enum) return fc.constantFrom(...schema.enum.filter((v) => v !== null));
  const union = schema.anyOf ?? schema.oneOf;
  if (union) {
    const members = nonNull(union);
    return members.length ? fc.oneof(...members.map((m) => valueOf(m, name, fx, depth))) : fc.constant(null);
  }
  switch (typeOf(schema)) {
    case 'integer': {
      const min = schema.minimum ?? (schema.exclusiveMinimum !== undefined ? schema.exclusiveMinimum + 1 : 0);
      const max = schema.maximum ?? (schema.exclusiveMaximum !== undefined ? schema.exclusiveMaximum - 1 : Math.max(min, 0) + 1000);
      return fc.oneof(fc.constantFrom(min, max), fc.integer({ min, max: Math.min(max, min + 1000) }), fc.integer({ min, max }));
    }
    case 'number': {
      const min = schema.minimum ?? 0;
      const max = schema.maximum ?? 1e6;
      return fc.oneof(fc.constantFrom(min, max), fc.double({ min, max, noNaN: true, noDefaultInfinity: true }), fc.integer({ min: Math.ceil(min), max: Math.floor(Math.min(max, 1e6)) }));
    }
    case 'boolean': return fc.boolean();
    case 'array': {
      const item = valueOf(schema.items ?? {}, singular(name), fx, depth + 1);
      const minLength = schema.minItems ?? 0;
      const maxLength = Math.max(minLength, Math.min(schema.maxItems ?? 5, 12));
      return fc.oneof({ arbitrary: fc.array(item, { minLength, maxLength }), weight: 4 }, { arbitrary: fc.array(item, { minLength: schema.maxItems ?? minLength, maxLength: schema.maxItems ?? minLength }), weight: 1 });
    }
    case 'object': {
      if (depth > 4 || !schema.properties) return fc.constant({});
      const props = Object.fromEntries(Object.entries(schema.properties).map(([k, s]) => [k, valueOf(s, k, fx, depth + 1)]));
      return fc.record(props, { requiredKeys: (schema.required ?? []).filter((k) => k in props) });
    }
    case 'string': return stringOf(schema);
    default: return fc.oneof(fc.string({ maxLength: 8 }), fc.integer());
  }
}

function stringOf(s: Schema): Arbitrary<string> {
  const minLength = s.minLength ?? 0;
  const maxLength = Math.max(minLength, Math.min(s.maxLength ?? 40, 40));
  switch (s.format) {
    case 'uuid': return fc.uuid();
    case 'uri': case 'url': return fc.webUrl();
    case 'email': return fc.emailAddress();
    case 'date-time': return fc.date({ min: new Date('2020-01-01'), max: new Date('2030-01-01'), noInvalidDate: true }).map((d) => d.toISOString());
    default: break;
  }
  if (s.pattern) {
    return fc.stringMatching(new RegExp(s.pattern)).filter((x) => x.length >= minLength && x.length <= (s.maxLength ?? Infinity));
  }
  return fc.oneof(
    fc.constantFrom('phone', 'galaxy a55', 'iphone 15', 'điện thoại', 'case', 'laptop', 'SG', 'shopee').filter((x) => x.length >= minLength && x.length <= maxLength),
    fc.string({ minLength, maxLength }),
  );
}

const singular = (name: string) => name.replace(/_ids$/, '_id').replace(/s$/, '');

/** A query or path value as text: arrays comma-joined unless the parameter is an array (then repeated). */
const text = (v: unknown) => (typeof v === 'string' ? v : JSON.stringify(v) ?? '');

/** Values that break the schema of a parameter, each with a label. */
export function breakersOf(schema: Schema): string[] {
  const out: string[] = [];
  if (schema.enum) out.push('zz-not-a-value');
  const t = typeOf(schema);
  if (t === 'integer' || t === 'number') {
    out.push(...NUMBER_LIKE);
    if (schema.maximum !== undefined) out.push(String(schema.maximum + 1));
    if (schema.minimum !== undefined) out.push(String(schema.minimum - 1));
    if (t === 'integer') out.push('1.5');
  }
  if (t === 'boolean') out.push('maybe');
  if (t === 'string') {
    if (schema.maxLength !== undefined) out.push('x'.repeat(schema.maxLength + 1));
    if (schema.format === 'uuid') out.push('not-a-uuid');
    if (schema.pattern) {
      const re = new RegExp(schema.pattern);
      out.push(...['!!', ' ', '\u0000', 'ZZ\u0000ZZ', '-'].filter((c) => !re.test(c)));
    }
    if (schema.minLength && schema.minLength > 0) out.push('');
  }
  return out;
}

export function requestOf(op: Operation, fx: Fixtures, bodyLimit: number): Arbitrary<FuzzRequest> {
  const params = op.params.filter((p) => p.in !== 'header' || p.name.toLowerCase() !== 'authorization');
  // Fixtures may be scoped by the path's second segment (`webhooks.id`, `mcp.body`).
  const scope = op.path.split('/')[op.path.startsWith('/v') ? 2 : 1] ?? '';
  // Optional parameters are mostly left out: shared paths document both surfaces' parameters, and a
  // request that mixes them is refused, so one with many would rarely reach a handler.
  const values = fc.record(Object.fromEntries(params.map((p) => {
    const value = valueOf(p.schema, p.name.toLowerCase(), fx, 0, scope);
    const required = p.required || p.in === 'path';
    return [p.name, required ? value : fc.oneof({ arbitrary: fc.constant(undefined), weight: 4 }, { arbitrary: value, weight: 1 })];
  })));
  const body = op.body ? valueOf(op.body.schema, 'body', fx, 0, scope) : fc.constant(undefined);
  const base = fc.record({
    values, body,
    credential: fc.constantFrom<FuzzRequest['credential']>('enterprise', 'enterprise', 'enterprise', 'free'),
    address: fc.tuple(fc.integer({ min: 1, max: 250 }), fc.integer({ min: 1, max: 250 }), fc.integer({ min: 1, max: 250 })).map(([a, b, c]) => `10.${a}.${b}.${c}`),
  });
  const mutations = mutationsOf(op, params, bodyLimit);
  return fc.tuple(base, fc.constantFrom<Kind>('valid', 'valid', 'odd', 'broken', 'broken', 'broken', 'nokey'), fc.nat(), fc.constantFrom(...ODD)).map(([b, kind, pick, odd]) => {
    const req = assemble(op, params, b.values as Record<string, unknown>, b.body, b.credential, b.address);
    if (kind === 'nokey') return { ...req, kind, what: 'no credential', credential: 'none' as const };
    if (kind === 'odd') {
      const strings = params.filter((p) => typeOf(p.schema) === 'string' && !p.schema.enum && !p.schema.pattern && !p.schema.format && p.in === 'query');
      if (!strings.length) return req;
      const p = strings[pick % strings.length];
      const value = odd.slice(0, p.schema.maxLength ?? odd.length);
      return { ...assemble(op, params, { ...b.values as object, [p.name]: value }, b.body, b.credential, b.address), kind, what: `odd ${p.name}=${JSON.stringify(value.slice(0, 20))}` };
    }
    if (kind === 'broken' && mutations.length) return { ...mutations[pick % mutations.length](req, b.values as Record<string, unknown>, b.body), kind };
    return req;
  });
}

type Mutation = (req: FuzzRequest, values: Record<string, unknown>, body: unknown) => Omit<FuzzRequest, 'kind'>;

function mutationsOf(op: Operation, params: Param[], bodyLimit: number): Mutation[] {
  const out: Mutation[] = [];
  const rebuild = (req: FuzzRequest, values: Record<string, unknown>, body: unknown, what: string, raw?: (u: URL) => void) => {
    const next = assemble(op, params, values, body, req.credential, req.remoteAddress);
    if (raw) {
      const u = new URL(next.url, 'http://x');
      raw(u);
      next.url = u.pathname + u.search;
    }
    return { ...next, what };
  };
  for (const p of params.filter((x) => x.in === 'query' || x.in === 'path')) {
    for (const bad of breakersOf(p.schema)) {
      if (p.in === 'path' && bad === '') continue;
      out.push((req, values, body) => rebuild(req, { ...values, [p.name]: bad }, body, `${p.name}=${JSON.stringify(bad.slice(0, 24))}`));
    }
    if (p.in === 'query' && p.required) {
      out.push((req, values, body) => {
        const { [p.name]: _, ...rest } = values;
        return rebuild(req, rest, body, `without required ${p.name}`);
      });
    }
    const t = typeOf(p.schema);
    if (p.in === 'query' && t !== 'array' && !LENIENT.test(op.path)) {
      out.push((req, values, body) => rebuild(req, values, body, `${p.name} repeated`, (u) => {
        u.searchParams.delete(p.name);
        u.searchParams.append(p.name, text(values[p.name] ?? '1'));
        u.searchParams.append(p.name, text(values[p.name] ?? '2'));
      }));
    }
  }
  if (!LENIENT.test(op.path)) out.push((req, values, body) => rebuild(req, values, body, 'unknown parameter zz_unknown', (u) => u.searchParams.set('zz_unknown', '1')));
  if (op.body && !RECORDS.test(op.path)) {
    const send = (req: FuzzRequest, payload: string, what: string, contentType = 'application/json') => ({ ...req, payload, what, headers: { ...req.headers, 'content-type': contentType } });
    out.push((req) => send(req, '{"a":', 'malformed JSON'));
    out.push((req) => send(req, '['.repeat(50_000) + ']'.repeat(50_000), 'JSON nested 50,000 deep'));
    out.push((req) => send(req, req.payload ?? '{}', 'text/plain body', 'text/plain'));
    out.push((req) => send(req, JSON.stringify({ pad: 'x'.repeat(bodyLimit + 1024) }), `body over ${bodyLimit} bytes`));
    const schema = op.body.schema;
    if (typeOf(schema) === 'object' && !LENIENT.test(op.path)) {
      out.push((req) => send(req, '[]', 'an array for the object'));
      out.push((req, _v, body) => send(req, JSON.stringify({ ...(body as object), zz_unknown: 1 }), 'unknown body member'));
      for (const name of schema.required ?? []) {
        out.push((req, _v, body) => {
          const { [name]: _, ...rest } = (body ?? {}) as Record<string, unknown>;
          return send(req, JSON.stringify(rest), `body without ${name}`);
        });
      }
      for (const [name, prop] of Object.entries(schema.properties ?? {})) {
        if (['string', 'integer', 'number', 'boolean'].includes(typeOf(prop) ?? '')) {
          out.push((req, _v, body) => send(req, JSON.stringify({ ...(body as object), [name]: { nested: [1] } }), `body ${name} as an object`));
        }
        if (typeOf(prop) === 'integer' || typeOf(prop) === 'number') {
          out.push((req, _v, body) => send(req, JSON.stringify({ ...(body as object) }).replace(/}$/, `${Object.keys(body ?? {}).length ? ',' : ''}"${name}":1e400}`), `body ${name}=1e400`));
        }
      }
    }
  }
  return out;
}

function assemble(op: Operation, params: Param[], values: Record<string, unknown>, body: unknown, credential: FuzzRequest['credential'], remoteAddress: string): FuzzRequest {
  let path = op.path;
  const query = new URLSearchParams();
  const headers: Record<string, string> = {};
  for (const p of params) {
    if (!(p.name in values) || values[p.name] === undefined) continue;
    const v = values[p.name];
    // A segment of `.` or `..` (even as %2E) is a dot segment that URL parsing removes, not a value.
    if (p.in === 'path') path = path.replace(`{${p.name}}`, encodeURIComponent(text(v)).replace(/^\.{1,2}$/, (d) => `${d}x`) || '%20');
    else if (p.in === 'header') headers[p.name.toLowerCase()] = text(v).replace(/[^\x20-\x7e]/g, '');
    else if (Array.isArray(v) && typeOf(p.schema) === 'array') for (const item of v) query.append(p.name, text(item));
    else query.set(p.name, text(v));
  }
  const search = query.toString();
  // The Streamable HTTP transport answers 406 unless the client takes both JSON and a stream (docs/mcp.md).
  if (op.path === '/mcp') headers.accept = 'application/json, text/event-stream';
  const req: FuzzRequest = { kind: 'valid', what: 'valid', method: op.method, url: path + (search ? `?${search}` : ''), headers, credential, remoteAddress };
  if (op.body && body !== undefined) {
    if (op.body.contentType.includes('ndjson')) {
      req.payload = (Array.isArray(body) ? body : [body]).map((r) => JSON.stringify(r)).join('\n');
      req.headers['content-type'] = 'application/x-ndjson';
    } else {
      req.payload = JSON.stringify(body);
      req.headers['content-type'] = op.body.contentType.includes('form') ? 'application/json' : op.body.contentType;
    }
  }
  return req;
}
