/**
 * The part of autocannon 9's programmatic API that the closed model uses (the package ships
 * no types). Only what is read or set is declared; see node_modules/autocannon/README.md.
 */
declare module 'autocannon' {
  import type { EventEmitter } from 'node:events';

  namespace autocannon {
    /** Per-connection scratch object; autocannon resets it each time the `requests` list wraps. */
    type RequestContext = Record<string, unknown>;

    interface RequestParams {
      method?: string;
      path?: string;
      headers?: Record<string, string>;
      body?: string | Buffer;
    }

    interface Request extends RequestParams {
      /** Called before each send of this request on a connection; returning a falsy value skips it. */
      setupRequest?: (request: RequestParams, context: RequestContext) => RequestParams | null | undefined;
      /** Called with every complete response to this request, before the instance's `response` event. */
      onResponse?: (status: number, body: string, context: RequestContext, headers: Record<string, string | string[]>) => void;
    }

    interface Options {
      url: string;
      connections?: number;
      /** Seconds. */
      duration?: number;
      /** Seconds, at least 1: a connection with no response for this long is reset. */
      timeout?: number;
      pipelining?: number;
      requests?: Request[];
      /** Called once per connection with its Client, before the connection's first request. */
      setupClient?: (client: Client) => void;
      /** Milliseconds between autocannon's own throughput samples (also how often it notices stop()). */
      sampleInt?: number;
      /** Skip autocannon's own end-of-run aggregation (its rounded percentiles are not used). */
      skipAggregateResult?: boolean;
      /** Only valid together with a rate option, which coachbench never uses. */
      ignoreCoordinatedOmission?: boolean;
    }

    interface Result {
      errors: number;
      timeouts: number;
      totalRequests: number;
      totalCompletedRequests: number;
      /** Seconds. */
      duration: number;
    }

    /** One connection (opaque here). */
    type Client = EventEmitter;

    interface Instance extends EventEmitter {
      stop(): void;
      on(event: 'response', listener: (client: Client, statusCode: number, resBytes: number, responseTimeMs: number) => void): this;
      on(event: 'reqError', listener: (error: Error) => void): this;
      on(event: string, listener: (...args: unknown[]) => void): this;
    }
  }

  function autocannon(options: autocannon.Options, callback: (error: Error | null, result: autocannon.Result) => void): autocannon.Instance;

  export = autocannon;
}

/**
 * autocannon's connection class (internal module), read only to check that each request is
 * written through `getRequestBuffer` before the closed model replaces it per connection.
 */
declare module 'autocannon/lib/httpClient.js' {
  const Client: { prototype: { getRequestBuffer?: unknown } };
  export = Client;
}
