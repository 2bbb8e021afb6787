/** The 13 currencies of spec 8.4 and the number of decimals each is written with. */
export const CURRENCY_DECIMALS = {
  AUD: 2, CNY: 2, EUR: 2, GBP: 2, HKD: 2, IDR: 0, JPY: 0,
  MYR: 2, PHP: 2, SGD: 2, THB: 2, USD: 2, VND: 0,
} as const;

export type Currency = keyof typeof CURRENCY_DECIMALS;
export const CURRENCIES = Object.keys(CURRENCY_DECIMALS) as Currency[];
/** V2 search and batch endpoints accept this narrower set (spec 8.4). */
export const V2_CURRENCIES: Currency[] = ['SGD', 'MYR', 'THB', 'PHP', 'VND', 'USD'];

export function isCurrency(code: string): code is Currency {
  return Object.prototype.hasOwnProperty.call(CURRENCY_DECIMALS, code);
}

export function decimalsOf(currency: Currency): number {
  return CURRENCY_DECIMALS[currency];
}

/** Country -> native currency and region code, for records that name only one of them. */
export const COUNTRY_CURRENCY: Record<string, Currency> = {
  SG: 'SGD', MY: 'MYR', TH: 'THB', PH: 'PHP', VN: 'VND', ID: 'IDR', US: 'USD',
  AU: 'AUD', CN: 'CNY', GB: 'GBP', HK: 'HKD', JP: 'JPY',
};
export const SEA_COUNTRIES = ['SG', 'MY', 'TH', 'PH', 'VN', 'ID'];

const CURRENCY_COUNTRY = new Map(Object.entries(COUNTRY_CURRENCY).map(([country, cur]) => [cur as string, country]));

export function countryForCurrency(currency: string): string | null {
  return CURRENCY_COUNTRY.get(currency) ?? null;
}
