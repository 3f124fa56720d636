/**
 * The one place undici dispatchers are built, so every driver, test and benchmark talks to
 * a target through the same connection settings: TLS, extra headers and proxy come from the
 * run's Transport (transport.ts).
 *
 * Requests (messages, uploads, tags, probes) share one Agent per process. Each held SSE
 * stream gets a Client of its own: an Agent or Pool scans all its connections on every
 * dispatch, which is quadratic over thousands of long-lived streams. Behind a proxy a stream
 * gets a one-connection proxy agent instead. Under HTTP/2 a participant's streams share its
 * own connection (createParticipantConnection).
 */
import type { TLSSocket } from 'node:tls';
import { Agent, buildConnector, Client, type Dispatcher, EnvHttpProxyAgent, Pool, ProxyAgent } from 'undici';
import { defaultTransport, type Transport, tlsConnectOptions, withTraceparent, withTransportHeaders } from './transport.js';

/** The protocol a connection speaks: `h2` (ALPN over TLS), `h2c` (plain text, prior knowledge) or `http/1.1`. */
export type WireProtocol = 'h2' | 'h2c' | 'http/1.1';

/** Told the protocol of every connection a dispatcher opens (for report.json transport.protocols). */
export type ProtocolListener = (protocol: WireProtocol) => void;

/** Most sockets the request Agent opens per origin: streams need the file descriptors. */
export const REQUEST_CONNECTIONS = 512;

const CONNECT_TIMEOUT_MS = 10_000;
const KEEP_ALIVE_TIMEOUT_MS = 10_000;

/** Proxy variables undici's EnvHttpProxyAgent reads; with none set, env mode is a direct connection. */
const PROXY_VARIABLES = ['HTTP_PROXY', 'http_proxy', 'HTTPS_PROXY', 'https_proxy'] as const;

/** Whether requests of this transport go through a proxy (for some origin at least). */
export function usesProxy(transport: Transport, env: NodeJS.ProcessEnv = process.env): boolean {
  if (transport.proxy.mode === 'url') return true;
  return transport.proxy.mode === 'env' && PROXY_VARIABLES.some((name) => Boolean(env[name]));
}

/**
 * Adds the transport's headers to every request a dispatcher sends (a request's own headers
 * win), and a new traceparent to each that has none (docs/design.md §2.12).
 */
function withHeaders(dispatcher: Dispatcher, transport: Transport): Dispatcher {
  const extra = transport.headers;
  const hasExtra = Object.keys(extra).length > 0;
  if (!hasExtra && !transport.trace) return dispatcher;
  return dispatcher.compose((dispatch) => (options, handler) => {
    const own = (options.headers ?? {}) as Record<string, string>;
    // Without extra headers there is nothing to merge: a request that carries its traceparent
    // already (the open model's, made beside its latency) goes on untouched, not copied.
    const headers = withTraceparent(hasExtra ? withTransportHeaders(own, extra) : own, transport).headers;
    return dispatch(headers === options.headers ? options : { ...options, headers }, handler);
  });
}

/** The connect error of a TLS target that does not offer h2 under `--http 2`. */
export const NO_H2_CODE = 'ERR_COACHBENCH_NO_H2';
/** What that error means and how to fix it, after "the target" (also the preflight's hint). */
export const NO_H2_REASON = 'does not offer HTTP/2 (its ALPN chose http/1.1): run with --http auto or --http 1.1';

/**
 * Concurrent requests on one HTTP/2 connection under `--http 2` (undici counts them as
 * `pipelining`; Node's h2 server allows 100). Under `auto` the target may answer HTTP/1.1,
 * where pipelining would queue a request behind a stream that never ends: there it stays 1.
 */
export const H2_STREAMS_PER_CONNECTION = 100;

/**
 * undici's HTTP/2 switches for the transport: over TLS `allowH2` offers h2 in ALPN (the
 * target chooses); in plain text, `--http 2` is h2c with prior knowledge and `auto` stays
 * HTTP/1.1 (nothing to negotiate with). Behind a proxy every connection is HTTP/1.1.
 */
