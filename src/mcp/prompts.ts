import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';

/** Prompts for the common shopping tasks: each a plan in the tools' own terms, for the model to carry out. */

const user = (text: string) => ({ messages: [{ role: 'user' as const, content: { type: 'text' as const, text } }] });

const SIGNALS = 'Prefer offers whose signals say is_available true, data_freshness fresh or recent, and confidence_score of 0.7 or more; '
  + 'say so when the best price fails one of these.';

export function registerPrompts(server: McpServer): void {
  server.registerPrompt('find_best_offer', {
    title: 'Find the best offer',
    description: 'Find the best offer for a product in a market, under a budget.',
    argsSchema: {
      product: z.string().describe('what to buy, e.g. "galaxy s24 256gb"'),
      country: z.string().optional().describe('two-letter market code (SG, MY, TH, PH, VN, ID, US) or SEA; empty for any'),
      budget: z.string().optional().describe('the most to pay, a number'),
      currency: z.string().optional().describe('currency of the budget (default SGD)'),
    },
  }, ({ product, country, budget, currency }) => {
    const cur = currency?.trim().toUpperCase() || 'SGD';
    const where = country?.trim() ? ` in ${country.trim().toUpperCase()}` : '';
    const under = budget?.trim() ? ` for at most ${budget.trim()} ${cur}` : '';
    return user([
      `Find the best offer for "${product}"${where}${under}.`,
      `1. Call search_products with query "${product}"${where ? `, country ["${country!.trim().toUpperCase()}"]` : ''}`
        + `${under ? `, max_price ${budget!.trim()}, currency "${cur}"` : `, currency "${cur}"`} and sort "relevance". Pick the results that are really this product (not accessories or other models).`,
      '2. For the two or three best candidates, call compare_offers with their id to see every platform\'s offer and the highlights.',
      `3. ${SIGNALS}`,
      '4. Call price_history on the offer you choose, and say whether its price is low now against the window\'s average and lowest.',
      '5. Answer with the offer: title, platform, price (and converted_price), why it is the best, and its link (affiliate_url when present, else url). '
        + 'If nothing fits the budget, say so and give the cheapest offer found.',
    ].join('\n'));
  });

  server.registerPrompt('buy_now_or_wait', {
    title: 'Buy now or wait?',
    description: 'Judge whether now is a good time to buy a product, from its price history and current offers.',
    argsSchema: {
      product: z.string().describe('an integer product id, UUID, SKU, or the product\'s name'),
    },
  }, ({ product }) => user([
    `Should I buy "${product}" now or wait?`,
    `1. If "${product}" is not an id, UUID, SKU, barcode or product URL, find it with search_products and take the id of the best match.`,
    '2. Call price_history with days 90, and compare_offers, on that id.',
    `3. Compare the cheapest current offer with the window's lowest and average price and its trend. ${SIGNALS}`,
    '4. Call deals with the product\'s category to see whether similar products are discounted now.',
    '5. Answer: buy now (where and at what price, with the link) or wait (why, and what price would be a good one).',
  ].join('\n')));
}
