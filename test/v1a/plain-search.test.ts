import { describe, expect, it } from 'vitest';
import { plainSearch } from '../../src/api/v1a/search-routes.js';

/** What the front door reads of a /v1/search query itself; null leaves it to the route's validation. */
describe('plainSearch', () => {
  it('reads q, limit and offset as the route validates them, with their defaults', () => {
    expect(plainSearch('')).toEqual({ q: undefined, limit: 20, offset: 0 });
    expect(plainSearch('q=apple+iphone&limit=5')).toEqual({ q: 'apple iphone', limit: 5, offset: 0 });
    expect(plainSearch('offset=10000&limit=100&q=sony%20wh%2B')).toEqual({ q: 'sony wh+', limit: 100, offset: 10000 });
    expect(plainSearch('q=h%C3%A0ng&_n=7&_')).toEqual({ q: 'hàng', limit: 20, offset: 0 });
    expect(plainSearch('q=')).toEqual({ q: '', limit: 20, offset: 0 });
  });

  it('gives null for anything else', () => {
    for (const query of ['limit=0', 'limit=101', 'limit=05', 'limit=1.0', 'limit=+5', 'offset=10001', 'offset=-1', 'q=a&q=b', 'q',
      'q=%ZZ', 'q=%E0%B8', 'category=x&q=a', 'api_key=ck_x&q=a', '%71=a', 'q=a&', `q=${'x'.repeat(251)}`, '_%6E=1&q=a']) {
      expect(plainSearch(query), query).toBeNull();
    }
  });
});
