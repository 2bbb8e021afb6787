/** What `{ ...base, ...fields }` is typed as: each member of a union given the fields (spreading nothing gives the fields). */
export type WithFields<T, F> = T extends object ? Omit<T, keyof F> & F : F;

/**
 * `{ ...base, ...fields }`, made by Object.assign. On Node 20 (V8 11.3) an object spread from
 * another and then given a member its source lacks outlives every scavenge: such objects made per
 * request are copied, promoted and left for a full collection (bench/RESULTS.md, "Spread objects
 * and the scavenger"). Built member by member from `{}`, the same object dies young.
 * Not for objects parsed from a client's JSON: an own `__proto__` member, which a spread copies,
 * would set the new object's prototype here.
 */
export function withFields<T extends object | null | undefined, F extends object>(base: T, fields: F): WithFields<T, F> {
  return Object.assign({}, base, fields) as unknown as WithFields<T, F>;
}
