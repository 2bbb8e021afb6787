import type { Currency } from '../../domain/currencies.js';
import { V2_CURRENCIES } from '../../domain/currencies.js';
import { invalidInput } from '../../http/request-error.js';

/** What an agent's `X-Session-Context` header may carry (spec 4.4): base64 of this JSON. */
export interface SessionContext {
  budget?: { min?: number; max?: number };
  targetCurrency?: Currency;
  preferredSources?: string[];
  excludedSources?: string[];
}

const HEADER = 'X-Session-Context';
const bad = (msg: string) => invalidInput(['header', HEADER], `${HEADER} ${msg}`, 'value_error');

const amount = (v: unknown, name: string): number | undefined => {
  if (v === undefined || v === null) return undefined;
  if (typeof v !== 'number' || !Number.isFinite(v) || v < 0 || v > 1e12) throw bad(`${name} must be a number from 0 to 10^12`);
  return v;
};

const sources = (v: unknown, name: string): string[] | undefined => {
  if (v === undefined || v === null) return undefined;
  if (!Array.isArray(v) || v.length > 50 || !v.every((s) => typeof s === 'string' && s.length > 0 && s.length <= 64)) {
    throw bad(`${name} must be an array of at most 50 platform keys`);
  }
  return v.map((s: string) => s.toLowerCase());
};

/**
 * The header decoded and checked: base64 (standard or URL-safe) of a JSON object with optional
 * budget {min, max}, target_currency and preferences {preferred_sources, excluded_sources}. A
 * header that is there but malformed is a 422 naming it, never ignored.
 */
export function parseSessionContext(raw: string | string[] | undefined): SessionContext | null {
  if (raw === undefined) return null;
  const text = Array.isArray(raw) ? raw[0] : raw;
  if (text.length > 8192) throw bad('is longer than 8192 characters');
  let json: unknown;
  try {
    const decoded = Buffer.from(text.trim(), 'base64');
    if (!decoded.length) throw new Error('empty');
    json = JSON.parse(decoded.toString('utf8'));
  } catch {
    throw bad('must be base64 of a JSON object');
  }
  if (!json || typeof json !== 'object' || Array.isArray(json)) throw bad('must be base64 of a JSON object');
  const o = json as Record<string, unknown>;
  const budget = o.budget as Record<string, unknown> | undefined;
  if (budget !== undefined && (budget === null || typeof budget !== 'object' || Array.isArray(budget))) throw bad('budget must be an object {min, max}');
  const min = amount(budget?.min, 'budget.min');
  const max = amount(budget?.max, 'budget.max');
  if (min !== undefined && max !== undefined && min > max) throw bad('budget.min must not be greater than budget.max');
  let targetCurrency: Currency | undefined;
  if (o.target_currency !== undefined) {
    if (typeof o.target_currency !== 'string' || !(V2_CURRENCIES as string[]).includes(o.target_currency.toUpperCase())) {
      throw bad(`target_currency must be one of: ${V2_CURRENCIES.join(', ')}`);
    }
    targetCurrency = o.target_currency.toUpperCase() as Currency;
  }
  const prefs = o.preferences as Record<string, unknown> | undefined;
  if (prefs !== undefined && (prefs === null || typeof prefs !== 'object' || Array.isArray(prefs))) throw bad('preferences must be an object');
  return Object.assign(
    {},
    min !== undefined || max !== undefined ? { budget: { min, max } } : {},
    targetCurrency ? { targetCurrency } : {},
    prefs?.preferred_sources !== undefined ? { preferredSources: sources(prefs.preferred_sources, 'preferences.preferred_sources') } : {},
    prefs?.excluded_sources !== undefined ? { excludedSources: sources(prefs.excluded_sources, 'preferences.excluded_sources') } : {},
  );
}
