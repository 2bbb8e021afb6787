import { describe, expect, it } from 'vitest';
import { freshnessOf, isAvailable } from '../../src/domain/freshness.js';

const at = '2026-11-01T00:00:00.000Z';
const after = (ms: number) => new Date(Date.parse(at) + ms);
const DAY = 86_400_000;

describe('freshness (spec 2.5)', () => {
  it('tiers by age, the same for a stored string (parsed once) as for a Date', () => {
    const cases: Array<[number, string]> = [[0, 'fresh'], [DAY - 1, 'fresh'], [DAY, 'recent'], [7 * DAY, 'recent'], [7 * DAY + 1, 'stale'],
      [30 * DAY, 'stale'], [30 * DAY + 1, 'very_stale']];
    for (const [age, tier] of cases) {
      expect(freshnessOf(at, after(age))).toBe(tier);
      expect(freshnessOf(new Date(at), after(age))).toBe(tier);
    }
  });

  it('a very stale listing is unavailable whatever its stock flag; otherwise only false is', () => {
    expect(isAvailable(true, at, after(31 * DAY))).toBe(false);
    expect(isAvailable(null, at, after(DAY))).toBe(true);
    expect(isAvailable(false, at, after(0))).toBe(false);
  });
});
