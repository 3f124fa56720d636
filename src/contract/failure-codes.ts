/**
 * The one failure vocabulary (docs/failure-codes.md): every stream that fails to open or is
 * cut, and every request that fails, is counted under one of these codes, whichever driver
 * saw it; report.json keys `openFailures`, `drops` and `errorsByKind` by them.
 */

/** An answer arrived but is not what the exchange expected (one code per finding). */
export const FINDING_CODES = [
  /** A stream answered without `text/event-stream`, or a request's 2xx answer is not JSON. */
  'content-type',
  /** An answer lacks one of the five headers every response must carry. */
  'headers-missing',
  /** A 2xx body is not the JSON the operation promises (not JSON, not an object, not an array of ids). */
  'body-invalid',
  /** A request kind's answer is JSON but does not match the kind's JSON Schema (docs/design.md §2.15). */
  'body-schema',
  /** A 4xx/5xx answer is not application/problem+json with a JSON object body. */
  'problem-json',
  /** A photo answer's `photoUrl` is missing or does not name the format of the image uploaded. */
  'photo-url',
  /** Create-and-link returned ids for names that already existed. */
  'existing-returned',
  /** An answer's body grew beyond the bound on what coachbench reads (1 MiB, docs/design.md §6); the rest was not read. */
  'body-too-large',
] as const;

/** Why a stream stopped without the driver closing it. */
export const STREAM_END_CODES = [
  /** The target ended a stream cleanly (a zero-length chunk / FIN). */
  'end',
  /** An SSE line or event grew beyond `chatStreams.maxFrameBytes`. */
  'frame-too-large',
] as const;

/** Which wait ran out: the TCP connect, the response headers, the body, or (autocannon) the whole answer. */
export const TIMEOUT_PHASES = ['connect', 'headers', 'body', 'response'] as const;

export type FindingCode = (typeof FINDING_CODES)[number];
export type StreamEndCode = (typeof STREAM_END_CODES)[number];
export type TimeoutPhase = (typeof TIMEOUT_PHASES)[number];

/**
 * A failure code: `status:<nnn>` (an unexpected HTTP status), `proxy:<nnn>` (the proxy
 * refused with that status, docs/design.md §2.12), `net:<errno>` (the connection failed,
 * was reset, or did not carry HTTP), `timeout:<phase>`, or one of the fixed codes.
 */
export type FailureCode = `status:${number}` | `proxy:${number}` | `net:${string}` | `timeout:${TimeoutPhase}` | FindingCode | StreamEndCode;

/** The code of an unexpected HTTP status. */
export const statusFailure = (status: number): FailureCode => `status:${status}`;

/** The code of a proxy's refusal: a CONNECT not answered 200, or 407 to a forwarded request. */
export const proxyFailure = (status: number): FailureCode => `proxy:${status}`;

/**
 * The mark a proxy leaves on an error answer it made itself rather than passed on: RFC 9209
 * `Proxy-Status` with an `error` parameter, squid's `X-Squid-Error`, or tinyproxy's own
 * `Server` (it passes a forwarded answer's `Server` on, and names itself only on its own
 * pages). Null when unmarked.
 */
