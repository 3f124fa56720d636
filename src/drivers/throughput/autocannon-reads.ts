/**
 * How the closed model's plain-TCP connections read: into one Buffer that every connection
 * shares (`net.connect`'s `onread`), handed straight to the connection's parser.
 *
 * autocannon 9 reads each socket as a stream: every read allocates a Buffer of its own and
 * goes through the stream's push and `data` event before it reaches the parser. With `onread`
 * Node reads into the given Buffer and calls back with it, with no allocation and no stream.
 * One Buffer serves every connection because the parser consumes a read before the next
 * can arrive: the callback runs synchronously, one socket at a time, and what the parser keeps
 * of a read (header lines, the body) it keeps as strings. TLS connections and Unix sockets
 * keep autocannon's own connect.
 */
import { connect, type Socket } from 'node:net';

/** The members of autocannon 9's Client its plain-TCP connect uses (httpClient.js `_connect`). */
interface ClientInternals {
  opts: { port: number; hostname: string; pipelining: number };
  conn: Socket;
  destroyed: boolean;
  parser: { execute(chunk: Buffer, start?: number, length?: number): unknown };
  pipelinedRequests: { addByteCount(count: number): void };
  emit(event: 'connError', error: Error): boolean;
  _connect(): void;
  _doRequest(): void;
}

/** A socket read at most this many bytes at a time: Node's own suggestion for a stream's reads. */
const READ_BYTES = 64 * 1024;
let shared: Buffer | undefined;

/**
 * Makes `client` connect as autocannon 9 does over plain TCP (reconnecting after an error or
 * the target's close, then writing its first requests), reading into the shared Buffer.
 * Call from autocannon's `setupClient` hook, before the client's first connect.
 */
export function readIntoSharedBuffer(client: object): void {
  const internals = client as ClientInternals;
  internals._connect = function connectSharedReads(this: ClientInternals): void {
    shared ??= Buffer.allocUnsafe(READ_BYTES);
    const conn = connect({
      port: this.opts.port,
      host: this.opts.hostname,
      onread: {
        buffer: shared,
        // true: keep reading (false would pause the socket).
        callback: (bytes: number, buffer: Uint8Array): boolean => {
          this.pipelinedRequests.addByteCount(bytes);
          this.parser.execute(buffer as Buffer, 0, bytes);
          return true;
        },
      },
    });
    this.conn = conn;
    conn.on('error', (error: Error) => {
      this.emit('connError', error);
      if (!this.destroyed) this._connect();
    });
    conn.on('end', () => {
      if (!this.destroyed) this._connect();
    });
    for (let i = 0; i < this.opts.pipelining; i++) this._doRequest();
  };
}
