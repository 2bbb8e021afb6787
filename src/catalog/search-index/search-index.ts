import { indexTokens, searchWords, type TermGroup } from '../../domain/search-text.js';
import { PRICE_FACET_RANGES, RATING_FACET_FLOORS, availabilityBuckets, facetLimit } from '../../domain/facets.js';
import type { CategoryCount, FacetBucket, Facets, FilterFacets, ListingFilter, SearchQuery, SortKey } from '../../store/types.js';
import { Columns, STOCK_KINDS, type IndexDoc } from './columns.js';
import { DocTerms } from './doc-terms.js';
import { MAX_ID, Postings, type Group } from './postings.js';
import { TopK } from './top-k.js';
import { Vocabulary } from './vocabulary.js';

export type { IndexDoc } from './columns.js';

/** What the index answers: the page's ids in order, the total and the facets; the store reads the rows. */
export interface IndexAnswer { ids: number[]; total: number; facets?: Facets; filterFacets?: FilterFacets }

/** The weights and constants of the store's ranking, `bm25(listings_fts, 10.0, 4.0, 2.0)`. */
const TITLE = 10;
const BRAND = 4;
const CATEGORY = 2;
const K1 = 1.2;
const B = 0.75;

/**
 * An in-memory search index over every listing: an inverted index of title, brand and category
 * words, and a column per filter and sort key. It answers exactly what the store's `search` answers
 * (the same matches, totals, facets and, for relevance, FTS5's bm25 with the same weights), but
 * without ranking every match: a one-word query walks its term's listings grouped by score and stops
 * after the page, and other queries intersect id-ordered lists and keep only a page-sized heap.
 */
export class SearchIndex {
  /** Term -> number; `lists[number]` holds the term's listings. */
  private readonly terms = new Map<string, number>();
  private readonly lists: Postings[] = [];
  private readonly docTerms = new DocTerms();
  private readonly cols = new Columns();
  private live = 0;
  private totalTokens = 0;
  /** Every term the index has held, for forgiving queries (`forgivingQuery`); a term no listing holds any more counts 0. */
  readonly vocabulary = new Vocabulary((term) => this.lists[this.terms.get(term) ?? -1]?.n ?? 0);

  get size(): number {
    return this.live;
  }

  /**
   * What `CatalogStore.categories` answers (listings with a category, counted by category path and
   * category), from the columns: a pass over them instead of a scan of every listing's row.
   */
  categories(): CategoryCount[] {
    const c = this.cols;
    const width = c.categories.values.length;
    const counts = new Map<number, number>();
    for (let id = 1; id < c.alive.length; id++) {
      if (!c.alive[id] || c.category[id] === 0) continue;
      const key = c.path[id] * width + c.category[id];
      counts.set(key, (counts.get(key) ?? 0) + 1);
    }
    return [...counts].map(([key, count]) => {
      const path = c.paths.values[Math.floor(key / width)];
      return { path: path !== null ? (JSON.parse(path) as string[]) : [c.categories.values[key % width]!], count };
    });
  }

  /** Adds or replaces one listing; false when its id is beyond what the index can hold. */
  upsert(doc: IndexDoc): boolean {
    if (doc.id > MAX_ID || doc.id < 1) return false;
    const c = this.cols;
    c.ensure(doc.id);
    const id = doc.id;
    const signature = textSignature(doc);
    if (!c.alive[id] || c.signature[id] !== signature) {
      if (c.alive[id]) this.unlink(id);
      this.link(id, doc);
      c.signature[id] = signature;
    }
    if (!c.alive[id]) {
      c.alive[id] = 1;
      this.live++;
    }
    c.set(doc);
    return true;
  }

  private link(id: number, doc: IndexDoc): void {
    const freq = new Map<string, number>();
    let length = 0;
    const add = (text: string | null, weight: number) => {
      for (const t of indexTokens(text)) {
        freq.set(t, (freq.get(t) ?? 0) + weight);
        length++;
      }
    };
    add(doc.title, TITLE);
    add(doc.brand, BRAND);
    add(doc.categoryText, CATEGORY);
    length = Math.min(length, 0xffff);
    this.cols.length[id] = length;
    this.totalTokens += length;
    const numbers: number[] = [];
    for (const [term, f] of freq) {
      let t = this.terms.get(term);
      if (t === undefined) {
        t = this.lists.length;
        this.lists.push(new Postings());
        this.terms.set(term, t);
        this.vocabulary.add(term);
      }
      this.lists[t].add(id, f, length);
      numbers.push(t);
    }
    this.docTerms.set(id, numbers);
  }

