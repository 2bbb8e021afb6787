// The catalog page: search, then a product's offers and price chart, over the public API.
import { el, offersTable, resultItem } from './render.js';

const KEY = 'catalog.api_key';
const $ = (id) => document.getElementById(id);
const state = { key: sessionStorage.getItem(KEY), demo: false };

function show(id, ...nodes) {
  for (const other of ['results', 'product']) $(other).hidden = other !== id;
  $(id).replaceChildren(...nodes);
}

function message(text) {
  $('message').hidden = !text;
  $('message').textContent = text ?? '';
}

function keyStatus() {
  $('key-status').textContent = !state.key ? 'No API key yet: paste one to search.' : state.demo ? 'Using the demo key of this server.' : 'Using your key (kept in this tab only).';
  $('key-forget').hidden = !state.key || state.demo;
}

/** The demo key, on the embedded demo store and this machine only (GET /demo/key answers 404 elsewhere). */
async function demoKey() {
  try {
    const res = await fetch('/demo/key', { cache: 'no-store' });
    return res.ok ? (await res.json()).api_key : null;
  } catch {
    return null;
  }
}

async function api(path) {
  if (!state.key) throw new Error('Paste an API key first (npx catalog keys create --tier pro prints one).');
  const res = await fetch(path, { headers: { authorization: `Bearer ${state.key}` } });
  const body = await res.json().catch(() => null);
  if (!res.ok) {
    const text = body?.error?.message ?? body?.detail?.[0]?.msg ?? (typeof body?.detail === 'string' ? body.detail : null) ?? `HTTP ${res.status}`;
    throw new Error(text);
  }
  return body;
}

function params() {
  return { q: $('q').value.trim(), country: $('country').value, currency: $('currency').value };
}

async function search() {
  const p = params();
  if (!p.q) return;
  const query = new URLSearchParams({ q: p.q, currency: p.currency, sort_by: 'relevance', limit: '20' });
  if (p.country) query.set('country', p.country);
  message(null);
  show('results', el('p', { class: 'loading' }, 'Searching…'));
  try {
    const body = await api(`/v1/products/search?${query}`);
    const heading = el('h2', {}, `${body.total} result${body.total === 1 ? '' : 's'} for “${p.q}”`);
    show('results', heading, body.items.length ? el('ol', { class: 'results' }, body.items.map(resultItem)) : el('p', {}, 'Nothing found: try fewer words or another country.'));
  } catch (err) {
    show('results');
    message(err.message);
  }
}

function chartUrl(id, currency) {
  // An <img> sends no header: this one route takes the key in its query (spec 5.2; it reaches logs and history).
  const query = new URLSearchParams({ offers: 'true', days: '90', currency, width: '880', height: '380', api_key: state.key });
  return `/v1/products/${encodeURIComponent(id)}/price-history/chart?${query}`;
}

async function product(id) {
  const { currency } = params();
  message(null);
  show('product', el('p', { class: 'loading' }, 'Loading…'));
  try {
    const [item, cmp] = await Promise.all([
      api(`/v1/products/${encodeURIComponent(id)}?currency=${currency}`),
      api(`/v1/products/${encodeURIComponent(id)}/compare?currency=${currency}`),
    ]);
    const offers = [item, ...cmp.matches];
    show('product',
      el('p', {}, el('a', { href: '#/', class: 'back' }, '← Back to results')),
      el('h2', { class: 'title' }, item.name),
      el('p', { class: 'meta' }, [item.brand, item.category].filter(Boolean).join(' · ')),
      offersTable(offers, item.id),
      el('figure', { class: 'chart' },
        el('img', { src: chartUrl(item.id, currency), alt: `Price of ${item.name} over the last 90 days, every offer`, width: 880, height: 380 }),
        el('figcaption', {}, `Price over the last 90 days in ${currency}, one line per offer; the current lowest is marked.`)));
  } catch (err) {
    show('product');
    message(err.message);
  }
}

async function route() {
  const m = /^#\/product\/([^/?#]+)$/.exec(location.hash);
  if (m) return product(decodeURIComponent(m[1]));
  if ($('q').value.trim()) return search();
  show('results');
}

$('key-form').addEventListener('submit', (e) => {
  e.preventDefault();
  const key = $('key-input').value.trim();
  if (!key) return;
  state.key = key;
  state.demo = false;
  sessionStorage.setItem(KEY, key);
  $('key-input').value = '';
  keyStatus();
  void route();
});
$('key-forget').addEventListener('click', () => {
  sessionStorage.removeItem(KEY);
  state.key = null;
  keyStatus();
});
$('search-form').addEventListener('submit', (e) => {
  e.preventDefault();
  if (location.hash !== '#/') history.pushState(null, '', '#/');
  void search();
});
window.addEventListener('hashchange', () => void route());

if (!state.key) {
  state.key = await demoKey();
  state.demo = state.key !== null;
}
keyStatus();
document.body.dataset.ready = 'true';
void route();
