import { TwoGenerationCache } from '../domain/id-caches.js';
import { titleWords, wordShare } from '../domain/similarity.js';

/** What a candidate is read as: the columns `similar` ranks by. */
export interface CandidateRow { id: number; groupId: number; brand: string | null; title: string }

/** Title words by number, shared by the lists of one generation of `SimilarLists`. */
class WordNumbers {
  private readonly numbers = new Map<string, number>();

  number(word: string): number {
    let n = this.numbers.get(word);
    if (n === undefined) this.numbers.set(word, (n = this.numbers.size));
    return n;
  }

  /** The numbers of `words`; a word no list holds gets -1 (it counts in the size, never as shared). */
  numbersOf(words: Set<string>): Set<number> {
    const out = new Set<number>();
    let unknown = -1;
    for (const w of words) out.add(this.numbers.get(w) ?? unknown--);
    return out;
  }
}

/**
 * A brand's or category's candidates for `similar`, in typed arrays: each candidate's id, match
 * group, brand and its title's distinct words as numbers. A list of 200 candidates is some 10 KB
 * instead of 100 KB of objects and word sets, so the lists of every brand and category of a
 * catalog fit at once.
 */
export class CandidateList {
  private constructor(
    readonly ids: Int32Array,
    readonly groups: Int32Array,
    readonly brands: Array<string | null>,
    private readonly wordStart: Int32Array,
    private readonly words: Int32Array,
    private readonly numbering: WordNumbers,
  ) {}

  static of(rows: CandidateRow[], numbering: WordNumbers): CandidateList {
    const wordStart = new Int32Array(rows.length + 1);
    const words: number[] = [];
    rows.forEach((r, i) => {
      for (const w of titleWords(r.title)) words.push(numbering.number(w));
      wordStart[i + 1] = words.length;
    });
    return new CandidateList(Int32Array.from(rows, (r) => r.id), Int32Array.from(rows, (r) => r.groupId), rows.map((r) => r.brand),
      wordStart, Int32Array.from(words), numbering);
  }

  get length(): number {
    return this.ids.length;
  }

  /** `words` as this list numbers them, for `similarity`. */
  numbersOf(words: Set<string>): Set<number> {
    return this.numbering.numbersOf(words);
  }

  /** The share of words (`wordShare`) candidate `i`'s title has with `own` (from `numbersOf`). */
  similarity(i: number, own: Set<number>): number {
    const from = this.wordStart[i];
    const to = this.wordStart[i + 1];
    let shared = 0;
    for (let k = from; k < to; k++) if (own.has(this.words[k])) shared++;
    return wordShare(shared, own.size, to - from);
  }
}

/** Candidate lists by key, in two generations; `numbering` is shared by the lists it holds. */
export class SimilarLists {
  private readonly lists: TwoGenerationCache<string, CandidateList>;
  private readonly numbering = new WordNumbers();

  constructor(generation: number) {
    this.lists = new TwoGenerationCache(generation);
  }

  get(key: string): CandidateList | undefined {
    return this.lists.get(key);
  }

  add(key: string, rows: CandidateRow[]): CandidateList {
    const list = CandidateList.of(rows, this.numbering);
    this.lists.set(key, list);
    return list;
  }

  /** A list not kept (read across a catalog change), numbered apart from the kept ones. */
  static single(rows: CandidateRow[]): CandidateList {
    return CandidateList.of(rows, new WordNumbers());
  }
}