  private unlink(id: number): void {
    const length = this.cols.length[id];
    for (const t of this.docTerms.get(id)) this.lists[t].remove(id, length);
    this.totalTokens -= length;
    this.docTerms.set(id, []);
  }

  search(q: SearchQuery): IndexAnswer {
    const words = q.text ? searchWords(q.text) : null;
    if (words && !words.length) {
      return {
        ids: [], total: 0, facets: q.facets ? { category: [], platform: [], brand: [], rating: [], price: [] } : undefined,
        ...(q.filterFacets ? { filterFacets: new FilterCounter(this.cols).result() } : {}),
      };
    }
    // A token with synonyms, corrections or completions is an OR of terms (`TermGroup`).
    const forgiving = words && q.terms?.some((g) => g.exact.length + g.near.length > 1) ? this.alternatives(q.terms) : null;
    const lists = forgiving ? forgiving.lists
      : words ? (q.terms ? q.terms.map((g) => g.exact) : words.map((w) => indexTokens(w))).flat().map((t) => this.posting(t)) : null;
    const accept = this.predicate(q.filter);
    const keyset = q.afterId !== undefined;
    const want = keyset ? q.limit : q.offset + q.limit;
    if (!forgiving && !q.exceptExact && lists?.length === 1 && !accept && !keyset && !q.facets && !q.filterFacets && q.sort === 'relevance') {
      return { ids: this.topOfTerm(lists[0], want, !!q.productsFirst).slice(q.offset), total: lists[0].n };
    }
    // A count of one widened token (the total of a forgiving page): its merged list's length.
    if (forgiving && lists!.length === 1 && want === 0 && !accept && !keyset && !q.facets && !q.filterFacets && !q.exceptExact) {
      return { ids: [], total: lists![0].n };
    }
    const ranked = lists !== null && q.sort === 'relevance' && !keyset && want > 0;
    const order = this.orderOf(q.sort, keyset, ranked);
    const top = new TopK(want, order.tieAscending);
    // Products first: accessories rank in a heap of their own and follow every product.
    const accessories = ranked && q.productsFirst ? new TopK(want, order.tieAscending) : null;
    const accessory = this.cols.accessory;
    // Without alternatives every match is exact: the second tier is empty, as on the store.
    const exceptExact = !!(q.terms && q.exceptExact);
    const after = keyset ? this.keysetTest(q.sort, q.afterId!) : null;
    const facets = q.facets ? new FacetCounter(this.cols) : null;
    const filters = q.filterFacets ? new FilterCounter(this.cols) : null;
    let total = 0;
    const visit = (id: number, score: number, exact = forgiving === null) => {
      if (exceptExact && exact) return;
      if (accept && !accept(id)) return;
      total++;
      facets?.add(id);
      filters?.add(id);
      if (after && !after(id)) return;
      (accessories && accessory[id] ? accessories : top).push(ranked ? score : order.key!(id), id);
    };
    if (forgiving && (ranked || exceptExact)) this.intersectGroups(forgiving, ranked, visit);
    else if (forgiving) this.intersect(forgiving.lists, false, visit);
    else if (lists) this.intersect(lists, ranked, visit);
    else {
      const alive = this.cols.alive;
      for (let id = 1; id < alive.length; id++) if (alive[id]) visit(id, 0);
    }
    const page = (keyset && after === null) ? [] : accessories ? [...top.sorted(), ...accessories.sorted()].slice(0, want) : top.sorted();
    return { ids: keyset ? page : page.slice(q.offset), total, facets: facets?.result(), ...(filters ? { filterFacets: filters.result() } : {}) };
  }

  private posting(term: string): Postings {
    return this.lists[this.terms.get(term) ?? -1] ?? EMPTY;
  }