export function http2Options(transport: Transport, secure: boolean): { allowH2: boolean; useH2c?: boolean } {
  // undici 8 offers h2 unless told not to: HTTP/1.1 is said explicitly.
  if (transport.http === '1.1') return { allowH2: false };
  if (secure) return { allowH2: true };
  return transport.http === '2' ? { allowH2: true, useH2c: true } : { allowH2: false };
}

/** A direct connection's two connectors, each with its own TLS session cache; built once per transport and timeout. */
interface BaseConnectors {
  tls: buildConnector.connector;
  plain: buildConnector.connector;
}

/**
 * Shared by every dispatcher of a run: undici's buildConnector gives each connector a TLS
 * session cache (a Map and a FinalizationRegistry), and a pair per held stream is thousands
 * of them where an undici Agent builds one per origin. Sharing also lets a new connection
 * resume a TLS session, as a browser's connections do.
 */
const baseConnectorsOf = new WeakMap<Transport, Map<number, BaseConnectors>>();

function baseConnectors(transport: Transport, timeoutMs: number): BaseConnectors {
  let byTimeout = baseConnectorsOf.get(transport);
  if (byTimeout === undefined) {
    byTimeout = new Map();
    baseConnectorsOf.set(transport, byTimeout);
  }
  let connectors = byTimeout.get(timeoutMs);
  if (connectors === undefined) {
    connectors = {
      tls: buildConnector({ ...tlsConnectOptions(transport.tls), timeout: timeoutMs, ...http2Options(transport, true) } as buildConnector.BuildOptions),
      plain: buildConnector({ timeout: timeoutMs, ...http2Options(transport, false) } as buildConnector.BuildOptions),
    };
    byTimeout.set(timeoutMs, connectors);
  }
  return connectors;
}

/**
 * The connector of a direct dispatcher: TLS settings, the HTTP/2 switches, and a listener
 * told which protocol each new connection speaks (undici does not say otherwise).
 */
function connectorFor(transport: Transport, timeoutMs: number, onProtocol?: ProtocolListener): buildConnector.connector {
  // --http 2 is h2 or nothing: h2c in plain text, and a TLS target whose ALPN picks HTTP/1.1 refused.
  const requireH2 = transport.http === '2';
  const { tls: connectTls, plain: connectPlain } = baseConnectors(transport, timeoutMs);
  return (options, callback) => {
    const secure = options.protocol === 'https:';
    const done = callback as (error: Error | null, socket: unknown) => void;
    (secure ? connectTls : connectPlain)(options, (error, socket) => {
      if (error !== null) return done(error, null);
      const h2 = (socket as TLSSocket).alpnProtocol === 'h2';
      if (requireH2 && !h2) {
        // --http 2 multiplexes a participant's streams on one connection: over HTTP/1.1 the
        // second would wait forever behind the first, so a target without h2 is refused.
        socket.destroy();
        return done(Object.assign(new Error(`the target ${NO_H2_REASON}`), { code: NO_H2_CODE }), null);
      }
      onProtocol?.(h2 ? (secure ? 'h2' : 'h2c') : 'http/1.1');
      done(null, socket);
    });
  };
}

const pipeliningOf = (transport: Transport): number => (transport.http === '2' ? H2_STREAMS_PER_CONNECTION : 1);

/**
 * The clients a proxy agent makes, to the proxy (forwarding) or through its tunnel, with the
 * settings the direct ones get: undici's ProxyAgent hands its forwarding client only the
 * connector, which would leave one stream's agent a pool with undici's default timeouts.
 */
function proxiedClients(settings: Omit<Agent.Options, 'connect'>): (origin: string | URL, options: object) => Dispatcher {
  return (origin, options) => {
    const merged = { ...settings, ...options } as Pool.Options;
    return merged.connections === 1 ? new Client(origin, merged) : new Pool(origin, merged);
  };
}

/**
 * An Agent, or the proxy agent the transport asks for, with its options. Behind a proxy, as
 * curl does: a plain-http target is reached by absolute-form requests to the proxy
 * (`GET http://host:port/path`), an https target through a CONNECT tunnel, its TLS
 * negotiated inside (`requestTls`). A proxy at its usual rules refuses CONNECT to any port
 * but 443 (docs/design.md §2.12).
 */
