import { describe, expect, it } from 'vitest';
import { interpretAgentQuery } from '../../src/domain/agent-query.js';

describe('interpretAgentQuery', () => {
  it.each([
    ['I need a cheap samsung galaxy phone under 500', 'samsung galaxy phone', null, { amount: '500', currency: null }],
    ['wireless earbuds between $20 and S$50.50 please', 'wireless earbuds', { amount: '20', currency: null }, { amount: '50.5', currency: 'SGD' }],
    ['kettle over RM 1,200', 'kettle', { amount: '1200', currency: 'MYR' }, null],
    ['ps5 less  than 1.5k usd', 'ps5', null, { amount: '1500', currency: 'USD' }],
    ['rice cooker at least 300000 vnd and at most 900000₫', 'rice cooker', { amount: '300000', currency: 'VND' }, { amount: '900000', currency: 'VND' }],
  ])('%s', (q, keywords, min, max) => {
    expect(interpretAgentQuery(q)).toEqual({ keywords, minPrice: min, maxPrice: max });
  });

  it('a number that is a size or a model stays a word; a cue without an amount is dropped', () => {
    expect(interpretAgentQuery('iphone 15 pro max 256 gb')).toEqual({ keywords: 'iphone 15 pro max 256 gb', minPrice: null, maxPrice: null });
    expect(interpretAgentQuery('laptop under 2 kg').keywords).toBe('laptop 2 kg');
    expect(interpretAgentQuery('macbook from 2019').keywords).toBe('macbook from 2019');
  });

  it('only filler leaves no keywords; words other than English filler are kept, at most 16', () => {
    expect(interpretAgentQuery('show me something good please').keywords).toBe('');
    expect(interpretAgentQuery('Nồi cơm điện Sharp').keywords).toBe('nồi cơm điện sharp');
    expect(interpretAgentQuery(`the ${Array.from({ length: 20 }, (_, i) => `w${i}`).join(' a ')}`).keywords.split(' ')).toHaveLength(16);
  });
});
