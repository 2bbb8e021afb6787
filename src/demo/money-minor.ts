/** Currencies the demo catalog prices in, with their decimals (the same as domain/currencies). */
export const DEMO_DECIMALS = { USD: 2, SGD: 2, MYR: 2, THB: 2, PHP: 2, VND: 0, IDR: 0 } as const;
export type DemoCurrency = keyof typeof DEMO_DECIMALS;

/**
 * Fixed approximate units per 1 USD, times 1000, so conversion stays in integers. Demo data only:
 * the service's own FX table is what normalizes prices.
 */
const PER_USD_MILLI: Record<DemoCurrency, number> = {
  USD: 1000, SGD: 1340, MYR: 4450, THB: 34_500, PHP: 57_500, VND: 25_400_000, IDR: 16_300_000,
};

/** USD cents -> minor units of `currency` (exact integers; the largest product stays far below 2^53). */
export function usdCentsToMinor(cents: number, currency: DemoCurrency): number {
  const scale = DEMO_DECIMALS[currency] === 2 ? 100 : 1;
  return Math.max(1, Math.round((cents * PER_USD_MILLI[currency] * scale) / 100_000));
}

function roundTo(x: number, step: number): number {
  return Math.max(step, Math.round(x / step) * step);
}

/**
 * Rounds a raw minor amount to a shelf price as each market writes it: $x.99 in the US,
 * S$x.90 in Singapore, ฿1,290 in Thailand, 1.299.000đ in Vietnam. `style` (0..2) is a
 * listing's habit, so one seller keeps the same endings over time.
 */
export function shelfPrice(raw: number, currency: DemoCurrency, style: number): number {
  switch (currency) {
    case 'USD':
    case 'SGD':
    case 'MYR': {
      if (raw < 1000) return roundTo(raw, 10) - (style === 0 ? 1 : 0);
      const whole = roundTo(raw, 100);
      if (style === 1) return whole;
      return whole - (currency === 'USD' || style === 2 ? 1 : 10);
    }
    case 'THB':
    case 'PHP': {
      const units = raw / 100;
      if (units < 100) return roundTo(units, 1) * 100;
      if (units >= 10_000) return (roundTo(units, 100) - (style === 0 ? 10 : 0)) * 100;
      return (roundTo(units, 10) - (style === 0 ? 1 : 0)) * 100;
    }
    case 'VND':
      if (raw < 100_000) return roundTo(raw, 1000);
      return style === 0 ? roundTo(raw, 10_000) - 1000 : roundTo(raw, 1000);
    case 'IDR':
      if (raw < 100_000) return roundTo(raw, 100);
      return style === 0 ? roundTo(raw, 10_000) - 1000 : roundTo(raw, 1000);
  }
}

/** Integer minor units -> exact decimal string; never goes through a float format. */
export function formatMinor(minor: number, currency: DemoCurrency): string {
  if (DEMO_DECIMALS[currency] === 0) return String(minor);
  const cents = minor % 100;
  return `${(minor - cents) / 100}.${cents < 10 ? '0' : ''}${cents}`;
}
