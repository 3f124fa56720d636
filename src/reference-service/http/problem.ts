/**
 * RFC 9457 problem details: every 4xx/5xx of the target is `application/problem+json`
 * `{ type, title, status, detail, instance }` (docs/design.md §4).
 */
import { STATUS_CODES } from 'node:http';

/** The problem+json body. */
export interface ProblemBody {
  type: string;
  title: string;
  status: number;
  detail: string;
  instance: string;
}

/** Problem type URIs are `urn:coachbench:problem:<slug>`; the slug is stable for clients. */
export const PROBLEM_TYPE_PREFIX = 'urn:coachbench:problem:';

/** Thrown by handlers to answer with a problem; the dispatcher renders it. */
export class HttpProblem extends Error {
  readonly status: number;
  readonly slug: string;
  readonly headers: Record<string, string>;
  constructor(status: number, slug: string, detail: string, headers: Record<string, string> = {}) {
    super(detail);
    this.name = 'HttpProblem';
    this.status = status;
    this.slug = slug;
    this.headers = headers;
  }
}

/** Builds the body of a problem with the reason phrase as title. */
export function problemBody(status: number, slug: string, detail: string, instance: string): ProblemBody {
  return { type: `${PROBLEM_TYPE_PREFIX}${slug}`, title: STATUS_CODES[status] ?? 'Error', status, detail, instance };
}

/** Shorthands for the common problems, so status and slug always travel together. */
export const problems = {
  badRequest: (detail: string): HttpProblem => new HttpProblem(400, 'bad-request', detail),
  unauthorized: (detail: string): HttpProblem => new HttpProblem(401, 'unauthorized', detail),
  forbidden: (detail: string): HttpProblem => new HttpProblem(403, 'forbidden', detail),
  notFound: (detail: string): HttpProblem => new HttpProblem(404, 'not-found', detail),
  conflict: (detail: string): HttpProblem => new HttpProblem(409, 'conflict', detail),
  tooLarge: (detail: string): HttpProblem => new HttpProblem(413, 'payload-too-large', detail),
  unsupportedMedia: (detail: string): HttpProblem => new HttpProblem(415, 'unsupported-media-type', detail),
  injected: (detail: string): HttpProblem => new HttpProblem(500, 'injected-fault', detail),
};
