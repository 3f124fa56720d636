/**
 * The checks every photo/tag response gets, whichever client (undici or autocannon) carried
 * it: status, the five headers docs/design.md §4 requires on every response, a JSON body on success
 * and a problem+json body on error. A failure is a code to count (docs/failure-codes.md),
 * never an exception.
 */
import { type FailureCode, gatewayPage, proxyAnswerKind, proxyFailure, proxyMark, statusFailure } from '../../contract/failure-codes.js';
import { targetStatus } from '../../engine/auth/credentials.js';
import { recordEvidence } from '../../metrics/checks/evidence.js';
import type { MetricSet } from '../../metrics/metric-set.js';

/** The response headers API endpoints 2 and 3 list (docs/design.md §4), lower-cased. */
export const REQUIRED_HEADERS = [
  'access-control-allow-headers',
  'access-control-allow-methods',
  'access-control-allow-origin',
  'cache-control',
  'content-type',
] as const;

/** A received response, client-neutral. */
export interface ResponseView {
  status: number;
  /** Lower-cased header name → value; repeated headers joined with ", ". */
  headers: Readonly<Record<string, string>>;
  body: string;
}

/** The generic verdict on one answer. */
export interface Inspection {
  status: number;
  /** Failure codes seen (empty when healthy): status:<nnn>, headers-missing, content-type, body-invalid, problem-json. */
  failures: FailureCode[];
  /** Read-only: answers with every header share one empty array. */
  missingHeaders: readonly string[];
  /** The parsed body, or undefined when it is not JSON. */
  json: unknown;
  /** For 4xx/5xx: why the answer is not problem+json, or null when it is. Undefined for other statuses. */
  problemFailure: string | null | undefined;
  /** A gateway's own page in the API's place: its words (gatewayPage). Absent when the API or a proxy answered. */
  gatewayPage?: string;
}

export const NO_JSON = Symbol('no-json');

/** The body parsed, or NO_JSON when it is empty or not JSON. */
export function parseJson(body: string): unknown {
  if (body.length === 0) return NO_JSON;
  try {
    return JSON.parse(body) as unknown;
  } catch {
    return NO_JSON;
  }
}

/** The media type without parameters, lower-cased. */
export function mediaType(contentType: string | undefined): string {
  if (contentType === undefined) return '';
  // A slice rather than a split: this runs on every answer, and a split builds an array.
  const end = contentType.indexOf(';');
  return (end === -1 ? contentType : contentType.slice(0, end)).trim().toLowerCase();
}

/** application/json or a structured `+json` type (application/problem+json, …). */
export const isJsonMediaType = (type: string): boolean => type === 'application/json' || type.endsWith('+json');

/** Shared by every answer that has all five headers; never written to. */
const NONE_MISSING: string[] = [];

/** REQUIRED_HEADERS that `headers` lacks or has empty, in their order; an array of its own only when one is missing. */
function missingRequiredHeaders(headers: Readonly<Record<string, string>>): string[] {
  for (const name of REQUIRED_HEADERS) if (!headers[name]) return REQUIRED_HEADERS.filter((each) => !headers[each]);
  return NONE_MISSING;
}

/**
 * The one judge of whose answer it was (docs/design.md §2.12): a proxy's own error is its one
 * code, `proxy:<nnn>`; a gateway's own page, when its status is not one `expected`, is the
 * target's status, with the page's words. Neither says anything of the API's headers or
 * problem bodies. The inspection of such an answer, or null when the API answered.
 */
export function foreignAnswer(view: ResponseView, expected: boolean): Inspection | null {
  if (proxyMark(view.status, view.headers) !== null) return bareInspection(view.status, proxyFailure(view.status));
  const gateway = expected ? null : gatewayPage(view.status, view.headers);
  return gateway === null ? null : { ...bareInspection(view.status, statusFailure(view.status)), gatewayPage: gateway };
}

const bareInspection = (status: number, failure: FailureCode): Inspection => ({
  status,
  failures: [failure],
  missingHeaders: NONE_MISSING,
  json: undefined,
  problemFailure: undefined,
});

/** Generic checks; scenario-specific body shapes are judged by the caller on `json`. */
export function inspectResponse(view: ResponseView, expectedStatus = 200): Inspection {
  const foreign = foreignAnswer(view, view.status === expectedStatus);
  if (foreign !== null) return foreign;
  const failures: FailureCode[] = [];
  if (view.status !== expectedStatus) failures.push(statusFailure(view.status));
  const missingHeaders = missingRequiredHeaders(view.headers);
  if (missingHeaders.length > 0) failures.push('headers-missing');
  const parsed = parseJson(view.body);
  const json = parsed === NO_JSON ? undefined : parsed;
  const type = mediaType(view.headers['content-type']);
  let problemFailure: string | null | undefined;
  if (view.status === expectedStatus) {
    if (!isJsonMediaType(type)) failures.push('content-type');
    if (parsed === NO_JSON) failures.push('body-invalid');
  } else if (view.status >= 400) {
    problemFailure = problemJsonFailure(view.status, type, parsed);
    if (problemFailure !== null) failures.push('problem-json');
  }
  return { status: view.status, failures, missingHeaders, json, problemFailure };
}

