/**
 * Closed workload model: `connections` autocannon connections, each sending its next request
 * as soon as the previous answer is in (autocannon-connections.ts). Every answer's latency goes
 * into OUR histograms from the connection's per-answer event (hrtime from write to last byte,
 * fractional ms); autocannon's runner, its rate mode and its summaries are never used.
 *
 * What this model checks: every answer's status, headers and JSON body (autocannon hands each
 * request's `onResponse` the full body and headers), so check evidence is as complete as in
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
import { autocannonTlsOptions, withTraceparent, withTransportHeaders } from '../../engine/transport.js';
import { connectionsName, throughputNames } from '../../metrics/names.js';
import { redact } from '../../util/redact.js';
import { splitApiBase } from '../api-base.js';
import { runConnections } from './autocannon-connections.js';
import { sendSharedBodies, sharedBodiesSupported, verifyCertificates } from './autocannon-requests.js';
import type { HttpRequestSpec } from './http-exchange.js';
import { normaliseHeaders, type ResponseView } from './response-check.js';
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
  const remainingMs = ctx.endMs - startMs;
  if (ctx.signal.aborted || remainingMs <= 0) return;
  const { origin } = splitApiBase(ctx.apiBase);
  const { tls, headers: extra } = ctx.transport;
  const secure = origin.startsWith('https:');

  let seq = 0;
  const shared = (options.sharedBodies ?? true) && sharedBodiesSupported();
  // The request in flight on each connection (pipelining is 1), keyed by autocannon's Client.
  const inFlight = new WeakMap<object, M>();
  // Its bearer token too: a 401 to a token being renewed is the token's age, not an answer.
  const sentAuthorization = new WeakMap<object, string | undefined>();
  // And its trace and span ids, kept with its latency among the slowest (docs/design.md §2.12).
  const sentTrace = new WeakMap<object, SentTrace>();
  // onResponse (body, headers) and the connection's `response` event (latency) fire back
  // to back, synchronously, for the same answer: this slot carries the first to the second.
  let answered: { memo: M | undefined; authorization: string | undefined; trace: SentTrace; view: ResponseView } | undefined;
  const request: Request = {
    onResponse: (status, body, context, headers) => {
      const authorization = context.authorization as string | undefined;
      const trace = (context.trace as SentTrace | undefined) ?? NO_TRACE;
      answered = { memo: context.memo as M | undefined, authorization, trace, view: { status, headers: normaliseHeaders(headers), body } };
    },
  };
  if (!shared) {
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
  const setupClient = (client: object): void => {
    // autocannon speaks HTTP/1.1 only, whatever --http asked (docs/design.md §2.14).
    ctx.metrics.inc(connectionsName('closedModel', 'http/1.1'));
    if (secure && !tls.insecure) verifyCertificates(client);
    if (!shared) return;
    sendSharedBodies(
      client,
      new URL(origin).host,
      (): HttpRequestSpec => {
        const { spec, memo } = workload.next(seq++);
        // Each request autocannon writes is built here, so each gets a traceparent of its own.
        const { headers, traceId, spanId } = withTraceparent(spec.headers, ctx.transport);
        inFlight.set(client, memo);
        sentAuthorization.set(client, spec.headers.authorization);
        sentTrace.set(client, { traceId, spanId });
        return traceId === null ? spec : { ...spec, headers };
      },
      extra,
    );
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
        onAnswer: (client, _status, latencyMs) => {
          const metrics = ctx.metrics;
          const current = answered;
          answered = undefined;
          const memo = shared ? inFlight.get(client) : current?.memo;
          const authorization = shared ? sentAuthorization.get(client) : current?.authorization;
          const trace = (shared ? sentTrace.get(client) : current?.trace) ?? NO_TRACE;
          const stale = current?.view.status === 401 && ctx.credentials !== null && ctx.credentials.staleAnswer(authorization);
          if (current !== undefined && memo !== undefined && !stale) {
            recordResponse(metrics, workload, memo, current.view, { latencyMs, serviceMs: latencyMs }, trace.traceId, trace.spanId);
          }
        },
        onConnectionError: (error) => recordFailure(ctx.metrics, workload, undefined, failureOfError(error), error.message),
        onTimeout: (timeoutMs) => recordFailure(ctx.metrics, workload, undefined, 'timeout:response', `no answer within ${timeoutMs} ms`),
        onBodyTooLarge: (client, maxBodyBytes) => {
          // The request is known on the shared-body path; autocannon's own path keeps it in its context.
          const memo = shared ? inFlight.get(client) : undefined;
          recordFailure(ctx.metrics, workload, memo, 'body-too-large', `body-too-large: ${new BodyTooLargeError(maxBodyBytes).message}`);
        },
      },
      ctx.endMs,
      ctx.signal,
    );
  } catch (error) {
    ctx.metrics.sample(workload.scenario, redact(`closed model could not start: ${error instanceof Error ? error.message : String(error)}`));
  }
  // As the open model's: the span load was offered, up to the run's end or stop; a deadline
  // that fired late (a driver behind) or answers read after the end do not stretch it.
  ctx.metrics.peak(names.activeMs, Math.max(0, Math.min(performance.now(), ctx.endMs) - startMs));
}
