/**
 * One HTTP exchange through the run's undici dispatcher, returned as data: a response view
 * with its timing, or a failure code (`timeout:<phase>`, `net:<errno>`). Never throws.
 *
 * It goes through `dispatch` with a handler of its own rather than undici's `request`: the
 * answer is read whole anyway, and `request` wraps every answer in a Readable stream, an
 * async resource and an abort-signal adapter before this reads it back out, which cost the
 * open model measurable CPU per request (docs/benchmarks.md, "Open model: where the CPU goes").
 * What the stream gave is kept: the body is bounded as it arrives (bounded-body.ts), undici's
 * own headers and body timers bound the wait, and `cut` aborts the exchange.
 */
import { performance } from 'node:perf_hooks';
import type { Dispatcher } from 'undici';
import { type FailureCode, failureOfError } from '../../contract/failure-codes.js';
import { BodyTooLargeError, decodeBody, MAX_RESPONSE_BODY_BYTES } from '../../engine/bounded-body.js';
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

type Controller = Parameters<NonNullable<Dispatcher.DispatchHandler['onRequestStart']>>[0];

/** The answer of one dispatched request, read whole, at most `maxBytes` of body. */
interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/**
 * The exchanges under way per cut signal, which one listener aborts together: a listener of
 * each exchange's own on the run's one signal cost every request an EventTarget add and remove.
 */
const underWay = new WeakMap<AbortSignal, Set<Controller>>();

function track(cut: AbortSignal, controller: Controller): void {
  let live = underWay.get(cut);
  if (live === undefined) {
    const created = new Set<Controller>();
    underWay.set(cut, created);
    cut.addEventListener(
      'abort',
      () => {
        for (const each of created) each.abort(cutError(cut));
        created.clear();
      },
      { once: true },
    );
    live = created;
  }
  live.add(controller);
}

/** The error a cut exchange fails with when the signal gives no reason of its own. */
const cutError = (cut: AbortSignal): Error => (cut.reason instanceof Error ? cut.reason : new Error('the exchange was cut by the end of the run'));

/**
 * Sends one request and reads the whole body, at most MAX_RESPONSE_BODY_BYTES of it (more
 * fails the exchange as `body-too-large`, and undici closes the connection). `timeoutMs`
 * bounds the wait for headers and the body separately (undici's own timers, no per-request
 * setTimeout); `cut` (see ScenarioContext.cut) ends it early, and the caller then knows from
 * `cut.aborted`.
 */
export async function exchange(dispatcher: Dispatcher, origin: string, spec: HttpRequestSpec, timeoutMs: number, cut?: AbortSignal): Promise<ExchangeResult> {
  const startMs = performance.now();
  try {
    const answer = await send(
      dispatcher,
      { origin, path: spec.path, method: spec.method, headers: spec.headers, body: spec.body, headersTimeout: timeoutMs, bodyTimeout: timeoutMs },
      cut,
    );
    const view: ResponseView = { status: answer.status, headers: normaliseHeaders(answer.headers), body: answer.body };
    return { ok: true, view, startMs, endMs: performance.now() };
  } catch (error) {
    const failure = failureOfError(error);
    return { ok: false, failure, detail: `${failure}: ${(error as Error).message ?? String(error)}`, startMs, endMs: performance.now() };
  }
}

/** Dispatches `options` and collects the answer; rejects with undici's error, a BodyTooLargeError, or the cut's reason. */
function send(dispatcher: Dispatcher, options: Dispatcher.DispatchOptions, cut: AbortSignal | undefined, maxBytes = MAX_RESPONSE_BODY_BYTES): Promise<Answer> {
  if (cut?.aborted) return Promise.reject(cutError(cut));
  return new Promise((resolve, reject) => {
    let controller: Controller | null = null;
    let settled = false;
    let status = 0;
    let headers: Answer['headers'] = {};
    const chunks: Buffer[] = [];
    let bytes = 0;
    const settle = (): boolean => {
      if (settled) return false;
      settled = true;
      if (cut !== undefined && controller !== null) underWay.get(cut)?.delete(controller);
      return true;
    };
    dispatcher.dispatch(options, {
      onRequestStart(started) {
        controller = started;
        if (cut === undefined) return;
        // Cut between dispatch and the start: nothing else would abort it.
        if (cut.aborted) started.abort(cutError(cut));
        else track(cut, started);
      },
      onResponseStart(_started, statusCode, responseHeaders) {
        // Informational answers (1xx) precede the answer itself.
        if (statusCode < 200) return;
        status = statusCode;
        headers = responseHeaders;
      },
      onResponseData(started, chunk) {
        if (settled) return;
        bytes += chunk.length;
        if (bytes <= maxBytes) {
          chunks.push(chunk);
          return;
        }
        chunks.length = 0;
        // Aborting closes the connection, so the rest of an endless body is never read.
        started.abort(new BodyTooLargeError(maxBytes));
      },
      onResponseEnd() {
        if (settle()) resolve({ status, headers, body: decodeBody(chunks, bytes) });
      },
      onResponseError(_started, error) {
        if (settle()) reject(error);
      },
    });
  });
}

/** The status of an answered exchange; null when there was no answer. */
export const statusOfExchange = (result: ExchangeResult): number | null => (result.ok ? result.view.status : null);
