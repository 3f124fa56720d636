/**
 * The one place undici dispatchers are built, so every driver, test and benchmark talks to
 * a target through the same connection settings: TLS, extra headers and proxy come from the
 * run's Transport (transport.ts).
 *
 * Requests (messages, uploads, tags, probes) share one Agent per process. Each held SSE
 * stream gets a Client of its own: an Agent or Pool scans all its connections on every
 * dispatch, which is quadratic over thousands of long-lived streams. Behind a proxy a stream
 * gets a one-connection proxy agent instead (the tunnel is per connection anyway).
 */
import { Agent, Client, type Dispatcher, EnvHttpProxyAgent, ProxyAgent } from 'undici';
import { defaultTransport, type Transport, tlsConnectOptions, withTransportHeaders } from './transport.js';

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

/** Adds the transport's headers to every request a dispatcher sends (a request's own headers win). */
function withHeaders(dispatcher: Dispatcher, transport: Transport): Dispatcher {
  const extra = transport.headers;
  if (Object.keys(extra).length === 0) return dispatcher;
  return dispatcher.compose(
    (dispatch) => (options, handler) =>
      dispatch({ ...options, headers: withTransportHeaders((options.headers ?? {}) as Record<string, string>, extra) }, handler),
  );
}

/** An Agent, or the proxy agent the transport asks for, with its options. */
function agentFor(transport: Transport, options: Agent.Options): Dispatcher {
  const tls = tlsConnectOptions(transport.tls);
  const connect = { ...(options.connect as object), ...tls };
  if (!usesProxy(transport)) return new Agent({ ...options, connect });
  // Through a tunnel the target's TLS is `requestTls`; `connect` reaches the proxy itself.
  if (transport.proxy.mode === 'url') return new ProxyAgent({ ...options, uri: transport.proxy.url, requestTls: tls });
  return new EnvHttpProxyAgent({ ...options, connect, requestTls: tls } as EnvHttpProxyAgent.Options);
}

/** The request Agent of one process. */
export function createRequestAgent(transport: Transport = defaultTransport(), connections = REQUEST_CONNECTIONS): Dispatcher {
  const agent = agentFor(transport, { pipelining: 1, connections, keepAliveTimeout: KEEP_ALIVE_TIMEOUT_MS, connect: { timeout: CONNECT_TIMEOUT_MS } });
  return withHeaders(agent, transport);
}

export interface StreamClientOptions {
  /** Bounds connect and response headers; the body of a stream never times out. */
  headersTimeoutMs: number;
  /** Source address to bind (spreads loopback streams over 127.0.0.0/8 past the port limit). */
  localAddress?: string | null | undefined;
  transport?: Transport;
}

/** A dispatcher for one stream's lifetime: one connection, no pipelining, no reuse after the stream ends. */
export function createStreamClient(origin: string, options: StreamClientOptions): Dispatcher {
  const transport = options.transport ?? defaultTransport();
  const settings = {
    pipelining: 1,
    bodyTimeout: 0,
    headersTimeout: options.headersTimeoutMs,
    ...(options.localAddress ? { localAddress: options.localAddress } : {}),
  };
  if (usesProxy(transport)) {
    return withHeaders(agentFor(transport, { ...settings, connections: 1, connect: { timeout: options.headersTimeoutMs } }), transport);
  }
  const client = new Client(origin, { ...settings, connect: { timeout: options.headersTimeoutMs, ...tlsConnectOptions(transport.tls) } });
  return withHeaders(client, transport);
}
