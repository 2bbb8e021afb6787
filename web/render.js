// DOM builders of the catalog page. Catalog text only ever becomes a text node (textContent):
// a title like "<img onerror=…>" is shown as written, never parsed as markup.

/** An element with attributes and children (strings become text nodes). */
export function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs)) {
    if (value === null || value === undefined || value === false) continue;
    if (name === 'class') node.className = value;
    else node.setAttribute(name, value === true ? '' : String(value));
  }
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}

/** A non-negative decimal string as an integer of `places` decimals: prices compare exactly. */
function scaled(text, places) {
  const [whole, frac = ''] = String(text).split('.');
  return BigInt(whole + frac.padEnd(places, '0').slice(0, places));
}

/** Exact order of two decimal strings. */
export function compareDecimal(a, b) {
  const places = Math.max((String(a).split('.')[1] ?? '').length, (String(b).split('.')[1] ?? '').length);
  const x = scaled(a, places);
  const y = scaled(b, places);
  return x < y ? -1 : x > y ? 1 : 0;
}

/** The price a record shows in the asked currency (converted), else its own. */
export function shownPrice(record) {
  return record.converted_price !== null && record.converted_price !== undefined
    ? { amount: record.converted_price, currency: record.converted_currency }
    : { amount: record.price, currency: record.currency };
}

const money = ({ amount, currency }) => `${currency} ${amount}`;

const FRESHNESS = { fresh: 'fresh', recent: 'recent', stale: 'stale', very_stale: 'very stale' };

/** "checked 3 h ago" from an ISO time. */
export function ago(iso, now = Date.now()) {
  const s = Math.max(0, Math.round((now - Date.parse(iso)) / 1000));
  if (s < 90) return 'checked just now';
  if (s < 5400) return `checked ${Math.round(s / 60)} min ago`;
  if (s < 129600) return `checked ${Math.round(s / 3600)} h ago`;
  return `checked ${Math.round(s / 86400)} days ago`;
}

function freshness(record) {
  const kind = record.data_freshness ?? 'unknown';
  return el('span', { class: `freshness ${kind}`, title: record.last_checked ?? '' }, FRESHNESS[kind] ?? kind, record.last_checked ? ` · ${ago(record.last_checked)}` : '');
}

/** One search result: name (a link to its product view), price, platform, freshness. */
export function resultItem(record) {
  const price = shownPrice(record);
  const native = price.currency !== record.currency ? el('span', { class: 'native' }, `(${money({ amount: record.price, currency: record.currency })})`) : null;
  const others = record.competitor_count ? el('span', { class: 'others' }, `on ${record.competitor_count + 1} platforms`) : null;
  return el('li', { class: 'result', 'data-id': record.id },
    el('a', { class: 'name', href: `#/product/${record.id}` }, record.name),
    el('div', { class: 'facts' },
      el('span', { class: 'price' }, money(price)), native,
      el('span', { class: 'platform' }, record.source),
      freshness(record), others,
      record.in_stock === false ? el('span', { class: 'out' }, 'out of stock') : null));
}

/** Every offer cheapest first (exact order of the shown prices), with what stands out. */
export function orderOffers(offers) {
  const ordered = [...offers].sort((a, b) => compareDecimal(shownPrice(a).amount, shownPrice(b).amount) || a.id - b.id);
  const rated = ordered.filter((o) => o.rating !== null);
  const best = rated.reduce((top, o) => (!top || compareDecimal(o.rating, top.rating) > 0 || (o.rating === top.rating && (o.review_count ?? 0) > (top.review_count ?? 0)) ? o : top), null);
  return { ordered, cheapestId: ordered[0]?.id ?? null, bestRatedId: best?.id ?? null };
}

/** The offers table of a product view. */
export function offersTable(offers, askedId) {
  const { ordered, cheapestId, bestRatedId } = orderOffers(offers);
  const rows = ordered.map((o) => el('tr', { class: o.id === askedId ? 'offer asked' : 'offer', 'data-id': o.id },
    el('td', { class: 'platform' }, o.source, o.id === askedId ? el('span', { class: 'this' }, ' (this listing)') : null),
    el('td', { class: 'price' }, money(shownPrice(o))),
    el('td', { class: 'native' }, shownPrice(o).currency !== o.currency ? money({ amount: o.price, currency: o.currency }) : ''),
    el('td', {}, o.rating !== null ? `★ ${o.rating}${o.review_count ? ` (${o.review_count})` : ''}` : '–'),
    el('td', {}, freshness(o)),
    el('td', { class: 'badges' },
      o.id === cheapestId ? el('span', { class: 'badge cheapest' }, 'Cheapest') : null,
      o.id === bestRatedId ? el('span', { class: 'badge rated' }, 'Best rated') : null,
      o.in_stock === false ? el('span', { class: 'badge out' }, 'Out of stock') : null),
    el('td', {}, el('a', { href: o.buy_url, rel: 'noopener noreferrer nofollow', target: '_blank' }, 'Visit'))));
  return el('table', { class: 'offers' },
    el('caption', {}, `${ordered.length} offer${ordered.length === 1 ? '' : 's'} across platforms, cheapest first`),
    el('thead', {}, el('tr', {}, ['Platform', 'Price', 'Listed at', 'Rating', 'Data', '', ''].map((h) => el('th', { scope: 'col' }, h)))),
    el('tbody', {}, rows));
}
