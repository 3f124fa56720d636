/**
 * One HTTP exchange through the run's undici dispatcher, returned as data: a response view
 * with its timing, or a failure code (`timeout:<phase>`, `net:<errno>`). Never throws.
 */
import { setMaxListeners } from 'node:events';
import { performance } from 'node:perf_hooks';
import type { Dispatcher } from 'undici';
import { type FailureCode, failureOfError } from '../../contract/failure-codes.js';
import { normaliseHeaders, type ResponseView } from './response-check.js';

/** One request as both clients (undici, autocannon) take it. */
export interface HttpRequestSpec {
  method: 'PATCH' | 'POST' | 'PUT' | 'GET';
  /** Path from the origin, including /api/v1. */
  path: string;
  headers: Record<string, string>;
  /** A shared Buffer (photo bodies) or a JSON string (tags). */
  body: Buffer | string;
}

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

/** An answered exchange, or why there was no answer; times are performance.now() ms. */
export type ExchangeResult =
  | { ok: true; view: ResponseView; startMs: number; endMs: number }
  | { ok: false; failure: FailureCode; detail: string; startMs: number; endMs: number };

/**
 * Sends one request and reads the whole body. `timeoutMs` bounds the wait for headers and
 * the body separately (undici's own timers, no per-request setTimeout); `cut` (see
 * cutAfterStop) ends it early, and the caller then knows from `cut.aborted`.
 */
export async function exchange(dispatcher: Dispatcher, origin: string, spec: HttpRequestSpec, timeoutMs: number, cut?: AbortSignal): Promise<ExchangeResult> {
  const startMs = performance.now();
  try {
    const response = await dispatcher.request({
      origin,
      path: spec.path,
      method: spec.method,
      headers: spec.headers,
      body: spec.body,
      headersTimeout: timeoutMs,
      bodyTimeout: timeoutMs,
      ...(cut ? { signal: cut } : {}),
    });
    const body = await response.body.text();
    const view: ResponseView = { status: response.statusCode, headers: normaliseHeaders(response.headers), body };
    return { ok: true, view, startMs, endMs: performance.now() };
  } catch (error) {
    const failure = failureOfError(error);
    return { ok: false, failure, detail: `${failure}: ${(error as Error).message ?? String(error)}`, startMs, endMs: performance.now() };
  }
}
