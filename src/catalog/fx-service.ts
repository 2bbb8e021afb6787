import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type Big from 'big.js';
import type { Currency } from '../domain/currencies.js';
import { convert, parseRateCsv, type RateTable } from '../domain/fx.js';
import type { FxStore } from '../store/types.js';

const SHIPPED = fileURLToPath(new URL('../../fx/rates-2025-06-30.csv', import.meta.url));

export function shippedRates(): RateTable {
  return parseRateCsv(readFileSync(SHIPPED, 'utf8'));
}

/** The rate table in force: the one imported with `catalog fx import`, else the shipped one. */
export class FxService {
  private table: RateTable = shippedRates();

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
}
