/**
 * One HTTP exchange through the run's undici dispatcher, returned as data: a response view
 * with its timing, or a failure code (`timeout:<phase>`, `net:<errno>`). Never throws.
 */
import { performance } from 'node:perf_hooks';
import type { Dispatcher } from 'undici';
import { type FailureCode, failureOfError } from '../../contract/failure-codes.js';
import { readBoundedText } from '../../engine/bounded-body.js';
import { normaliseHeaders, type ResponseView } from './response-check.js';

/** One request as both clients (undici, autocannon) take it. */
export interface HttpRequestSpec {
  method: 'PATCH' | 'POST' | 'PUT' | 'GET' | 'DELETE';
  /** Path from the origin, including /api/v1. */
  path: string;
  headers: Record<string, string>;
  /** A shared Buffer (photo bodies) or a JSON string (tags). */
  body: Buffer | string;
}

/** An answered exchange, or why there was no answer; times are performance.now() ms. */
export type ExchangeResult =
  | { ok: true; view: ResponseView; startMs: number; endMs: number }
  | { ok: false; failure: FailureCode; detail: string; startMs: number; endMs: number };

/**
 * Sends one request and reads the whole body, at most MAX_RESPONSE_BODY_BYTES of it (more
 * fails the exchange as `body-too-large`). `timeoutMs` bounds the wait for headers and the
 * body separately (undici's own timers, no per-request setTimeout); `cut` (see
 * ScenarioContext.cut) ends it early, and the caller then knows from `cut.aborted`.
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
    const body = await readBoundedText(response.body);
    const view: ResponseView = { status: response.statusCode, headers: normaliseHeaders(response.headers), body };
    return { ok: true, view, startMs, endMs: performance.now() };
  } catch (error) {
    const failure = failureOfError(error);
    return { ok: false, failure, detail: `${failure}: ${(error as Error).message ?? String(error)}`, startMs, endMs: performance.now() };
  }
}

/** The status of an answered exchange; null when there was no answer. */
export const statusOfExchange = (result: ExchangeResult): number | null => (result.ok ? result.view.status : null);
