import Big from 'big.js';
import { describe, expect, it } from 'vitest';
import { FxService } from '../../src/catalog/fx-service.js';
import { CURRENCIES } from '../../src/domain/currencies.js';
import { rateTableToCsv } from '../../src/domain/fx.js';
import { formatMoney } from '../../src/domain/money.js';


const fxService = () => new FxService({ current: async () => null, replace: async () => undefined });

describe('converted prices are remembered per rate table', () => {
  it('equal the exact conversion, for every currency pair', () => {
    const fx = fxService();
    for (const from of CURRENCIES) for (const to of CURRENCIES) for (const price of ['0', '1', '19.99', '123456', '0.01']) {
      const want = formatMoney(fx.convert(new Big(price), from, to), to);
      expect(fx.convertText(price, from, to)).toBe(want);
      expect(fx.convertText(price, from, to)).toBe(want);
    }
  });

  it('a replaced table is used at once', async () => {
    const fx = fxService();
    const before = fx.convertText('100.00', 'USD', 'SGD');
    const doubled = { ...fx.rates(), perEur: { ...fx.rates().perEur, SGD: fx.rates().perEur.SGD.times(2) } };
    await fx.replace(rateTableToCsv(doubled));
    const after = fx.convertText('100.00', 'USD', 'SGD');
    expect(after).toBe(formatMoney(fx.convert(new Big('100.00'), 'USD', 'SGD'), 'SGD'));
    expect(after).not.toBe(before);
  });
});