  /**
   * A widened query's lists: for each token the lists of its terms (exact ones first, as the store's
   * query names them) and one list of every listing holding any of them, which the intersection walks.
   */
  private alternatives(groups: TermGroup[]): Alternatives {
    const terms: Postings[][] = [];
    const exactCount: number[] = [];
    const lists: Postings[] = [];
    for (const g of groups) {
      const all = [...g.exact, ...g.near].map((t) => this.posting(t));
      terms.push(all);
      exactCount.push(g.exact.length);
      const held = all.filter((p) => p.n > 0);
      lists.push(held.length === 0 ? EMPTY : held.length === 1 ? held[0] : union(held));
    }
    return { lists, terms, exactCount };
  }

  /**
   * `intersect` for a widened query: the listings holding some term of every token, each scored as
   * FTS5's bm25 scores the OR query (every term a phrase, in the query's order) and marked exact when
   * it holds an exact term (the token or a synonym) of every token.
   */
  private intersectGroups(a: Alternatives, scored: boolean, visit: (id: number, score: number, exact: boolean) => void): void {
    const flat = a.terms.flat();
    const idf = flat.map((p) => this.idf(p));
    const cursors = new Int32Array(flat.length);
    const avgdl = this.totalTokens / this.live;
    const length = this.cols.length;
    const k1Plus1 = K1 + 1.0;
    this.intersect(a.lists, false, (id) => {
      let score = 0;
      let exact = true;
      let k = 0;
      const norm = K1 * (1 - B + (B * length[id]) / avgdl);
      for (let g = 0; g < a.terms.length; g++) {
        let hitExact = false;
        for (let t = 0; t < a.terms[g].length; t++, k++) {
          const p = flat[k];
          const at = p.seek(id, cursors[k]);
          cursors[k] = at;
          if (at >= p.n || p.data[at] >>> 8 !== id) continue;
          const f = p.data[at] & 255;
          if (t < a.exactCount[g]) hitExact = true;
          if (scored) score += idf[k] * ((f * k1Plus1) / (f + norm));
        }
        if (!hitExact) exact = false;
      }
      visit(id, score, exact);
    });
  }

  /**
   * Walks the listings holding every term, the shortest list driving and the others followed by
   * galloping cursors, and hands each one its bm25 score when `scored`.
   */
  private intersect(lists: Postings[], scored: boolean, visit: (id: number, score: number) => void): void {
    if (lists.some((p) => p.n === 0)) return;
    const order = lists.map((_, i) => i).sort((a, b) => lists[a].n - lists[b].n);
    const driver = lists[order[0]];
    const cursors = new Int32Array(lists.length);
    const f = new Float64Array(lists.length);
    const idf = lists.map((p) => this.idf(p));
    const avgdl = this.totalTokens / this.live;
    const length = this.cols.length;
    const k1Plus1 = K1 + 1.0;
    // Long lists get a bitmap: most driver entries are ruled out by one probe before any search.
    const probes = order.slice(1).filter((t) => lists[t].n * 64 >= this.cols.alive.length).map((t) => lists[t].buildBits());
    outer: for (let i = 0; i < driver.n; i++) {
      const e = driver.data[i];
      const id = e >>> 8;
      for (let j = 0; j < probes.length; j++) {
        const bits = probes[j];
        if (id >>> 5 >= bits.length || (bits[id >>> 5] & (1 << (id & 31))) === 0) continue outer;
      }
      f[order[0]] = e & 255;
      for (let j = 1; j < order.length; j++) {
        const t = order[j];
        const p = lists[t];
        const at = p.seek(id, cursors[t]);
        cursors[t] = at;
        if (at >= p.n) break outer;
        const x = p.data[at];
        if (x >>> 8 !== id) continue outer;
        f[t] = x & 255;
      }
      let score = 0;
      if (scored) {
        // The same operations in the same order as FTS5's bm25, so equal listings score equal to the bit.
        const norm = K1 * (1 - B + (B * length[id]) / avgdl);
        for (let t = 0; t < lists.length; t++) score += idf[t] * ((f[t] * k1Plus1) / (f[t] + norm));
      }
      visit(id, score);
    }
  }