function agentFor(transport: Transport, options: Agent.Options, onProtocol?: ProtocolListener): Dispatcher {
  const tls = tlsConnectOptions(transport.tls);
  const timeoutMs = (options.connect as { timeout?: number } | undefined)?.timeout ?? CONNECT_TIMEOUT_MS;
  if (!usesProxy(transport)) {
    return new Agent({ ...options, ...http2Options(transport, true), connect: connectorFor(transport, timeoutMs, onProtocol) });
  }
  // Every connection to or through a proxy speaks HTTP/1.1 here: no h2 multiplexing to pipeline into.
  const { connect: _connect, ...rest } = options;
  const settings = { ...rest, pipelining: 1 };
  const proxied = {
    ...settings,
    allowH2: false,
    proxyTunnel: false,
    requestTls: tls,
    connectTimeout: timeoutMs,
    factory: proxiedClients({ ...settings, allowH2: false }),
  };
  if (transport.proxy.mode === 'url') return new ProxyAgent({ ...proxied, uri: transport.proxy.url } as ProxyAgent.Options);
  // Targets NO_PROXY names are reached directly, by this agent's own Agent: it gets the target's TLS.
  return new EnvHttpProxyAgent({ ...proxied, connect: { timeout: timeoutMs, ...tls } } as EnvHttpProxyAgent.Options);
}

/** The request Agent of one process. */
export function createRequestAgent(transport: Transport = defaultTransport(), connections = REQUEST_CONNECTIONS, onProtocol?: ProtocolListener): Dispatcher {
  const agent = agentFor(
    transport,
    { pipelining: pipeliningOf(transport), connections, keepAliveTimeout: KEEP_ALIVE_TIMEOUT_MS, connect: { timeout: CONNECT_TIMEOUT_MS } },
    onProtocol,
  );
  return withHeaders(agent, transport);
}

export interface StreamClientOptions {
  /** Bounds connect and response headers; the body of a stream never times out. */
  headersTimeoutMs: number;
  /** Source address to bind (spreads loopback streams over 127.0.0.0/8 past the port limit). */
  localAddress?: string | null | undefined;
  transport?: Transport;
  onProtocol?: ProtocolListener;
}

/**
 * A dispatcher for one stream's lifetime: one connection, no pipelining, no reuse after the
 * stream ends. It adds no headers: its one request carries the transport's (sse-reader.ts
 * merges them), since a composed dispatcher per held stream costs heap on every stream
 * (docs/benchmarks.md, "Figures behind the code").
 */
export function createStreamClient(origin: string | URL, options: StreamClientOptions): Dispatcher {
  const transport = options.transport ?? defaultTransport();
  const settings = {
    pipelining: 1,
    bodyTimeout: 0,
    headersTimeout: options.headersTimeoutMs,
    ...(options.localAddress ? { localAddress: options.localAddress } : {}),
  };
  if (usesProxy(transport)) {
    // One connection each, to the proxy or through its tunnel; the proxy is not on a spread loopback address.
    const { localAddress: _bound, ...unbound } = settings;
    return agentFor(transport, { ...unbound, connections: 1, connect: { timeout: options.headersTimeoutMs } });
  }
  return new Client(origin, { ...settings, connect: connectorFor(transport, options.headersTimeoutMs, options.onProtocol) });
}

/**
 * A participant's own connection under HTTP/2 (docs/design.md §2.14): its main and chat
 * streams, and under `--http 2` its messages too, are streams of one h2 connection, as a
 * browser's are. Under `auto` the target may answer HTTP/1.1, where one connection holds one
 * stream: a pool of two then keeps both streams open side by side.
 */
export function createParticipantConnection(origin: string, options: StreamClientOptions): Dispatcher {
  const transport = options.transport ?? defaultTransport();
  const settings = {
    pipelining: pipeliningOf(transport),
    bodyTimeout: 0,
    headersTimeout: options.headersTimeoutMs,
    ...(options.localAddress ? { localAddress: options.localAddress } : {}),
    ...http2Options(transport, origin.startsWith('https:')),
    connect: connectorFor(transport, options.headersTimeoutMs, options.onProtocol),
  };
  const dispatcher = transport.http === '2' ? new Client(origin, settings) : new Pool(origin, { ...settings, connections: 2 });
  return withHeaders(dispatcher, transport);
}
