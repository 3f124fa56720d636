/**
 * Node's `clientError`: requests the HTTP parser refused (oversized headers, garbage bytes,
 * header timeouts). Node's default answers a bare 400/431; this one writes problem+json with
 * the five headers whenever the socket is still writable, then closes the connection.
 */
import type { Socket } from 'node:net';
import { PROBLEM_HEADERS } from './http-reply.js';
import { problemBody } from './problem.js';

const STATUS_BY_CODE: Record<string, number> = {
  HPE_HEADER_OVERFLOW: 431,
  ERR_HTTP_REQUEST_TIMEOUT: 408,
  HPE_CHUNK_EXTENSIONS_OVERFLOW: 413,
};

const REASON: Record<number, string> = { 400: 'Bad Request', 408: 'Request Timeout', 413: 'Content Too Large', 431: 'Request Header Fields Too Large' };

/** The server's `clientError` listener: a problem+json answer when possible, then close. */
export function handleClientError(error: Error & { code?: string }, socket: Socket): void {
  // A reset or an already-answered socket has nobody to tell.
  if (error.code === 'ECONNRESET' || !socket.writable || socket.bytesWritten > 0) {
    socket.destroy();
    return;
  }
  const status = STATUS_BY_CODE[error.code ?? ''] ?? 400;
  const detail = status === 431 ? 'the request headers are too large' : `the request could not be parsed (${error.code ?? 'parse error'})`;
  const body = JSON.stringify(problemBody(status, status === 431 ? 'headers-too-large' : 'malformed-request', detail, '/'));
  const headers = { ...PROBLEM_HEADERS, 'content-length': String(Buffer.byteLength(body)), connection: 'close' };
  const head = Object.entries(headers)
    .map(([name, value]) => `${name}: ${value}\r\n`)
    .join('');
  socket.end(`HTTP/1.1 ${status} ${REASON[status] ?? 'Bad Request'}\r\n${head}\r\n${body}`);
  // end() half-closes; a client that never closes its side must not hold the socket forever.
  // Destroying at once could reset the connection before the client reads the answer.
  setTimeout(() => socket.destroy(), 1_000).unref();
}
