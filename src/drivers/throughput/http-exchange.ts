/**
 * One HTTP exchange through the run's undici dispatcher, returned as data: a response view
 * with its timing, or a failure code (`timeout:<phase>`, `net:<errno>`). Never throws.
 *
 * It goes through `dispatch` with a handler of its own rather than undici's `request`: the
 * answer is read whole anyway, and `request` wraps every answer in a Readable stream, an
 * async resource and an abort-signal adapter before this reads it back out, which cost the
 * open model measurable CPU per request (docs/benchmarks.md, "Open model: where the CPU goes").
 * What the stream gave is kept: the body is bounded as it arrives (bounded-body.ts), the
 * timeout bounds the whole exchange, and `cut` aborts it.
 */
import { performance } from 'node:perf_hooks';
import type { Dispatcher } from 'undici';
import { type FailureCode, failureOfError } from '../../contract/failure-codes.js';
import { BodyTooLargeError, decodeBody, MAX_RESPONSE_BODY_BYTES } from '../../engine/bounded-body.js';
import { cutError, ExchangeDeadlineError, ExchangesUnderWay, sweepPeriodFor } from './exchanges-under-way.js';
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
 * The exchanges under way per cut signal (one per run's loop), and those sent without one:
 * one listener on the signal and one sweep timer bound them all (exchanges-under-way.ts).
 */
const underWay = new WeakMap<AbortSignal, ExchangesUnderWay>();
let uncut: ExchangesUnderWay | undefined;

function groupOf(cut: AbortSignal | undefined): ExchangesUnderWay {
  if (cut === undefined) {
    uncut ??= new ExchangesUnderWay();
    return uncut;
  }
  let group = underWay.get(cut);
  if (group === undefined) {
    group = new ExchangesUnderWay(cut);
    underWay.set(cut, group);
  }
  return group;
}

/** The exchanges under way behind `cut` (for tests: how many, and whether their sweep runs). */
export const exchangesUnderWay = (cut?: AbortSignal): { live: number; sweeping: boolean } => groupOf(cut).state;

/** What an exchange past its deadline fails with: undici's code for the phase it was in, so it counts as `timeout:<phase>`. */
class WholeExchangeTimeout extends Error {
  readonly code: string;
  constructor(timeoutMs: number, answered: boolean) {
    super(
      answered ? `the body was still arriving ${timeoutMs} ms after the request was sent` : `no response headers ${timeoutMs} ms after the request was sent`,
    );
    this.code = answered ? 'UND_ERR_BODY_TIMEOUT' : 'UND_ERR_HEADERS_TIMEOUT';
  }
}

/**
 * Sends one request and reads the whole body, at most MAX_RESPONSE_BODY_BYTES of it (more
 * fails the exchange as `body-too-large`, and undici closes the connection). `timeoutMs`
 * bounds the whole exchange, from the send to the last byte (docs/design.md §6, "Request
 * timeout"): undici's own timers end a silence, and the sweep of the exchanges under way ends
 * an answer still arriving past its deadline. `cut` (see ScenarioContext.cut) ends it early,
 * and the caller then knows from `cut.aborted`.
 */
export async function exchange(dispatcher: Dispatcher, origin: string, spec: HttpRequestSpec, timeoutMs: number, cut?: AbortSignal): Promise<ExchangeResult> {
  const startMs = performance.now();
  try {
    const answer = await send(
      dispatcher,
      { origin, path: spec.path, method: spec.method, headers: spec.headers, body: spec.body, headersTimeout: timeoutMs, bodyTimeout: timeoutMs },
      cut,
      startMs,
      timeoutMs,
    );
    const view: ResponseView = { status: answer.status, headers: normaliseHeaders(answer.headers), body: answer.body };
    return { ok: true, view, startMs, endMs: performance.now() };
  } catch (error) {
    const failure = failureOfError(error);
    return { ok: false, failure, detail: `${failure}: ${(error as Error).message ?? String(error)}`, startMs, endMs: performance.now() };
  }
}

/**
 * Dispatches `options` and collects the answer; rejects with undici's error, a
 * BodyTooLargeError, a WholeExchangeTimeout once `timeoutMs` from `startMs` has passed, or the
 * cut's reason.
 */
function send(
  dispatcher: Dispatcher,
  options: Dispatcher.DispatchOptions,
  cut: AbortSignal | undefined,
  startMs: number,
  timeoutMs: number,
  maxBytes = MAX_RESPONSE_BODY_BYTES,
): Promise<Answer> {
  if (cut?.aborted) return Promise.reject(cutError(cut));
  const group = groupOf(cut);
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
      if (controller !== null) group.forget(controller);
      return true;
    };
    dispatcher.dispatch(options, {
      onRequestStart(started) {
        controller = started;
        // Started only now, after a wait for a connection: a cut or a deadline that came first aborts it at once.
        group.add(started, startMs + timeoutMs, sweepPeriodFor(timeoutMs));
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
        if (settle()) reject(error instanceof ExchangeDeadlineError ? new WholeExchangeTimeout(timeoutMs, status !== 0) : error);
      },
    });
  });
}
