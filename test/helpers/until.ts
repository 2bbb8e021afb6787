/**
 * Asks `check` again every `everyMs` until it answers true or `withinMs` has passed, and answers
 * its last answer: the caller asserts on what it waited for, so a timeout fails with the caller's
 * message. A check that throws (a server not listening yet) counts as false.
 */
export async function until(check: () => boolean | Promise<boolean>, withinMs: number, everyMs = 25): Promise<boolean> {
  const end = Date.now() + withinMs;
  for (;;) {
    let ok = false;
    try {
      ok = await check();
    } catch { /* not yet */ }
    if (ok || Date.now() >= end) return ok;
    await new Promise((r) => setTimeout(r, everyMs));
  }
}
