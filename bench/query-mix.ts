/**
 * The benchmark's search queries, from a sample of titles: the 4 commonest title words (each in
 * >10% of titles when the catalog has them), 4 mid-frequency words, and 4 two- or three-word
 * queries taken from real titles.
 */
export function queryMix(titles: string[]) {
  const words = (t: string) => t.toLowerCase().match(/[a-z][a-z0-9]{2,}/g) ?? [];
  const df = new Map<string, number>();
  for (const t of titles) for (const w of new Set(words(t))) df.set(w, (df.get(w) ?? 0) + 1);
  const byFreq = [...df.entries()].sort((a, b) => b[1] - a[1]);
  const common = byFreq.slice(0, 4).map(([w]) => w);
  const mid = byFreq.slice(Math.floor(byFreq.length * 0.05), Math.floor(byFreq.length * 0.05) + 4).map(([w]) => w);
  const multi = titles.slice(0, 4).map((t, i) => words(t).slice(0, 2 + (i % 2)).join(' '));
  console.log(`query mix: common ${common.map((w) => `${w} (${Math.round((df.get(w)! / titles.length) * 100)}%)`).join(', ')}; mid ${mid.join(', ')}; multi ${multi.join(' | ')}`);
  return { common, mid, multi, all: [...common, ...mid, ...multi] };
}