export function proxyMark(status: number, headers: Readonly<Record<string, string | string[] | undefined>>): string | null {
  if (status < 400) return null;
  const squid = headers['x-squid-error'];
  if (squid !== undefined) return String(squid);
  const server = headers.server;
  if (typeof server === 'string' && /^tinyproxy\//i.test(server)) return server;
  const proxyStatus = headers['proxy-status'];
  return proxyStatus !== undefined && /;\s*error=/i.test(String(proxyStatus)) ? String(proxyStatus) : null;
}

/**
 * What a proxy's own status says of the layer at fault: `refused` (401, 403, 407: the proxy
 * would not carry the request), `unreached` (502, 503: it is up and could not reach the
 * target), `timed-out` (504: it had no answer in time from the target), or `failed` (any
 * other error of its own).
 */
export type ProxyAnswerKind = 'refused' | 'unreached' | 'timed-out' | 'failed';

/** tinyproxy 1.11's own reason phrase for a target it cannot connect to (its status, 500, says no more). */
const CANNOT_CONNECT = /^unable to connect$/i;

export function proxyAnswerKind(status: number, reason: string): ProxyAnswerKind {
  if (status === 401 || status === 403 || status === 407) return 'refused';
  if (status === 502 || status === 503 || CANNOT_CONNECT.test(reason)) return 'unreached';
  return status === 504 ? 'timed-out' : 'failed';
}

/** The statuses a gateway answers when the server behind it failed or was too slow (RFC 9110 §15.6.3, §15.6.5). */
const GATEWAY_STATUSES: ReadonlySet<number> = new Set([502, 504]);

/**
 * A gateway's own error page (a reverse proxy or load balancer in front of the API, nginx's
 * `502 Bad Gateway` HTML): a 502 or 504 whose Content-Type is not JSON. Its words, e.g.
 * `text/html, Server: nginx/1.22.1`, or null. Such an answer is the target's status, but its
 * headers and body are the gateway's, not the API's (docs/design.md §2.12).
 */
export function gatewayPage(status: number, headers: Readonly<Record<string, string | string[] | undefined>>): string | null {
  if (!GATEWAY_STATUSES.has(status)) return null;
  const type = String(headers['content-type'] ?? '')
    .split(';')[0]!
    .trim()
    .toLowerCase();
  if (type === 'application/json' || type.endsWith('+json')) return null;
  const server = headers.server;
  return `${type || 'no Content-Type'}${server === undefined ? '' : `, Server: ${String(server)}`}`;
}

/** The `net:` codes of a connection that never reached its peer: refused, or no such host or route. */
export const UNCONNECTED_CODES: readonly FailureCode[] = ['net:ECONNREFUSED', 'net:ENOTFOUND', 'net:EAI_AGAIN', 'net:EHOSTUNREACH', 'net:ENETUNREACH'];

/**
 * True for a request that never reached the target: its connection was never made (refused,
 * no such host, the connect timed out), or a proxy answered in its place. A reset or a cut
 * after the connection was made may have reached it, and is the target's to answer for.
 */
export const neverReachedTarget = (code: string): boolean =>
  (UNCONNECTED_CODES as readonly string[]).includes(code) || code === 'timeout:connect' || code.startsWith('proxy:');

/** The code of an unexpected status: `proxy:<nnn>` when a proxy made the answer, else `status:<nnn>`. */
export const unexpectedStatus = (status: number, headers: Readonly<Record<string, string | string[] | undefined>>): FailureCode =>
  proxyMark(status, headers) === null ? statusFailure(status) : proxyFailure(status);

/*
 * undici says a proxy refused only in its messages: `Proxy response (403) !== 200 when HTTP
 * Tunneling` (a CONNECT answered other than 200, code UND_ERR_ABORTED) and `Proxy
 * Authentication Required (407)` (a forwarded request answered 407, UND_ERR_INVALID_ARG).
 * test/orchestration/proxy-squid.test.ts pins both against a real squid.
 */
const PROXY_REFUSAL = /^Proxy (?:response \((\d{3})\) !== 200 when HTTP Tunneling|Authentication Required \((407)\))/;

/** The status a proxy refused with, when `error` is undici's report of such a refusal; else null. */
export function proxyRefusalStatus(error: unknown): number | null {
  const message = (error as { message?: unknown } | null)?.message;
  if (typeof message !== 'string') return null;
  const match = PROXY_REFUSAL.exec(message);
  return match === null ? null : Number(match[1] ?? match[2]);
}

/** `net:<errno>` keeps the client's own code, restricted to the characters a code has. */
const netFailure = (code: string): FailureCode => `net:${code.replace(/[^A-Za-z0-9_]/g, '_') || 'unknown'}`;

/** The `code` of the error a bounded body read fails with (engine/bounded-body.ts). */
export const BODY_TOO_LARGE_ERROR_CODE = 'ERR_COACHBENCH_BODY_TOO_LARGE';

const FAILURE_BY_CODE: Readonly<Record<string, FailureCode>> = {
  UND_ERR_CONNECT_TIMEOUT: 'timeout:connect',
  UND_ERR_HEADERS_TIMEOUT: 'timeout:headers',
  UND_ERR_BODY_TIMEOUT: 'timeout:body',
  [BODY_TOO_LARGE_ERROR_CODE]: 'body-too-large',
};

/**
 * Classifies a client error (undici, autocannon, node:net) as a failure code. The one
 * classifier every driver uses: undici's timeouts name their phase, a body beyond its bound
 * is `body-too-large`, anything else with a `code` (ECONNREFUSED, ECONNRESET, UND_ERR_SOCKET,
 * HPE_INVALID_CONSTANT ...) is `net:<code>`, except a proxy's refusal, which is `proxy:<status>`.
 */
export function failureOfError(error: unknown): FailureCode {
  const refused = proxyRefusalStatus(error);
  if (refused !== null) return proxyFailure(refused);
  const { code, name } = (error ?? {}) as { code?: unknown; name?: unknown };
  if (typeof code === 'string') return FAILURE_BY_CODE[code] ?? netFailure(code);
  return netFailure(typeof name === 'string' ? name : 'unknown');
}

const FIXED_CODES = [...FINDING_CODES, ...STREAM_END_CODES].join('|');

/** Matches exactly the failure codes (also the `propertyNames` pattern in schemas/report.schema.json). */
export const FAILURE_CODE_PATTERN = new RegExp(`^(status:[0-9]{3}|proxy:[0-9]{3}|net:[A-Za-z0-9_]+|timeout:(${TIMEOUT_PHASES.join('|')})|${FIXED_CODES})$`);

/** True when `text` is a code of this vocabulary. */
export const isFailureCode = (text: string): text is FailureCode => FAILURE_CODE_PATTERN.test(text);
