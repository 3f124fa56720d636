/**
 * How this run reaches its target (docs/design.md §2.12): TLS trust and identity, extra
 * headers, and the proxy. Resolved once by the run (files read, env vars substituted) and
 * handed to every dispatcher, the closed model and the probes, so that no driver talks to a
 * target differently from another. Key material travels here as PEM text, never a path to
 * re-read, and is never written to a report or a log.
 */
import { createSecureContext, rootCertificates, type SecureContext } from 'node:tls';
import { newTraceparent, type Traceparent, type TraceSettings } from '../util/traceparent.js';
import { VERSION } from '../util/version.js';

export interface TlsSettings {
  /** Extra trust anchors (PEM), added to the system roots. */
  ca: string[];
  /** Client certificate and key (PEM) for mutual TLS. */
  cert: string | null;
  key: string | null;
  /** Skip certificate verification (`--insecure`): said loudly and recorded in the report. */
  insecure: boolean;
  /** SNI and the name the certificate must carry, when not the URL's host. */
  servername: string | null;
}

export type ProxySettings = { mode: 'env' } | { mode: 'none' } | { mode: 'url'; url: string };

export interface Transport {
  tls: TlsSettings;
  /**
   * Sent with every request and stream open, lower-case names. A request's own headers (its
   * authorization, API key, content type) win over these; `user-agent` here is the default.
   */
  headers: Record<string, string>;
  proxy: ProxySettings;
  /**
   * `1.1`; `2` (h2 through ALPN over TLS, h2c with prior knowledge in plain text); `auto`
   * (h2 when ALPN offers it, else HTTP/1.1; plain text stays HTTP/1.1). docs/design.md §2.14.
   */
  http: HttpVersion;
  /**
   * The W3C traceparent every request, stream open and message carries (docs/design.md
   * §2.12); null or absent sends none (`--no-trace`, tests, the embedded target's own calls).
   */
  trace?: TraceSettings | null;
}

export type HttpVersion = '1.1' | '2' | 'auto';

export const DEFAULT_USER_AGENT = `coachbench/${VERSION}`;

/** Plain defaults: system trust, the coachbench User-Agent, proxies from the environment. */
export function defaultTransport(): Transport {
  return {
    tls: { ca: [], cert: null, key: null, insecure: false, servername: null },
    headers: { 'user-agent': DEFAULT_USER_AGENT },
    proxy: { mode: 'env' },
    http: '1.1',
  };
}

/** The options every TLS connection of the run is made with (undici `connect`, autocannon `tlsOptions`). */
export interface TlsConnectOptions {
  secureContext?: SecureContext;
  rejectUnauthorized: boolean;
  servername?: string;
}

/*
 * One SecureContext per TLS settings, made once per process. Passing `ca` (or cert and key) to
 * every connect instead makes Node build a context per connection, parsing the ~140 system
 * roots each time, which at thousands of TLS streams costs memory per stream and blocks the
 * event loop (docs/design.md §2.12; docs/benchmarks.md, "Figures behind the code").
 */
const contexts = new WeakMap<TlsSettings, SecureContext>();

function secureContextOf(tls: TlsSettings): SecureContext | undefined {
  if (tls.ca.length === 0 && tls.cert === null) return undefined;
  let context = contexts.get(tls);
  if (!context) {
    // Node's `ca` replaces the system roots; --ca adds to them.
    context = createSecureContext({
      ...(tls.ca.length > 0 ? { ca: [...rootCertificates, ...tls.ca] } : {}),
      ...(tls.cert !== null ? { cert: tls.cert } : {}),
      ...(tls.key !== null ? { key: tls.key } : {}),
    });
    contexts.set(tls, context);
  }
  return context;
}

export function tlsConnectOptions(tls: TlsSettings): TlsConnectOptions {
  const secureContext = secureContextOf(tls);
  return {
    ...(secureContext ? { secureContext } : {}),
    rejectUnauthorized: !tls.insecure,
    ...(tls.servername !== null ? { servername: tls.servername } : {}),
  };
}

/**
 * The same trust for autocannon (the closed model), as plain options: its few connections
 * each build their own context. (Handing autocannon 9 the shared SecureContext crashed Node
 * 24.21 with a segmentation fault in our runs; plain options do not.)
 */
export function autocannonTlsOptions(tls: TlsSettings): { ca?: string[]; cert?: string; key?: string; servername?: string } {
  return {
    ...(tls.ca.length > 0 ? { ca: [...rootCertificates, ...tls.ca] } : {}),
    ...(tls.cert !== null ? { cert: tls.cert } : {}),
    ...(tls.key !== null ? { key: tls.key } : {}),
    ...(tls.servername !== null ? { servername: tls.servername } : {}),
  };
}

/** `headers` with the transport's extra headers added where the request has none of its own. */
export function withTransportHeaders(headers: Record<string, string>, extra: Readonly<Record<string, string>>): Record<string, string> {
  const merged: Record<string, string> = { ...extra };
  for (const [name, value] of Object.entries(headers)) merged[name.toLowerCase()] = value;
  return merged;
}

/**
 * The traceparent a request gets of its own: a new one when the transport sends them and the
 * request carries none, else null (docs/design.md §2.12).
 */
export function ownTraceparent(headers: Readonly<Record<string, string>>, transport: Pick<Transport, 'trace'>): Traceparent | null {
  const trace = transport.trace;
  if (trace === undefined || trace === null || headers.traceparent !== undefined) return null;
  return newTraceparent(trace.sampleRate);
}

/**
 * `headers` with a new traceparent when the transport sends them and the request has none;
 * `traceId` and `spanId` (its parent id) are the ids sent (null when none), kept by callers
 * that report the slowest requests.
 */
export function withTraceparent(
  headers: Record<string, string>,
  transport: Pick<Transport, 'trace'>,
): { headers: Record<string, string>; traceId: string | null; spanId: string | null } {
  const own = ownTraceparent(headers, transport);
  if (own === null) return { headers, traceId: null, spanId: null };
  return { headers: { ...headers, traceparent: own.header }, traceId: own.traceId, spanId: own.parentId };
}