  /**
   * The best `want` listings of one term, by bm25 then id descending, visiting nothing below the
   * page; with `productsFirst`, every non-accessory before every accessory (two walks of the groups).
   */
  private topOfTerm(p: Postings, want: number, productsFirst: boolean): number[] {
    const idf = this.idf(p);
    const avgdl = this.totalTokens / this.live;
    const k1Plus1 = K1 + 1.0;
    const groups = [...p.buildGroups(this.cols.length).values()]
      .filter((g) => g.n > 0)
      .map((g) => ({ g, score: 0 + idf * ((g.f * k1Plus1) / (g.f + K1 * (1 - B + (B * g.length) / avgdl))) }))
      .sort((a, b) => b.score - a.score);
    const out: number[] = [];
    const accessory = this.cols.accessory;
    const walk = (keep: ((id: number) => boolean) | null) => {
      for (let i = 0; i < groups.length && out.length < want;) {
        let j = i + 1;
        while (j < groups.length && groups[j].score === groups[i].score) j++;
        mergeDescending(groups.slice(i, j).map((x) => x.g), want - out.length, out, keep);
        i = j;
      }
    };
    if (!productsFirst) walk(null);
    else {
      walk((id) => accessory[id] === 0);
      walk((id) => accessory[id] === 1);
    }
    return out;
  }

  /** FTS5's idf: log((N - n + 0.5) / (n + 0.5)), and 1e-6 when that is not positive. */
  private idf(p: Postings): number {
    const idf = Math.log((this.live - p.n + 0.5) / (p.n + 0.5));
    return idf <= 0 ? 1e-6 : idf;
  }

  private orderOf(sort: SortKey, keyset: boolean, ranked: boolean): { key: ((id: number) => number) | null; tieAscending: boolean } {
    const c = this.cols;
    if (ranked) return { key: null, tieAscending: false };
    if (keyset && sort !== 'price_asc' && sort !== 'price_desc') return { key: (id) => -id, tieAscending: true };
    switch (sort) {
      case 'price_asc': return { key: (id) => -c.price[id], tieAscending: true };
      case 'price_desc': return { key: (id) => c.price[id], tieAscending: false };
      case 'rating': return { key: (id) => c.rating[id], tieAscending: false };
      case 'reviews': return { key: (id) => c.reviews[id], tieAscending: false };
      case 'discount_desc': return { key: (id) => c.discount[id], tieAscending: false };
      case 'deal_desc': return { key: (id) => c.historyDiscount[id], tieAscending: false };
      case 'relevance':
      case 'newest': return { key: (id) => c.updated[id], tieAscending: false };
    }
  }

  /** Deep paging after a listing: (price, id) past it for the price sorts, a higher id otherwise; null when it does not exist. */
  private keysetTest(sort: SortKey, afterId: number): ((id: number) => boolean) | null {
    const c = this.cols;
    if (sort !== 'price_asc' && sort !== 'price_desc') return (id) => id > afterId;
    if (afterId > MAX_ID || afterId >= c.alive.length || !c.alive[afterId]) return null;
    const p0 = c.price[afterId];
    return sort === 'price_asc'
      ? (id) => c.price[id] > p0 || (c.price[id] === p0 && id > afterId)
      : (id) => c.price[id] < p0 || (c.price[id] === p0 && id < afterId);
  }

