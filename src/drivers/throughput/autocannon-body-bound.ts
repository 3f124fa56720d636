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
 *
 * What the parser holds of an answer besides its body is held to the same bound: the header
 * and trailer lines it keeps until the answer ends, and the line it is still reading (a status
 * line, a header, a chunk size). http-parser-js keeps them all, and only returns, never acts
 * on, an error for a head past its own limit, which autocannon ignores: a target sending an
 * endless head grew the driver for as long as it sent (docs/design.md §6, "Bounded bodies").
 * Chunk-size lines it has read are not held, so an answer of many small chunks is not cut.
 */

/** The members of http-parser-js's HTTPParser (autocannon 9's parser) this relies on. */
interface Parser {
  execute(chunk: Buffer, start?: number, length?: number): unknown;
  initialize(type: string): void;
  /** Parses one header or trailer line, whole, into `headers` (which the answer keeps). */
  parseHeader(line: string, headers: string[]): void;
  /** The line read so far whose end has not come. */
  line: string;
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

/** The error of an answer whose head (or trailers) passed the bound: named as undici names an oversized head. */
export function headTooLargeError(maxBytes: number): Error {
  return Object.assign(new Error(`the answer's head grew beyond ${maxBytes} bytes; the rest was not read and the connection was closed`), {
    code: 'UND_ERR_HEADERS_OVERFLOW',
  });
}

/**
 * Holds every answer `client` reads to `maxBytes` of body, and `maxBytes` of head and trailers;
 * an answer past either calls `onTooLarge` or `onHeadTooLarge` (instead of being reported)
 * and costs the connection, which reconnects. Call right after the client is constructed,
 * before its socket can deliver anything.
 */
export function boundResponseBodies(client: object, maxBytes: number, onTooLarge: () => void, onHeadTooLarge: (error: Error) => void): void {
  const internals = client as ClientInternals;
  const parser = internals.parser;
  const { kOnBody, kOnMessageComplete, RESPONSE } = parser.constructor as unknown as ParserClass;
  const onBody = parser[kOnBody] as (this: Parser, chunk: Buffer, start: number, length: number) => unknown;
  const onComplete = parser[kOnMessageComplete] as (this: Parser) => unknown;
  let bodyBytes = 0;
  let tooLarge = false;
  /** Characters of the header and trailer lines the parser keeps for the answer under way. */
  let headChars = 0;
  let headTooLarge = false;

  const parseHeader = parser.parseHeader;
  parser.parseHeader = function countedHeader(this: Parser, line: string, headers: string[]): void {
    headChars += line.length;
    parseHeader.call(this, line, headers);
  };
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
    headChars = 0;
    return onComplete.call(this);
  };

  const execute = parser.execute;
  parser.execute = function boundedExecute(this: Parser, chunk: Buffer, start?: number, length?: number): unknown {
    const result = execute.call(this, chunk, start, length);
    // The parser reads ASCII: one character a byte.
    if (!tooLarge && headChars + this.line.length > maxBytes) headTooLarge = true;
    if (tooLarge || headTooLarge) {
      // The socket's data handler is still on the stack: destroying it here stops its reads.
      internals._destroyConnection();
      if (tooLarge) onTooLarge();
      else onHeadTooLarge(headTooLargeError(maxBytes));
      if (!internals.destroyed) internals._connect();
    }
    return result;
  };

  const connect = internals._connect;
  internals._connect = function freshParser(this: ClientInternals): void {
    parser.initialize(RESPONSE);
    bodyBytes = 0;
    tooLarge = false;
    headChars = 0;
    headTooLarge = false;
    connect.call(this);
  };
}
