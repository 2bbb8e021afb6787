import type { Currency } from './currencies.js';

/** An alert's condition (domain/alerts.ts evaluates it; docs/alerts.md explains it). */
export type AlertCondition =
  /** The price, converted to `currency` with the service's rates (rounded once), is at or below `target`. */
  | { type: 'price_at_or_below'; target: string; currency: Currency }
  /** The price fell at least `percent` below `basePrice`, the listing's price when the alert was set. */
  | { type: 'drop_percent'; percent: string; basePrice: string; baseCurrency: Currency }
  /** The listing went from not in stock (or unknown) to in stock. */
  | { type: 'back_in_stock' };
export type ConditionType = AlertCondition['type'];
export const CONDITION_TYPES: readonly ConditionType[] = ['price_at_or_below', 'drop_percent', 'back_in_stock'];

