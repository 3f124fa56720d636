/**
 * The end of a run: what is in flight when the load stops may finish for a bounded grace, so
 * the last second is not all errors, and nothing holds the end of the run for a whole timeout.
 */
import { setMaxListeners } from 'node:events';

/** How long requests in flight when the run ends may still take to answer before they are cut. */
export const DRAIN_GRACE_MS = 2_000;

/**
 * After a stop signal (SIGINT/SIGTERM: `hurry`), how long the drain may still take, whatever
 * it waited for (requests in flight, message deliveries' windows): the process must end within
 * 2 s of the signal, its report written (docs/design.md §2.8).
 */
export const SIGNAL_DRAIN_MS = 500;

/** A controller aborted `afterMs` after `start` is (at once if it has been). */
function abortAfter(start: AbortSignal, afterMs: number): AbortController {
  const later = new AbortController();
  // Every in-flight request listens on it.
  setMaxListeners(0, later.signal);
  const arm = (): void => void setTimeout(() => later.abort(), afterMs).unref();
  if (start.aborted) arm();
  else start.addEventListener('abort', arm, { once: true });
  return later;
}

/** Aborted SIGNAL_DRAIN_MS after `hurry` (a stop signal); never without one. */
export function hurriedAfter(hurry: AbortSignal | undefined): AbortSignal {
  return hurry ? abortAfter(hurry, SIGNAL_DRAIN_MS).signal : new AbortController().signal;
}

/**
 * A signal that aborts `graceMs` after `stop` does, or when `hurried` does: in-flight requests
 * drain for a while (so the last second of a run is not all errors) but never hold the end of
 * the run for a whole timeout. An exchange cut by it was not answered in the run: it judges nothing.
 */
export function cutAfterStop(stop: AbortSignal, graceMs: number, hurried?: AbortSignal): AbortSignal {
  const cut = abortAfter(stop, graceMs);
  if (hurried?.aborted) cut.abort();
  else hurried?.addEventListener('abort', () => cut.abort(), { once: true });
  return cut.signal;
}
