/**
 * Closed workload model: `connections` autocannon connections, each sending its next request
 * as soon as the previous answer is in (autocannon-connections.ts). Every answer's latency goes
 * into OUR histograms from the connection's per-answer event (hrtime from write to last byte,
 * fractional ms); autocannon's runner, its rate mode and its summaries are never used.
 *
 * What this model checks: every answer's status, headers and JSON body (read from what the
 * connection parsed, autocannon-connections.ts), so check evidence is as complete as in
 * the open model. What it cannot: latency from an intended start (a closed loop has no
 * schedule: latency equals service time, and a slow target lowers the offered load instead
 * of queueing it), and which request a connection error or timeout belonged to (autocannon
 * reports those without the request), so such failures are counted but are not evidence.
 *
 * Bodies are shared, not copied per request (autocannon-requests.ts); answers are read to at
 * most MAX_RESPONSE_BODY_BYTES of body (autocannon-body-bound.ts), more fails as `body-too-large`.
 */
import { performance } from 'node:perf_hooks';
import type { Request } from 'autocannon/lib/httpClient.js';
import { failureOfError } from '../../contract/failure-codes.js';
import type { ThroughputSettings } from '../../contract/profile/profile.js';
import { BodyTooLargeError, MAX_RESPONSE_BODY_BYTES } from '../../engine/bounded-body.js';
import type { ScenarioContext } from '../../engine/scenario.js';
import { autocannonTlsOptions, ownTraceparent, withTraceparent, withTransportHeaders } from '../../engine/transport.js';
import { RAMP_SETTLE_MS } from '../../metrics/checks/load-achieved.js';
import { connectionsName, throughputNames } from '../../metrics/names.js';
import { splitApiBase } from '../api-base.js';
import { runConnections } from './autocannon-connections.js';
import { type OutgoingRequest, RequestHeads, sendSharedBodies, sharedBodiesSupported, verifyCertificates } from './autocannon-requests.js';
import type { HttpRequestSpec } from './http-exchange.js';
import { headersFromRaw, normaliseHeaders, type ResponseView } from './response-check.js';
import { recordFailure, recordResponse, type Workload } from './workload.js';

export interface ClosedModelOptions {
  /** Write shared body Buffers (default when supported); false forces autocannon's copying setupRequest path. */
  sharedBodies?: boolean;
}

/** The ids of the traceparent a request carried (both null when none). */
interface SentTrace {
  traceId: string | null;
  spanId: string | null;
}
const NO_TRACE: SentTrace = { traceId: null, spanId: null };

/**
 * What one connection has in flight on the shared-body path (pipelining is 1): written when
 * autocannon asks for the connection's next request, read when its answer is in. One object
 * per connection, overwritten per request.
 */
interface InFlight<M> extends OutgoingRequest, SentTrace {
  memo: M | undefined;
  /** Its bearer token: a 401 to a token being renewed is the token's age, not an answer. */
  authorization: string | undefined;
}

/**
 * Runs until `ctx.endMs` (or abort); resolves when autocannon has closed its connections. Its
 * active time (the throughput denominator) is from its start to the run's end or stop.
 */
