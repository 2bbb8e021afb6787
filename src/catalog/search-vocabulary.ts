import type { TermLookup } from '../domain/search-text.js';
import type { CatalogStore } from '../store/types.js';
import { Vocabulary } from './search-index/vocabulary.js';

/** A load that took longer than this is refreshed in the background, at most once per REFRESH_MS. */
const INLINE_LOAD_MS = 50;
const REFRESH_MS = 30_000;

/**
 * The store's vocabulary (every indexed term and how many listings hold it) for forgiving queries
 * when no in-memory index answers (SEARCH_INDEX=off, or while it builds). Read once, then again after
 * the catalog changed: at once when a read is quick (a small catalog), otherwise in the background
 * at most every REFRESH_MS, the old vocabulary serving meanwhile (a word new since then is still
 * found exactly; only its corrections and completions wait).
 */
export class StoreVocabulary {
  private current: { vocab: Vocabulary; at: number; tookMs: number } | null = null;
  private loading: Promise<Vocabulary> | null = null;
  private dirty = false;

  constructor(private readonly catalog: CatalogStore, private readonly now: () => number = Date.now) {}

  /** The catalog changed: the next lookup reads the vocabulary again (see the class). */
  invalidate(): void {
    this.dirty = true;
  }

  async lookup(): Promise<TermLookup> {
    const c = this.current;
    if (!c) return this.load();
    if (!this.dirty) return c.vocab;
    if (c.tookMs < INLINE_LOAD_MS) return this.load();
    if (this.now() - c.at >= REFRESH_MS) void this.load().catch(() => undefined);
    return c.vocab;
  }

  private load(): Promise<Vocabulary> {
    this.loading ??= (async () => {
      this.dirty = false;
      const started = this.now();
      const docs = new Map(await this.catalog.searchTerms());
      const vocab = new Vocabulary((t) => docs.get(t) ?? 0);
      for (const t of docs.keys()) vocab.add(t);
      this.current = { vocab, at: this.now(), tookMs: this.now() - started };
      return vocab;
    })().finally(() => {
      this.loading = null;
    });
    return this.loading;
  }
}
