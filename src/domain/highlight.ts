import { foldStrokedD } from './search-text.js';

/** Wraps the words of `query` found in `title` in <em>…</em>, matching accent- and case-insensitively ("dien" marks "Điện"). */
export function highlightTitle(title: string, query: string): string {
  const fold = (s: string) => foldStrokedD(s.normalize('NFKD').replace(/[\u0300-\u036f]/g, '')).toLowerCase();
  const words = new Set(fold(query).match(/[\p{L}\p{N}]+/gu) ?? []);
  if (!words.size) return escapeHtml(title);
  return title.replace(/[\p{L}\p{N}]+|[^\p{L}\p{N}]+/gu, (part) => (words.has(fold(part)) ? `<em>${escapeHtml(part)}</em>` : escapeHtml(part)));
}

function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}
