/**
 * The end of a run: what is in flight when the load stops may finish for a bounded grace, so
 * the last second is not all errors, and nothing holds the end of the run for a whole timeout.
 */
import { setMaxListeners } from 'node:events';

/** How long requests in flight when the run ends may still take to answer before they are cut. */
export const DRAIN_GRACE_MS = 2_000;

/**
 * A signal that aborts `graceMs` after `stop` does: in-flight requests drain for a while
 * (so the last second of a run is not all errors) but never hold the end of the run for a
 * whole timeout. An exchange cut by it was not answered in the run: it judges nothing.
 */
export function cutAfterStop(stop: AbortSignal, graceMs: number): AbortSignal {
  const cut = new AbortController();
  // Every in-flight request listens on it.
  setMaxListeners(0, cut.signal);
  const arm = (): void => void setTimeout(() => cut.abort(), graceMs).unref();
  if (stop.aborted) arm();
  else stop.addEventListener('abort', arm, { once: true });
  return cut.signal;
}