  /** One test for every filter the query sets, over the columns; null when nothing is filtered. */
  private predicate(f: ListingFilter): ((id: number) => boolean) | null {
    const c = this.cols;
    const lower = (s: string | undefined) => s?.toLowerCase();
    const catLike = lower(f.categoryLike);
    const catExact = f.categoryExact ? `|${f.categoryExact.toLowerCase()}|` : undefined;
    const brandLike = lower(f.brandLike);
    const brandExact = lower(f.brandExact);
    const domain = lower(f.domain);
    const sources = f.sources?.length ? new Set(f.sources) : null;
    const excluded = f.excludeSources?.length ? new Set(f.excludeSources) : null;
    const countries = f.countries?.length ? new Set(f.countries) : null;
    const cat = catLike !== undefined || catExact !== undefined
      ? c.categoryKeys.mask((v) => (catLike === undefined || v.includes(catLike)) && (catExact === undefined || v.includes(catExact)))
      : null;
    const brand = brandLike !== undefined || brandExact !== undefined
      ? c.brands.mask((v) => { const l = v.toLowerCase(); return (brandLike === undefined || l.includes(brandLike)) && (brandExact === undefined || l === brandExact); })
      : null;
    const source = sources || excluded ? c.sources.mask((v) => (!sources || sources.has(v)) && (!excluded || !excluded.has(v))) : null;
    const dom = domain !== undefined ? c.domains.mask((v) => v === domain || v.toLowerCase().endsWith(`.${domain}`)) : null;
    const country = countries ? c.countries.mask((v) => countries.has(v)) : null;
    const stock = f.inStock === undefined ? -1 : f.inStock ? 1 : 0;
    const minP = f.minPriceSgdMinor ?? -Infinity;
    const maxP = f.maxPriceSgdMinor ?? Infinity;
    const minD = f.minDiscountPct;
    const minH = f.minHistoryDiscountPct;
    const noAccessories = !!f.excludeAccessories;
    if (!cat && !brand && !source && !dom && !country && stock === -1 && minP === -Infinity && maxP === Infinity && minD === undefined && minH === undefined
      && !noAccessories) return null;
    return (id) =>
      (cat === null || cat[c.categoryKey[id]] === 1)
      && (brand === null || brand[c.brand[id]] === 1)
      && (source === null || source[c.source[id]] === 1)
      && (dom === null || dom[c.domain[id]] === 1)
      && (country === null || country[c.country[id]] === 1)
      && (stock === -1 || c.inStock[id] === stock)
      && c.price[id] >= minP && c.price[id] <= maxP
      && (minD === undefined || (c.discount[id] >= minD && c.discount[id] > 0))
      && (minH === undefined || (c.historyDiscount[id] >= minH && c.historyDiscount[id] > 0))
      && (!noAccessories || c.accessory[id] === 0);
  }
}

const EMPTY = new Postings();

interface Alternatives { lists: Postings[]; terms: Postings[][]; exactCount: number[] }

/**
 * One list of every listing in any of `lists` (frequencies dropped: the intersection only walks it):
 * the short lists sorted together, then one linear merge with the longest, so a common word's
 * corrections cost a pass over its list rather than a sort of it.
 */
function union(lists: Postings[]): Postings {
  const longest = lists.reduce((a, b) => (b.n > a.n ? b : a));
  const rest = lists.filter((p) => p !== longest);
  const small = new Uint32Array(rest.reduce((n, p) => n + p.n, 0));
  let k = 0;
  for (const p of rest) for (let i = 0; i < p.n; i++) small[k++] = (p.data[i] & ~255) >>> 0;
  small.sort();
  const big = longest.data;
  const data = new Uint32Array(longest.n + small.length);
  let m = 0;
  let i = 0;
  let j = 0;
  while (i < longest.n || j < small.length) {
    const a = i < longest.n ? (big[i] & ~255) >>> 0 : Infinity;
    const b = j < small.length ? small[j] : Infinity;
    const next = a <= b ? a : b;
    if (a === next) i++;
    if (b === next) j++;
    if (m === 0 || data[m - 1] !== next) data[m++] = next;
  }
  const out = new Postings();
  out.data = data;
  out.n = m;
  return out;
}

/** Appends up to `want` ids of equally scored groups (those `keep` accepts, when given), highest id first. */
function mergeDescending(groups: Group[], want: number, out: number[], keep: ((id: number) => boolean) | null = null): void {
  const at = groups.map((g) => g.n - 1);
  for (let taken = 0; taken < want;) {
    let best = -1;
    for (let k = 0; k < groups.length; k++) {
      if (at[k] >= 0 && (best < 0 || groups[k].ids[at[k]] > groups[best].ids[at[best]])) best = k;
    }
    if (best < 0) return;
    const id = groups[best].ids[at[best]--];
    if (keep && !keep(id)) continue;
    out.push(id);
    taken++;
  }
}

