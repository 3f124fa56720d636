/**
 * The request pipeline: OPTIONS preflight, routing under /api/v1, auth, the handler, and one
 * place that turns any thrown problem (or unexpected error) into problem+json.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { redact } from '../../util/redact.js';
import { chance, routeKey } from '../faults/faults.js';
import type { RequestContext, TargetApp } from '../target-app.js';
import { authenticate } from './auth.js';
import { HttpProblem, problems } from './problem.js';
import { ClientGoneError } from './read-json.js';
import type { Router } from './router.js';
import { answerTokenRequest, TOKENS_PATH } from './token-issuer.js';

/** Every route lives under this prefix. */
export const API_PREFIX = '/api/v1';

/** Fixed, illustrative deprecation date (RFC 9745 `@<epoch seconds>`): 2023-01-01T00:00:00Z. */
export const DEPRECATION_VALUE = '@1672531200';

/** Counts requests; `requests` is read by stats(). */
export interface RequestCounter {
  requests: number;
}

/** Builds the server's request listener over `router`, counting requests into `counter`. */
export function createDispatcher(app: TargetApp, router: Router, counter: RequestCounter) {
  return (req: IncomingMessage, res: ServerResponse): void => {
    counter.requests += 1;
    // Lets a client (and the tests) see which worker a connection landed on.
    if (app.workerLabel !== undefined) res.setHeader('x-coachbench-worker', app.workerLabel);
    const url = req.url ?? '/';
    const queryAt = url.indexOf('?');
    const path = queryAt === -1 ? url : url.slice(0, queryAt);
    app.traceLog?.watch(req, res, path);
    const extraHeaders: Record<string, string> = {};
    const fail = (error: unknown): void => {
      if (error instanceof ClientGoneError || res.destroyed) return;
      if (!(error instanceof HttpProblem)) {
        // A bug in the target: say so on stderr (redacted) rather than hide it in a 500.
        process.stderr.write(`coachbench target: internal error on ${req.method} ${path}: ${redact(String((error as Error)?.stack ?? error))}\n`);
      }
      const problem = error instanceof HttpProblem ? error : new HttpProblem(500, 'internal-error', 'the target failed to handle this request');
      if (app.reply.hasAnswered(res)) return;
      app.reply.problem(res, new HttpProblem(problem.status, problem.slug, problem.message, { ...extraHeaders, ...problem.headers }), path);
    };
    try {
      // Preflight needs no credentials (browsers never send them on OPTIONS).
      if (req.method === 'OPTIONS') {
        req.resume();
        app.reply.empty(res, 204);
        return;
      }
      if (path === TOKENS_PATH && app.tokensExpire) {
        answerTokenRequest(app, req, res);
        return;
      }
      if (path !== API_PREFIX && !path.startsWith(`${API_PREFIX}/`)) throw problems.notFound(`no such path (the API lives under ${API_PREFIX})`);
      const match = router.match(req.method ?? 'GET', path.slice(API_PREFIX.length));
      if (match.kind === 'not-found') throw problems.notFound('no such path');
      if (match.kind === 'method-not-allowed') {
        throw new HttpProblem(405, 'method-not-allowed', `${req.method} is not allowed here`, { allow: match.allowed.join(', ') });
      }
      const { route, params } = match;
      if (route.successor) {
        extraHeaders.deprecation = DEPRECATION_VALUE;
        extraHeaders.link = `<${API_PREFIX}${route.successor(params)}>; rel="successor-version"`;
      }
      const key = app.faults.hasRouteFaults ? routeKey(route.method, route.pattern) : null;
      // `latency=MS on METHOD PATH` (docs/target.md): every answer of the route, refusals of auth included, like the unscoped fault.
      const routeDelayMs = key === null ? undefined : app.faults.routeLatencyMs[key];
      if (routeDelayMs !== undefined) app.reply.delayAnswer(res, routeDelayMs);
      const principal = authenticate(req, app.store, route.access, params);
      // `bad-json=PCT on METHOD PATH`: every later answer with a body (the route's injected 500 included); auth refusals stay intact.
      if (key !== null && chance(app.faults.routeBadJson[key] ?? 0)) app.reply.cutBody(res);
      // `error-rate=PCT on METHOD PATH`: after auth, like the unscoped fault.
      if (key !== null && chance(app.faults.routeErrorRates[key] ?? 0)) throw problems.injected(`injected fault: error-rate on ${key}`);
      const ctx: RequestContext = { app, req, res, params, principal, path, extraHeaders };
      const result = route.handler(ctx);
      if (result instanceof Promise) result.catch(fail);
    } catch (error) {
      fail(error);
    }
  };
}

/** Answers through the request's Responder, adding the request's extra headers. */
export function replyJson(ctx: RequestContext, status: number, body: unknown, headers: Record<string, string> = {}): void {
  ctx.app.reply.json(ctx.res, status, body, { ...ctx.extraHeaders, ...headers });
}

/** Answers without a body (204 by default), with the request's extra headers. */
export function replyEmpty(ctx: RequestContext, status = 204, headers: Record<string, string> = {}): void {
  ctx.app.reply.empty(ctx.res, status, { ...ctx.extraHeaders, ...headers });
}
