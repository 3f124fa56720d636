/**
 * Capped exponential backoff with full jitter (AWS architecture blog, "Exponential Backoff
 * And Jitter"): delay = random(0, min(max, base · 2^attempt)). Full jitter spreads reopens of
 * streams dropped together, so a target that cuts every stream never sees a reopen storm.
 * Pure: the caller passes the random draw in.
 */
export function backoffDelayMs(attempt: number, baseMs: number, maxMs: number, random01: number): number {
  const ceiling = Math.min(maxMs, baseMs * 2 ** Math.min(attempt, 30));
  return Math.floor(ceiling * random01);
}
