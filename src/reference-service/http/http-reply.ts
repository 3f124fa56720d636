/**
 * Writes every non-stream response, so the five headers of docs/design.md §4 and the `latency` and
 * route-scoped `bad-json` faults are applied in one place: JSON bodies, problem+json errors and empty (204) answers.
 */
import type { ServerResponse } from 'node:http';
import type { FaultSettings } from '../faults/faults.js';
import type { DelayScheduler } from '../faults/precise-delay.js';
import { type HttpProblem, problemBody } from './problem.js';

/** CORS headers present on every response, streams included. */
export const CORS_HEADERS: Readonly<Record<string, string>> = {
  'access-control-allow-headers': 'Accept, Authorization, Content-Type, Last-Event-ID, X-API-Key',
  'access-control-allow-methods': 'GET, POST, PUT, PATCH, DELETE, OPTIONS',
  'access-control-allow-origin': '*',
};

/** Headers of JSON answers (API data is per-user and must not be cached by intermediaries). */
export const JSON_HEADERS: Readonly<Record<string, string>> = {
  ...CORS_HEADERS,
  'cache-control': 'no-store',
  'content-type': 'application/json; charset=utf-8',
};

/** Headers of problem+json answers. */
export const PROBLEM_HEADERS: Readonly<Record<string, string>> = {
  ...JSON_HEADERS,
  'content-type': 'application/problem+json; charset=utf-8',
};

// A 204 has no body, but docs/design.md §4 asks for Content-Type on every response.
const EMPTY_HEADERS: Readonly<Record<string, string>> = { ...JSON_HEADERS, 'content-type': 'text/plain; charset=utf-8' };

/** Told the instant an answer is about to be written (the trace log stops its clock there). */
export interface AnswerWatcher {
  answering(res: ServerResponse): void;
}

/** Sends non-stream responses, each delayed by the `latency` fault when it is set. */
export class Responder {
  // A delayed answer has not sent headers yet; this keeps a second answer from racing it.
  private readonly answered = new WeakSet<ServerResponse>();
  // A route's own latency (`latency=MS on METHOD PATH`), set when the request is routed.
  private readonly routeDelays = new WeakMap<ServerResponse, number>();
  // Answers whose body `bad-json=PCT on METHOD PATH` chose to cut short.
  private readonly cutBodies = new WeakSet<ServerResponse>();

  constructor(
    private readonly delays: DelayScheduler,
    // Read at each answer: a fault switched on later (`latency=200ms@30s`) takes effect at once.
    private readonly faults: Pick<FaultSettings, 'latencyMs'>,
    private readonly watcher?: AnswerWatcher,
  ) {}

  json(res: ServerResponse, status: number, body: unknown, extra: Record<string, string> = {}): void {
    this.send(res, status, { ...JSON_HEADERS, ...extra }, JSON.stringify(body));
  }

  problem(res: ServerResponse, problem: HttpProblem, instance: string): void {
    const body = problemBody(problem.status, problem.slug, problem.message, instance);
    this.send(res, problem.status, { ...PROBLEM_HEADERS, ...problem.headers }, JSON.stringify(body));
  }

  empty(res: ServerResponse, status: number, extra: Record<string, string> = {}): void {
    this.send(res, status, { ...EMPTY_HEADERS, ...extra }, undefined);
  }

  /** Delays the answer to `res` by `ms` in place of the run-wide `latency` fault (the route's own is the more specific). */
  delayAnswer(res: ServerResponse, ms: number): void {
    this.routeDelays.set(res, ms);
  }

  /** Sends the answer to `res`, if it has a body, with that body cut short (`bad-json=PCT on METHOD PATH`). */
  cutBody(res: ServerResponse): void {
    this.cutBodies.add(res);
  }

  /** True once an answer is sent or scheduled for `res`. */
  hasAnswered(res: ServerResponse): boolean {
    return res.headersSent || this.answered.has(res);
  }

  private send(res: ServerResponse, status: number, headers: Record<string, string>, rawBody: string | undefined): void {
    if (res.headersSent || this.answered.has(res)) return;
    this.answered.add(res);
    const body = rawBody !== undefined && this.cutBodies.has(res) ? cutShort(rawBody) : rawBody;
    const write = (): void => {
      if (res.destroyed) return;
      if (body !== undefined) headers['content-length'] = String(Buffer.byteLength(body));
      this.watcher?.answering(res);
      res.writeHead(status, headers);
      res.end(body);
    };
    this.delays.run(this.routeDelays.get(res) ?? this.faults.latencyMs, write);
  }
}

/**
 * The first half of a JSON text, at least one character short. Every body the target sends is
 * an object or an array, and no proper prefix of one is valid JSON; Content-Length is counted
 * from what is cut, so the client reads a complete answer whose body does not parse.
 */
function cutShort(json: string): string {
  return json.slice(0, Math.floor(json.length / 2));
}
