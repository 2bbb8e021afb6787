/**
 * A value of a query or form (application/x-www-form-urlencoded): `+` a space, escapes decoded;
 * null where the escapes are not valid UTF-8 (each caller decides what a malformed one means).
 */
export function formDecoded(raw: string): string | null {
  const text = raw.replace(/\+/g, ' ');
  if (!text.includes('%')) return text;
  try {
    return decodeURIComponent(text);
  } catch {
    return null;
  }
}
