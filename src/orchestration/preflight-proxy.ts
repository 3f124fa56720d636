/**
 * The proxy's part of the preflight (docs/design.md §2.12): a proxy's refusal, or an answer
 * it made itself, named as the proxy's with its status; and the closed model, which cannot
 * go through a proxy, refused while one applies to its target.
 */
import { STATUS_CODES } from 'node:http';
import { gatewayPage, type ProxyAnswerKind, proxyAnswerKind, proxyMark } from '../contract/failure-codes.js';
import type { Profile } from '../contract/profile/profile.js';
import { proxyFor, proxyVariableFor, shownProxy } from '../engine/proxy-route.js';
import type { Transport } from '../engine/transport.js';
import { ConfigError } from '../util/errors.js';
import { printable } from '../util/printable.js';
import { closedModelScenarios } from './closed-model-http.js';

/** `403 Forbidden`. */
const statusText = (status: number): string => `${status}${STATUS_CODES[status] ? ` ${STATUS_CODES[status]}` : ''}`;

const WANTS_CREDENTIALS = ': it wants credentials (give them in the proxy URL, http://user:password@host:port)';
/** tinyproxy 1.11 answers credentials it does not take with 401, not 407. */
const REFUSED_CREDENTIALS = ': it refused the credentials (check the user and password in the proxy URL)';

/** A proxy's own answer to a preflight request: what it says of the layer at fault, and its status in words. */
interface ProxyAnswer {
  kind: ProxyAnswerKind;
  /** `503 Service Unavailable (ERR_CONNECT_FAIL 111)`, with the hint of a refusal of credentials. */
  text: string;
}

/**
 * The one line of a proxy's own answer to `request` (`OPTIONS http://…`, `CONNECT to
 * host:port`) on the way to target `url`: a refusal names the proxy, a 502/503/504 names the
 * target behind a proxy that is up (docs/design.md §2.12).
 */
function proxyAnswerLine(proxy: string | null, url: string, request: string, answer: ProxyAnswer): string {
  const shown = proxy === null ? 'in the way' : shownProxy(proxy);
  switch (answer.kind) {
    case 'refused':
      return `proxy ${shown} refused ${request}: ${answer.text}`;
    case 'unreached':
      return `proxy ${shown} is up, but could not reach target ${url}: it answered ${request} with ${answer.text}; check that the target is up and that the proxy can reach it`;
    case 'timed-out':
      return `proxy ${shown} is up, but had no answer in time from target ${url}: it answered ${request} with ${answer.text}; check that the target is up and answering`;
    default:
      return `proxy ${shown} answered ${request}: ${answer.text}`;
  }
}

/**
 * The one line of a proxy's status that undici reports as an error (it says no more than the
 * status): a CONNECT to an https target not answered 200, or a 407 to a request it forwards.
 */
export function proxyStatusLine(proxy: string | null, url: string, status: number): string {
  const target = new URL(url);
  const tunnel = target.protocol === 'https:';
  const request = tunnel ? `CONNECT to ${target.hostname}:${target.port || '443'}` : `the request to ${target.origin}`;
  const kind = proxyAnswerKind(status, '');
  const hint = status === 407 ? WANTS_CREDENTIALS : kind === 'failed' && tunnel ? ` (no tunnel was opened, so target ${url} was not reached)` : '';
  return proxyAnswerLine(proxy, url, request, { kind, text: `${statusText(status)}${hint}` });
}

/** The most of a proxy's own reason phrase quoted. */
const REASON_CHARS = 80;

/**
 * An answer a forwarding proxy made itself rather than passed on: 407, or an error answer
 * with the proxy's mark. `reason` is the answer's own reason phrase (HTTP/1.x), said when it
 * says more than the standard one (tinyproxy's `500 Unable to connect`).
 */
function proxyMadeAnswer(status: number, headers: Record<string, string | string[] | undefined>, reason = ''): ProxyAnswer | null {
  const own = reason.trim();
  const said = own === '' || own === STATUS_CODES[status] ? statusText(status) : `${status} ${printable(own, REASON_CHARS)}`;
  if (status === 407) return { kind: 'refused', text: `${said}${WANTS_CREDENTIALS}` };
  const mark = proxyMark(status, headers);
  if (mark === null) return null;
  // A proxy's own 401 is about the proxy's credentials, never the API's.
  return { kind: proxyAnswerKind(status, own), text: `${said} (${printable(mark)})${status === 401 ? REFUSED_CREDENTIALS : ''}` };
}

/** The most of a gateway page's words quoted. */
const PAGE_CHARS = 120;

/**
 * The line of a preflight request answered by a gateway's own 502/504 page (nginx in front
 * of an API that is down), or null: the API behind it was not reached, which is exit 3 like
 * a target that cannot be reached, never a finding of the API's.
 */
function gatewayPageLine(url: string, request: string, status: number, headers: Record<string, string | string[] | undefined>): string | null {
  const page = gatewayPage(status, headers);
  if (page === null) return null;
  const why = status === 504 ? 'had no answer in time from the API behind it' : 'could not reach the API behind it';
  return `target ${url} answered ${request} with ${statusText(status)}, a gateway's own page (${printable(page, PAGE_CHARS)}), not the API's: the gateway ${why}`;
}

/**
 * The line naming who answered a preflight request in the API's place, or null when the API
 * did: a proxy's own answer (through a proxy only), then a gateway's own page. `target` is
 * the URL requested, said whole to the proxy and by its path to the gateway.
 */
export function answeredInApisPlace(
  proxy: string | null,
  url: string,
  method: string,
  target: URL,
  response: { statusCode: number; statusText?: string; headers: Record<string, string | string[] | undefined> },
): string | null {
  const made = proxy === null ? null : proxyMadeAnswer(response.statusCode, response.headers, response.statusText);
  if (proxy !== null && made !== null) return proxyAnswerLine(proxy, url, `${method} ${target.href}`, made);
  return gatewayPageLine(url, `${method} ${target.pathname}`, response.statusCode, response.headers);
}

/** Errors of the connection a run opens to its proxy: behind a proxy, the run connects to nothing else. */
const CONNECT_FAILURES = new Set(['connect', 'getaddrinfo']);

/**
 * True when `error` failed the connection to the proxy itself (refused, no such host, no
 * route): through a proxy the client connects only to the proxy, which connects to the
 * target, so such an error says nothing of the target. A connect timeout is left out: undici
 * counts the TLS handshake with the target, inside the tunnel, in it.
 */
export function proxyUnreachable(error: unknown): boolean {
  const { syscall } = (error ?? {}) as { syscall?: unknown };
  return typeof syscall === 'string' && CONNECT_FAILURES.has(syscall);
}

/** True when the profile runs a closed model (autocannon), which has no proxy support. */
const runsClosedModel = (profile: Profile): boolean => closedModelScenarios(profile).length > 0;

/**
 * Exit 2 when proxy variables send the target through a proxy and the profile runs the
 * closed model: autocannon would connect directly, measuring another path than the rest of
 * the run (`--proxy` with it is refused earlier, in run-config.ts).
 */
export function refuseClosedModelBehindProxy(profile: Profile, transport: Transport, url: string, env: NodeJS.ProcessEnv): void {
  const proxy = proxyFor(transport, url, env);
  if (proxy === null || !runsClosedModel(profile)) return;
  throw new ConfigError(
    `${proxyVariableFor(url, env)} sends ${new URL(url).host} through proxy ${shownProxy(proxy)}, and the closed model (autocannon) cannot go through a proxy: ` +
      "use the open model, name the target's host in NO_PROXY, or run with --no-proxy",
  );
}
