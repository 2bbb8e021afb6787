/**
 * The benchmark's search queries, from a sample of titles: the 4 commonest title words (each in
 * >10% of titles when the catalog has them), 4 mid-frequency words, 4 two- or three-word
 * queries taken from real titles, and up to 4 of those single words misspelled (their third and
 * fourth letters swapped: what forgiving search corrects, docs/search.md), and non-Latin text: the
 * commonest Thai word and Vietnamese word, the Vietnamese one also typed without its diacritics.
 */
export function queryMix(titles: string[]) {
  const words = (t: string) => t.toLowerCase().match(/[a-z][a-z0-9]{2,}/g) ?? [];
  const df = new Map<string, number>();
  for (const t of titles) for (const w of new Set(words(t))) df.set(w, (df.get(w) ?? 0) + 1);
  const byFreq = [...df.entries()].sort((a, b) => b[1] - a[1]);
  const common = byFreq.slice(0, 4).map(([w]) => w);
  const mid = byFreq.slice(Math.floor(byFreq.length * 0.05), Math.floor(byFreq.length * 0.05) + 4).map(([w]) => w);
  const multi = titles.slice(0, 4).map((t, i) => words(t).slice(0, 2 + (i % 2)).join(' '));
  const typos = [...common, ...mid].filter((w) => w.length >= 5 && w[2] !== w[3] && /^[a-z]+$/.test(w)).slice(0, 4)
    .map((w) => w.slice(0, 2) + w[3] + w[2] + w.slice(4));
  const native = new Map<string, number>();
  for (const t of titles) for (const w of new Set(t.toLowerCase().split(/[\s|,()[\]【】]+/u))) if (/[^ -~]/.test(w) && w.length > 1) native.set(w, (native.get(w) ?? 0) + 1);
  const top = (test: RegExp) => [...native.entries()].filter(([w]) => test.test(w)).sort((a, b) => b[1] - a[1])[0]?.[0];
  const thai = top(/[\u0e00-\u0e7f]/u);
  const vietnamese = top(/[\u00c0-\u1ef9]/u);
  const folded = vietnamese?.normalize('NFD').replace(/\p{M}/gu, '').replace(/đ/g, 'd');
  const nonLatin = [thai, vietnamese, folded].filter((w): w is string => !!w);
  console.log(`query mix: common ${common.map((w) => `${w} (${Math.round((df.get(w)! / titles.length) * 100)}%)`).join(', ')}; mid ${mid.join(', ')}; multi ${multi.join(' | ')}; typos ${typos.join(', ')}; non-Latin ${nonLatin.join(', ')}`);
  return { common, mid, multi, typos, nonLatin, all: [...common, ...mid, ...multi, ...typos, ...nonLatin] };
}
