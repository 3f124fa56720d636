/**
 * How long this process's event loop was held up while some work ran: the time a loaded
 * machine (another process on the core, a descheduled test worker) added to anything the
 * work timed on this loop. A test whose subject is timing adds it to its bound instead of
 * widening the bound for every machine: an idle one keeps the tight bound, a stalled one is
 * allowed the stall it had. The reference target of target-helpers.ts runs in the test's
 * process, so its timers and sockets wait on the same loop.
 */

/** How often the loop is sampled: short beside the bounds it serves. */
const SAMPLE_MS = 10;
/** Lateness below this is a timer's ordinary rounding (libuv counts whole milliseconds), not a stall. */
const JITTER_MS = 2;

export interface Stalled<T> {
  value: T;
  /** The total lateness of the loop's samples while the work ran, in ms. */
  stallMs: number;
}

export async function measureStalls<T>(work: () => Promise<T>): Promise<Stalled<T>> {
  let stallMs = 0;
  let dueMs = performance.now() + SAMPLE_MS;
  const late = (): void => {
    const now = performance.now();
    if (now - dueMs > JITTER_MS) stallMs += now - dueMs;
    dueMs = now + SAMPLE_MS;
  };
  let timer: NodeJS.Timeout | undefined;
  const sample = (): void => {
    late();
    timer = setTimeout(sample, SAMPLE_MS);
  };
  timer = setTimeout(sample, SAMPLE_MS);
  try {
    const value = await work();
    // A stall that ended with the work (its answer the first thing the loop saw after it) has
    // no sample yet: the one due is as late as the stall was.
    late();
    return { value, stallMs };
  } finally {
    clearTimeout(timer);
  }
}
