import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import Big from 'big.js';
import type { Currency } from '../domain/currencies.js';
import { convert, parseRateCsv, type RateTable } from '../domain/fx.js';
import { TwoGenerationCache } from '../domain/id-caches.js';
import { formatMoney, toMinor } from '../domain/money.js';
import type { FxStore } from '../store/types.js';

const SHIPPED = fileURLToPath(new URL('../../fx/rates-2025-06-30.csv', import.meta.url));

export function shippedRates(): RateTable {
  return parseRateCsv(readFileSync(SHIPPED, 'utf8'));
}

/** The rate table in force: the one imported with `catalog fx import`, else the shipped one. */
export class FxService {
  private table: RateTable = shippedRates();
  private readonly conversions = new WeakMap<RateTable, TwoGenerationCache<string, string>>();

  constructor(private readonly store: FxStore) {}

  async load(): Promise<void> {
    this.table = (await this.store.current()) ?? shippedRates();
  }

  async replace(csv: string): Promise<RateTable> {
    const table = parseRateCsv(csv);
    await this.store.replace(table);
    this.table = table;
    return table;
  }

  rates(): RateTable {
    return this.table;
  }

  convert(amount: Big, from: Currency, to: Currency): Big {
    return convert(amount, from, to, this.table);
  }

  /**
   * `amount` in `from` converted to `to` and formatted in its decimals, remembered per rate table: a
   * replaced table is a new object, so nothing outlives the rates it was computed with. The same
   * few prices come back all the time, and Big division is the dearest step of a detail page.
   */
  convertText(amount: string, from: Currency, to: Currency): string {
    const table = this.table;
    let memo = this.conversions.get(table);
    if (!memo) this.conversions.set(table, (memo = new TwoGenerationCache(25_000)));
    const key = `${amount} ${from} ${to}`;
    let text = memo.get(key);
    if (text === undefined) {
      text = formatMoney(this.convert(new Big(amount), from, to), to);
      memo.set(key, text);
    }
    return text;
  }

  /** An amount in `currency` as SGD cents, the unit stores filter on; exact until the final rounding. */
  toSgdMinor(amount: number | string, currency: Currency = 'SGD'): number {
    return toMinor(this.convert(new Big(amount), currency, 'SGD'), 'SGD');
  }
}
