import { Type, type Static, type TSchema, type TObject, type TProperties } from 'typebox';
import { withFields } from '../domain/with-fields.js';

/**
 * Building blocks of every route schema. Numbers always carry finite bounds (an Infinity or 1e400
 * coerced from the query fails them); enumerations are `enum`s (one clear error and a real
 * drop-down in the reference); a query takes only its declared parameters.
 */

export function OneOf<const T extends readonly string[]>(values: T, opts: { default?: T[number]; description?: string } = {}) {
  return Type.Unsafe<T[number]>({ type: 'string', enum: [...values], ...opts });
}

export function Int(min: number, max: number, opts: { default?: number; description?: string } = {}) {
  return Type.Integer({ minimum: min, maximum: max, ...opts });
}

/** The largest amount a price bound or price may be: far above any listing, still exact in a double. */
export const MAX_AMOUNT = 1e12;

export function Num(min: number, max: number, opts: { default?: number; description?: string } = {}) {
  return Type.Number({ minimum: min, maximum: max, ...opts });
}

export function Str(opts: { minLength?: number; maxLength: number; pattern?: string; description?: string; default?: string }) {
  return Type.String(opts);
}

/** `modified_since` on the listings a poller syncs (docs/sync.md); read by params.ts modifiedSinceOf. */
export const ModifiedSince = Str({
  maxLength: 40,
  description: 'only listings the server changed at or after this ISO 8601 time (by its clock, not their `updated_at`: a late feed is still after your last poll); send the time of your previous poll less a minute (docs/sync.md)',
});

/** A primitive schema that also takes null (`type: [t, 'null']`, which serializers and validators read fastest). */
export function Nullable<T extends TSchema>(schema: T) {
  const s = schema as unknown as { type?: string | string[]; enum?: unknown[] };
  const type = Array.isArray(s.type) ? s.type : [s.type ?? 'object'];
  // An enumeration takes null only when null is one of its values.
  return Type.Unsafe<Static<T> | null>(withFields(schema, { type: [...type, 'null'], ...(s.enum ? { enum: [...s.enum, null] } : {}) }));
}

/** Parameters a query may carry on every route: the key (spec 5.2) and any `_`-prefixed cache buster (spec 8.3). */
export const FREE_PARAMS = '^(_.*|api_key)$';

/** A member with a default is filled in when absent: required to the code, optional to a caller (and so in the reference). */
function defaultsOptional<T extends TObject>(schema: T): T {
  const required = (schema.required ?? []).filter((k: string) => (schema.properties[k] as { default?: unknown }).default === undefined);
  if (required.length) (schema as { required?: string[] }).required = required;
  else delete (schema as { required?: string[] }).required;
  return schema;
}

/** A querystring of exactly these parameters (wrap the optional ones in Type.Optional). */
export function Query<P extends TProperties>(props: P, opts: { description?: string } = {}): TObject<P> {
  return defaultsOptional(Type.Object(props, { additionalProperties: false, patternProperties: { [FREE_PARAMS]: {} }, ...opts }));
}

/** A JSON body of exactly these fields. */
export function Body<P extends TProperties>(props: P, opts: { description?: string } = {}): TObject<P> {
  return defaultsOptional(Type.Object(props, { additionalProperties: false, ...opts }));
}
