/**
 * `{ ...base, ...fields }`, made by Object.assign. On Node 20 (V8 11.3) an object spread from
 * another and then given a member its source lacks outlives every scavenge: such objects made per
 * request are copied, promoted and left for a full collection (bench/RESULTS.md, "Spread objects
 * and the scavenger"). Built member by member from `{}`, the same object dies young.
 */
export function withFields<T extends object, F extends object>(base: T, fields: F): Omit<T, keyof F> & F {
  return Object.assign({}, base, fields);
}
