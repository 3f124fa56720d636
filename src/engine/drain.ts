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

/*
 * runScenarios makes one such signal per run, ScenarioContext.cut, and every driver's requests
 * carry it. Cutting after the stop, never at it, also keeps clear of a Node bug (24.21, undici
 * 8.13): an h2 request aborted in the same tick it was sent, its body still queued, is
 * destroyed by undici at once and Node's session then writes empty DATA frames for it forever
 * (one core at 100 %, memory without bound). A request sent by the last slot of a pacer whose
 * clock shares its zero with the end timer is exactly that request.
 */
