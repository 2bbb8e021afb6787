import { describe, expect, it } from 'vitest';
import { withFields } from '../../src/domain/with-fields.js';

describe('withFields', () => {
  it('is the spread it replaces: base members, then the fields, the fields winning; base unchanged', () => {
    const base = { text: 'tv', limit: 20, facets: true as boolean | undefined };
    const out = withFields(base, { limit: 0, facets: undefined, terms: ['tv'] });
    expect(out).toEqual({ ...base, limit: 0, facets: undefined, terms: ['tv'] });
    expect(Object.keys(out)).toEqual(['text', 'limit', 'facets', 'terms']);
    expect(base).toEqual({ text: 'tv', limit: 20, facets: true });
    expect(out).not.toBe(base);
  });
});
