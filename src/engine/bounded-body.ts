/**
 * Reads a response body a target sends, never more than a bound (docs/design.md §6,
 * "Bounded bodies"). undici's `body.text()` holds the whole body and its `bodyTimeout` fires
 * only on silence, so a target answering with an endless body would grow the driver's memory
 * for as long as it kept writing. Here the bytes are counted as they arrive; past the bound
 * the body is destroyed (undici then closes the connection, so the rest is never read) and
 * the read fails with a BodyTooLargeError, which `failureOfError` names `body-too-large`.
 */
import type { Readable } from 'node:stream';
import { BODY_TOO_LARGE_ERROR_CODE } from '../contract/failure-codes.js';

/** The most bytes of one response body coachbench reads from a target: 1 MiB. */
export const MAX_RESPONSE_BODY_BYTES = 1024 * 1024;

/** A body grew beyond the bound; its `code` makes it `body-too-large` (contract/failure-codes.ts). */
export class BodyTooLargeError extends Error {
  readonly code = BODY_TOO_LARGE_ERROR_CODE;

  constructor(readonly maxBytes: number) {
    super(`the answer's body grew beyond ${maxBytes} bytes; the rest was not read and the connection was closed`);
  }
}

const ignore = (): void => undefined;

/** UTF-8 text of `chunks` (`length` bytes in all) without a leading BOM: what undici's `body.text()` returns for the same bytes. */
export function decodeBody(chunks: Buffer[], length: number): string {
  if (length === 0) return '';
  const buffer = chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks, length);
  const bom = length > 2 && buffer[0] === 0xef && buffer[1] === 0xbb && buffer[2] === 0xbf;
  return buffer.toString('utf8', bom ? 3 : 0, length);
}

/** Reads `body` to its end, keeping its chunks when `keep`; rejects past `maxBytes`, or with the stream's own error. */
function readBounded(body: Readable, maxBytes: number, keep: boolean): Promise<Buffer[] | null> {
  // Closed before anyone read it (the run's cut aborted it first): no event will come.
  if (body.closed) return Promise.reject(body.errored ?? new Error('the body closed before it was read'));
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let bytes = 0;
    const settle = (): void => {
      body.off('data', onData).off('end', onEnd).off('error', onError).off('close', onClose);
    };
    const onData = (chunk: Buffer): void => {
      bytes += chunk.length;
      if (bytes <= maxBytes) {
        if (keep) chunks.push(chunk);
        return;
      }
      settle();
      chunks.length = 0;
      // undici reports its own abort of the request as an 'error': nobody else listens.
      body.on('error', ignore).destroy();
      reject(new BodyTooLargeError(maxBytes));
    };
    const onEnd = (): void => {
      settle();
      resolve(keep ? chunks : null);
    };
    const onError = (error: Error): void => {
      settle();
      reject(error);
    };
    const onClose = (): void => {
      settle();
      reject(new Error('the body closed before its end'));
    };
    body.on('data', onData).on('end', onEnd).on('error', onError).on('close', onClose);
  });
}

/** The whole body as text (as undici's `body.text()`), or a BodyTooLargeError once it passes `maxBytes`. */
export async function readBoundedText(body: Readable, maxBytes = MAX_RESPONSE_BODY_BYTES): Promise<string> {
  const chunks = (await readBounded(body, maxBytes, true)) as Buffer[];
  let length = 0;
  for (const chunk of chunks) length += chunk.length;
  return decodeBody(chunks, length);
}

/** Reads the body to its end and drops it; a BodyTooLargeError once it passes `maxBytes`. */
export async function discardBounded(body: Readable, maxBytes = MAX_RESPONSE_BODY_BYTES): Promise<void> {
  await readBounded(body, maxBytes, false);
}