/** Title, brand and category text, hashed (53 bits): a listing whose text is unchanged keeps its postings. */
function textSignature(doc: IndexDoc): number {
  const s = `${doc.title}\u0001${doc.brand ?? ''}\u0001${doc.categoryText}`;
  let h1 = 0xdeadbeef;
  let h2 = 0x41c6ce57;
  for (let i = 0; i < s.length; i++) {
    const ch = s.charCodeAt(i);
    h1 = Math.imul(h1 ^ ch, 2654435761);
    h2 = Math.imul(h2 ^ ch, 1597334677);
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  return 4294967296 * (2097151 & h2) + (h1 >>> 0);
}

/** The `facetLimit` largest buckets of a dictionary column's counts, by count descending then value (as SQL's ORDER BY 2 DESC, 1). */
function topBuckets(counts: Int32Array, values: Array<string | null>): FacetBucket[] {
  // Only buckets that can make the first `facetLimit`: those at or above the limit-th largest count.
  const nonZero = counts.filter((n, i) => i > 0 && n > 0);
  const floor = nonZero.length > facetLimit ? nonZero.sort()[nonZero.length - facetLimit] : 1;
  const out: FacetBucket[] = [];
  for (let i = 1; i < counts.length; i++) if (counts[i] >= floor) out.push({ value: values[i]!, count: counts[i] });
  out.sort(byCountThenValue);
  return out.slice(0, facetLimit);
}

const byCountThenValue = (a: FacetBucket, b: FacetBucket) => b.count - a.count || (a.value < b.value ? -1 : a.value > b.value ? 1 : 0);

/** The filter facets over the matches, counted and ordered as every store adapter does. */
class FilterCounter {
  private readonly domain: Int32Array;
  private readonly country: Int32Array;
  /** Index 0 out of stock, 1 in stock (the stock flag); 2 + i the stock level STOCK_KINDS[i]. */
  private readonly stock = new Int32Array(2 + STOCK_KINDS.length);
  private cheapest = -1;
  private dearest = -1;

  constructor(private readonly c: Columns) {
    this.domain = new Int32Array(c.domains.values.length);
    this.country = new Int32Array(c.countries.values.length);
  }

  add(id: number): void {
    const c = this.c;
    this.domain[c.domain[id]]++;
    this.country[c.country[id]]++;
    if (c.inStock[id] >= 0) this.stock[c.inStock[id]]++;
    if (c.stockKind[id]) this.stock[1 + c.stockKind[id]]++;
    // price_asc's first (price, then lower id) and price_desc's first (price, then higher id).
    const p = c.price[id];
    if (this.cheapest < 0 || p < c.price[this.cheapest] || (p === c.price[this.cheapest] && id < this.cheapest)) this.cheapest = id;
    if (this.dearest < 0 || p > c.price[this.dearest] || (p === c.price[this.dearest] && id > this.dearest)) this.dearest = id;
  }

  result(): FilterFacets {
    const s = this.stock;
    const availability = availabilityBuckets({ out_of_stock: s[0], in_stock: s[1], [STOCK_KINDS[0]]: s[2], [STOCK_KINDS[1]]: s[3] });
    return {
      domain: topBuckets(this.domain, this.c.domains.values), country: topBuckets(this.country, this.c.countries.values), availability,
      cheapestId: this.cheapest < 0 ? null : this.cheapest, dearestId: this.dearest < 0 ? null : this.dearest,
    };
  }
}

/** Facet counts over the matches, bucketed and ordered as every store adapter does. */
class FacetCounter {
  private readonly category: Int32Array;
  private readonly source: Int32Array;
  private readonly brand: Int32Array;
  private readonly ratingLevels = new Int32Array(RATING_FACET_FLOORS.length + 1);
  private readonly priceBands = new Int32Array(PRICE_FACET_RANGES.length + 1);

  constructor(private readonly c: Columns) {
    this.category = new Int32Array(c.categories.values.length);
    this.source = new Int32Array(c.sources.values.length);
    this.brand = new Int32Array(c.brands.values.length);
  }

  add(id: number): void {
    const c = this.c;
    this.category[c.category[id]]++;
    this.source[c.source[id]]++;
    this.brand[c.brand[id]]++;
    this.ratingLevels[c.ratingLevel[id]]++;
    this.priceBands[c.priceBand[id]]++;
  }

  result(): Facets {
    const top = topBuckets;
    return {
      category: top(this.category, this.c.categories.values),
      platform: top(this.source, this.c.sources.values),
      brand: top(this.brand, this.c.brands.values),
      // Floors run high to low: floor i is reached by every listing that reaches more than (floors - 1 - i) of them.
      rating: RATING_FACET_FLOORS.map((f, i) => ({ value: `${f}+`, count: this.ratingLevels.slice(RATING_FACET_FLOORS.length - i).reduce((a, b) => a + b, 0) })),
      price: PRICE_FACET_RANGES.map((r, i) => ({ range: r.label, min: r.min, max: r.max, count: this.priceBands[i + 1] })),
    };
  }
}