/** Why a 4xx/5xx answer is not problem+json with a JSON object body, or null when it is. */
export function problemJsonFailure(status: number, type: string, parsed: unknown): string | null {
  if (type !== 'application/problem+json') return `${status} answered with Content-Type "${type || 'none'}", not application/problem+json`;
  if (parsed === NO_JSON || typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    return `${status} application/problem+json body is not a JSON object`;
  }
  return null;
}

/** What names a request in a failure's sample: the text, or a function that makes it (called only when something failed). */
export type Label = string | (() => string);

export const labelText = (label: Label): string => (typeof label === 'string' ? label : label());

/** An exchange's status as a token renewal judges it: the target's, null for no answer or a proxy's own (targetStatus). */
export const targetStatusOfExchange = (result: { ok: true; view: ResponseView } | { ok: false }): number | null =>
  result.ok ? targetStatus(result.view.status, result.view.headers) : null;

/** `proxy:<nnn>` when a proxy made the answer (inspectResponse gives it that one code), else null. */
export function proxyAnswered(inspection: Inspection): FailureCode | null {
  const first = inspection.failures[0];
  return first?.startsWith('proxy:') ? first : null;
}

/** What a proxy's own status says of the layer at fault (docs/design.md §2.12), as a failure's reason ends. */
const PROXY_MEANING: Record<ReturnType<typeof proxyAnswerKind>, string> = {
  refused: 'a proxy answered: it refused the request',
  unreached: 'a proxy answered: it is up, but could not reach the target',
  'timed-out': 'a proxy answered: it is up, but had no answer in time from the target',
  failed: 'a proxy answered',
};

/**
 * Why an answer's status fails, naming the layer that made it: `status 500 (expected 200)`
 * from the API, with the page's words when it was a gateway's own page, or the proxy's code
 * and what it says of the target (never the target's answer).
 */
export function statusReason(inspection: Inspection, expected: number | string = 200): string {
  const proxy = proxyAnswered(inspection);
  if (proxy !== null) return `${proxy} (${PROXY_MEANING[proxyAnswerKind(inspection.status, '')]})`;
  const reason = `status ${inspection.status} (expected ${expected})`;
  return inspection.gatewayPage === undefined ? reason : `${reason}, a gateway's own page (${inspection.gatewayPage})`;
}

/** Human reason for a failed expectation, e.g. "500; missing cache-control". */
export function describeInspection(inspection: Inspection, expectedStatus = 200): string {
  const parts: string[] = [];
  if (inspection.status !== expectedStatus) parts.push(statusReason(inspection, expectedStatus));
  if (inspection.missingHeaders.length > 0) parts.push(`missing ${inspection.missingHeaders.join(', ')}`);
  for (const failure of inspection.failures) {
    if (failure === 'content-type') parts.push('Content-Type is not JSON');
    if (failure === 'body-invalid') parts.push('body is not valid JSON');
  }
  return parts.join('; ');
}

/** Every error answer seen anywhere is evidence for errors.problem_json. */
export function recordProblemEvidence(metrics: MetricSet, inspection: Inspection, where: string): void {
  if (inspection.problemFailure === undefined) return;
  recordEvidence(metrics, 'errors.problem_json', inspection.problemFailure === null ? null : `${where}: ${inspection.problemFailure}`);
}

/** Header names as received → lower-cased: a target sends the same few names on every answer. */
const LOWER_CASED = new Map<string, string>();
/** A target that makes up names (hostile, or a random header) stops adding to the map here. */
const MAX_LOWER_CASED = 256;

function lowerCased(name: string): string {
  let lower = LOWER_CASED.get(name);
  if (lower === undefined) {
    lower = name.toLowerCase();
    if (LOWER_CASED.size < MAX_LOWER_CASED) LOWER_CASED.set(name, lower);
  }
  return lower;
}

/**
 * The lower-cased header record of an answer from its raw name/value list (http-parser-js's
 * `headers`, as autocannon's connection reads them): what normaliseHeaders makes of the map
 * autocannon builds from that list, without the map (autocannon's builds an array per header).
 * A repeated name (in any case) keeps its values in order, joined with ", ".
 */
export function headersFromRaw(raw: readonly string[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (let i = 0; i + 1 < raw.length; i += 2) {
    const name = lowerCased(raw[i] as string);
    const value = raw[i + 1] as string;
    const before = out[name];
    // `before` may be inherited (a header named "constructor"): only an own one is repeated.
    out[name] = before === undefined || !Object.hasOwn(out, name) ? value : `${before}, ${value}`;
  }
  return out;
}

/** Flattens undici / autocannon header maps into lower-cased single strings. */
export function normaliseHeaders(raw: Readonly<Record<string, string | string[] | undefined>>): Record<string, string> {
  const out: Record<string, string> = {};
  // Keys rather than entries: one array per answer, not one per header (this runs on every answer).
  for (const name of Object.keys(raw)) {
    const value = raw[name];
    if (value === undefined) continue;
    out[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : value;
  }
  return out;
}
