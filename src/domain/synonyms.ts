/**
 * Words a shopper uses for the same product (docs/search.md, "Synonyms"). A query word in a group
 * also matches every other word of its group, and such a match ranks as exact: the shopper named
 * the product, only in other words. One token per entry (each is folded as query words are); kept
 * small on purpose, since every entry widens every query that uses it.
 */
export const SYNONYM_GROUPS: readonly (readonly string[])[] = [
  ['tv', 'television', 'tivi'],
  ['earbuds', 'earbud', 'earphones', 'earphone'],
  ['headphones', 'headphone'],
  ['laptop', 'notebook'],
  ['smartphone', 'cellphone'],
  ['fridge', 'refrigerator'],
  ['sneakers', 'trainers'],
  ['powerbank', 'powerbanks'],
];

const BY_WORD: ReadonlyMap<string, readonly string[]> = new Map(SYNONYM_GROUPS.flatMap((g) => g.map((w) => [w, g.filter((o) => o !== w)] as const)));

/** The other words of `token`'s synonym group; none when it has no group. */
export function synonymsOf(token: string): readonly string[] {
  return BY_WORD.get(token) ?? [];
}