export async function runClosedModel<M>(
  ctx: ScenarioContext,
  settings: ThroughputSettings,
  workload: Workload<M>,
  options: ClosedModelOptions = {},
): Promise<void> {
  const names = throughputNames(workload.scenario);
  const startMs = performance.now();
  // Connections that opened late (a slow setup or image corpus) held the load for less of the run.
  ctx.metrics.peak(names.lateStartMs, Math.max(0, Math.min(startMs, ctx.endMs) - ctx.runStartMs - RAMP_SETTLE_MS));
  const remainingMs = ctx.endMs - startMs;
  if (ctx.signal.aborted || remainingMs <= 0) return;
  const { origin } = splitApiBase(ctx.apiBase);
  const { tls, headers: extra } = ctx.transport;
  const secure = origin.startsWith('https:');

  let seq = 0;
  const shared = (options.sharedBodies ?? true) && sharedBodiesSupported();
  const inFlight = new WeakMap<object, InFlight<M>>();
  const heads = new RequestHeads(new URL(origin).host, extra);
  // The fallback (autocannon's setupRequest) keeps what a request carried in autocannon's
  // context; onResponse (body, headers) and the connection's `response` event (latency) fire
  // back to back, synchronously, for the same answer: this slot carries the first to the second.
  let answered: { memo: M | undefined; authorization: string | undefined; trace: SentTrace; view: ResponseView } | undefined;
  const request: Request = {};
  if (!shared) {
    request.onResponse = (status, body, context, headers) => {
      const authorization = context.authorization as string | undefined;
      const sentTrace = (context.trace as SentTrace | undefined) ?? NO_TRACE;
      answered = { memo: context.memo as M | undefined, authorization, trace: sentTrace, view: { status, headers: normaliseHeaders(headers), body } };
    };
    request.setupRequest = (base, context) => {
      const { spec, memo } = workload.next(seq++);
      const { headers, traceId, spanId } = withTraceparent(spec.headers, ctx.transport);
      // The per-connection context lives from this request's build to its answer.
      context.memo = memo;
      context.authorization = spec.headers.authorization;
      context.trace = { traceId, spanId } satisfies SentTrace;
      return { ...base, method: spec.method, path: spec.path, headers: withTransportHeaders(headers, extra), body: spec.body };
    };
  }
  /** The next request of a connection, into its in-flight record, with a traceparent of its own unless it carries one. */
  const nextInto = (sent: InFlight<M>): InFlight<M> => {
    const { spec, memo } = workload.next(seq++);
    sent.spec = spec;
    sent.memo = memo;
    sent.authorization = spec.headers.authorization;
    const own = ownTraceparent(spec.headers, ctx.transport);
    sent.traceparent = own?.header ?? null;
    sent.traceId = own?.traceId ?? null;
    sent.spanId = own?.parentId ?? null;
    return sent;
  };
  const setupClient = (client: object): void => {
    // autocannon speaks HTTP/1.1 only, whatever --http asked (docs/design.md §2.14).
    ctx.metrics.inc(connectionsName('closedModel', 'http/1.1'));
    if (secure && !tls.insecure) verifyCertificates(client);
    if (!shared) return;
    // Each request autocannon writes is built by nextInto, so each gets a traceparent of its own.
    const sent: InFlight<M> = { spec: EMPTY_SPEC, traceparent: null, memo: undefined, authorization: undefined, traceId: null, spanId: null };
    inFlight.set(client, sent);
    sendSharedBodies(client, heads, () => nextInto(sent));
  };

  try {
    await runConnections(
      {
        origin,
        connections: settings.connections,
        timeoutMs: settings.timeoutMs,
        maxBodyBytes: MAX_RESPONSE_BODY_BYTES,
        requests: [request],
        setupClient,
        ...(secure ? { tlsOptions: autocannonTlsOptions(tls), ...(tls.servername !== null ? { servername: tls.servername } : {}) } : {}),
      },
      {
        onAnswer: (client, status, latencyMs, answer) => {
          const metrics = ctx.metrics;
          if (shared) {
            const sent = inFlight.get(client);
            if (sent === undefined || sent.memo === undefined) return;
            if (status === 401 && ctx.credentials !== null && ctx.credentials.staleAnswer(sent.authorization)) return;
            const view: ResponseView = { status, headers: headersFromRaw(answer.rawHeaders), body: answer.body };
            recordResponse(metrics, workload, sent.memo, view, { latencyMs, serviceMs: latencyMs }, sent.traceId, sent.spanId);
            return;
          }
          const current = answered;
          answered = undefined;
          if (current === undefined || current.memo === undefined) return;
          if (current.view.status === 401 && ctx.credentials !== null && ctx.credentials.staleAnswer(current.authorization)) return;
          recordResponse(metrics, workload, current.memo, current.view, { latencyMs, serviceMs: latencyMs }, current.trace.traceId, current.trace.spanId);
        },
        onConnectionError: (error) => recordFailure(ctx.metrics, workload, undefined, failureOfError(error), error.message),
        onTimeout: (timeoutMs) => recordFailure(ctx.metrics, workload, undefined, 'timeout:response', `no answer within ${timeoutMs} ms`),
        onBodyTooLarge: (client, maxBodyBytes) => {
          // The request is known on the shared-body path; autocannon's own path keeps it in its context.
          const memo = shared ? inFlight.get(client)?.memo : undefined;
          recordFailure(ctx.metrics, workload, memo, 'body-too-large', `body-too-large: ${new BodyTooLargeError(maxBodyBytes).message}`);
        },
      },
      ctx.endMs,
      ctx.signal,
    );
  } catch (error) {
    ctx.metrics.sample(workload.scenario, `closed model could not start: ${error instanceof Error ? error.message : String(error)}`);
  }
  // As the open model's: the span load was offered, up to the run's end or stop; a deadline
  // that fired late (a driver behind) or answers read after the end do not stretch it.
  ctx.metrics.peak(names.activeMs, Math.max(0, Math.min(performance.now(), ctx.endMs) - startMs));
}

/** What a connection's in-flight record holds before its first request is built. */
const EMPTY_SPEC: HttpRequestSpec = { method: 'GET', path: '/', headers: {}, body: '' };
