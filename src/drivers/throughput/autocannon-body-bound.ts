/**
 * The closed model's bound on response bodies (docs/design.md §6, "Bounded bodies").
 *
 * autocannon 9 appends every body chunk of an answer to one string (its pipelined-request
 * queue's `addBody`, `req.body += data`) until the answer ends, and restarts its timeout only
 * when it writes a request: a target answering with an endless body grew that string for the
 * whole timeout, on every connection. Here the connection's parser callbacks count the bytes
 * of the answer's body; past the bound no chunk reaches autocannon, the answer is never
 * reported as one, and once the parser has returned the connection is destroyed and
 * reconnected (as after a timeout), so the rest is never read. Every new connection also
 * starts with a fresh parser: autocannon keeps one parser across reconnects, which would read
 * a new connection's answer as the rest of the one the old connection cut.
 */

/** The members of http-parser-js's HTTPParser (autocannon 9's parser) this relies on. */
interface Parser {
  execute(chunk: Buffer, start?: number, length?: number): unknown;
  initialize(type: string): void;
  [callback: number]: (this: Parser, ...args: never[]) => unknown;
}

/** HTTPParser's static callback slots and parser type. */
interface ParserClass {
  kOnBody: number;
  kOnMessageComplete: number;
  RESPONSE: string;
}

/** The members of autocannon 9's Client this relies on. */
interface ClientInternals {
  parser: Parser;
  destroyed: boolean;
  _connect(): void;
  _destroyConnection(): void;
}

/**
 * Holds every answer `client` reads to `maxBytes` of body; an answer past it calls
 * `onTooLarge` (instead of being reported) and costs the connection, which reconnects.
 * Call right after the client is constructed, before its socket can deliver anything.
 */
export function boundResponseBodies(client: object, maxBytes: number, onTooLarge: () => void): void {
  const internals = client as ClientInternals;
  const parser = internals.parser;
  const { kOnBody, kOnMessageComplete, RESPONSE } = parser.constructor as unknown as ParserClass;
  const onBody = parser[kOnBody] as (this: Parser, chunk: Buffer, start: number, length: number) => unknown;
  const onComplete = parser[kOnMessageComplete] as (this: Parser) => unknown;
  let bodyBytes = 0;
  let tooLarge = false;

  parser[kOnBody] = function boundedBody(this: Parser, chunk: Buffer, start: number, length: number): unknown {
    if (tooLarge) return undefined;
    bodyBytes += length;
    if (bodyBytes > maxBytes) {
      tooLarge = true;
      return undefined;
    }
    return onBody.call(this, chunk, start, length);
  };
  parser[kOnMessageComplete] = function boundedComplete(this: Parser): unknown {
    // The end of an oversized answer (the rest of its chunk) is no answer.
    if (tooLarge) return undefined;
    bodyBytes = 0;
    return onComplete.call(this);
  };

  const execute = parser.execute;
  parser.execute = function boundedExecute(this: Parser, chunk: Buffer, start?: number, length?: number): unknown {
    const result = execute.call(this, chunk, start, length);
    if (tooLarge) {
      // The socket's data handler is still on the stack: destroying it here stops its reads.
      internals._destroyConnection();
      onTooLarge();
      if (!internals.destroyed) internals._connect();
    }
    return result;
  };

  const connect = internals._connect;
  internals._connect = function freshParser(this: ClientInternals): void {
    parser.initialize(RESPONSE);
    bodyBytes = 0;
    tooLarge = false;
    connect.call(this);
  };
}
