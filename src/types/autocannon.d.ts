/**
 * The part of autocannon 9 the closed model uses: its HTTP/1.1 connection class (an internal
 * module; the package ships no types, and its runner is not used: see
 * src/drivers/throughput/autocannon-connections.ts). Only what is read or set is declared;
 * see node_modules/autocannon/lib/httpClient.js. autocannon is pinned to exactly 9.0.0
 * (test/drivers/throughput/autocannon-patch.test.ts).
 */
declare module 'autocannon/lib/httpClient.js' {
  import type { EventEmitter } from 'node:events';
  import type { ConnectionOptions } from 'node:tls';

  /** Per-connection scratch object; autocannon resets it each time the `requests` list wraps. */
  export type RequestContext = Record<string, unknown>;

  export interface RequestParams {
    method?: string;
    path?: string;
    headers?: Record<string, string>;
    body?: string | Buffer;
  }

  export interface Request extends RequestParams {
    /** Called before each send of this request on a connection; returning a falsy value skips it. */
    setupRequest?: (request: RequestParams, context: RequestContext) => RequestParams | null | undefined;
    /** Called with every complete response to this request, before the connection's `response` event. */
    onResponse?: (status: number, body: string, context: RequestContext, headers: Record<string, string | string[]>) => void;
  }

  /** One connection: writes a request, reads its answer, writes the next; reconnects after an error or a timeout. */
  export interface ConnectionClient extends EventEmitter {
    destroy(): void;
    on(event: 'response', listener: (statusCode: number, resBytes: number, responseTimeMs: number) => void): this;
    on(event: 'connError', listener: (error: Error) => void): this;
    on(event: 'timeout', listener: () => void): this;
  }

  /** What autocannon's runner hands each connection: the URL's parts (url.urlToHttpOptions) and the request settings. */
  export interface ClientOptions {
    protocol?: string | null;
    hostname?: string | null;
    host: string;
    port?: string | number | null;
    path?: string | null;
    pipelining: number;
    requests: Request[];
    setupClient?: (client: ConnectionClient) => void;
    /** Seconds without an answer before the connection is reset and `timeout` emitted. */
    timeout: number;
    tlsOptions?: ConnectionOptions;
    servername?: string;
  }

  const Client: {
    new (options: ClientOptions): ConnectionClient;
    prototype: { getRequestBuffer?: unknown };
  };
  export default Client;
}
