/** Facet buckets shared by every store adapter, so facets agree whatever the store. */
export const facetLimit = 20;
export const RATING_FACET_FLOORS = [4, 3, 2, 1];

/** SGD price ranges; bounds in integer cents, `max` exclusive. */
export const PRICE_FACET_RANGES = [
  { label: 'under 10', min: null, max: '10.00', minMinor: null, maxMinor: 1000 },
  { label: '10 to 50', min: '10.00', max: '50.00', minMinor: 1000, maxMinor: 5000 },
  { label: '50 to 100', min: '50.00', max: '100.00', minMinor: 5000, maxMinor: 10000 },
  { label: '100 to 500', min: '100.00', max: '500.00', minMinor: 10000, maxMinor: 50000 },
  { label: '500 to 1000', min: '500.00', max: '1000.00', minMinor: 50000, maxMinor: 100000 },
  { label: '1000 and above', min: '1000.00', max: null, minMinor: 100000, maxMinor: null },
] as const;

/** The values of B search's `availability` filter, as the availability facet counts them. */
export const AVAILABILITY_VALUES = ['in_stock', 'out_of_stock', 'preorder', 'discontinued'] as const;

/** Availability counts as facet buckets: zeros left out, most first, then by value (as every facet is ordered). */
export function availabilityBuckets(counts: Partial<Record<(typeof AVAILABILITY_VALUES)[number], number>>): Array<{ value: string; count: number }> {
  return AVAILABILITY_VALUES.map((value) => ({ value, count: Number(counts[value] ?? 0) }))
    .filter((b) => b.count > 0)
    .sort((a, b) => b.count - a.count || (a.value < b.value ? -1 : a.value > b.value ? 1 : 0));
}
