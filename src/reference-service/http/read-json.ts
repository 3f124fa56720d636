/**
 * Reads a JSON request body with a size cap: 415 for a non-JSON content type, 413 past the
 * cap (read stops there), 400 for malformed or missing JSON and for bytes that are not UTF-8.
 */
import type { IncomingMessage } from 'node:http';
import { HttpProblem, problems } from './problem.js';

/** JSON bodies above this are refused with 413. */
export const MAX_JSON_BYTES = 1024 * 1024;

/** Thrown when the client went away mid-body: there is nobody left to answer. */
export class ClientGoneError extends Error {
  constructor() {
    super('client closed the request');
    this.name = 'ClientGoneError';
  }
}

const hasBody = (req: IncomingMessage): boolean => req.headers['transfer-encoding'] !== undefined || Number(req.headers['content-length'] ?? 0) > 0;

const isJsonType = (type: string | undefined): boolean => type !== undefined && /^application\/([\w.+-]+\+)?json\s*(;|$)/i.test(type.trim());

/** Too big: answer and close the connection rather than read the rest. */
const tooLarge = (): HttpProblem => new HttpProblem(413, 'payload-too-large', `JSON bodies are limited to ${MAX_JSON_BYTES} bytes`, { connection: 'close' });

/**
 * Resolves the parsed body. With `optional`, a request without a body reads as `{}` (the
 * search endpoints), otherwise it is a 400.
 */
export async function readJson(req: IncomingMessage, options: { optional?: boolean } = {}): Promise<unknown> {
  if (!hasBody(req)) {
    req.resume();
    if (options.optional) return {};
    throw problems.badRequest('a JSON request body is required');
  }
  if (!isJsonType(req.headers['content-type'])) {
    throw problems.unsupportedMedia('the request body must be application/json');
  }
  if (Number(req.headers['content-length'] ?? 0) > MAX_JSON_BYTES) throw tooLarge();
  const text = decodeUtf8(await collect(req));
  if (text.trim() === '') {
    if (options.optional) return {};
    throw problems.badRequest('a JSON request body is required');
  }
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    throw problems.badRequest(`the request body is not valid JSON (${(error as Error).message})`);
  }
}

/**
 * JSON is UTF-8 (RFC 8259 §8.1). A lenient decode would turn bad bytes into U+FFFD and store
 * a text the client never sent; a fatal decoder refuses them.
 */
function decodeUtf8(bytes: Buffer): string {
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    throw problems.badRequest('the request body is not valid UTF-8');
  }
}

function collect(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const cleanup = (): void => {
      req.off('data', onData);
      req.off('end', onEnd);
      req.off('aborted', onGone);
      req.off('error', onGone);
    };
    const onData = (chunk: Buffer): void => {
      size += chunk.length;
      if (size > MAX_JSON_BYTES) {
        cleanup();
        req.pause();
        reject(tooLarge());
        return;
      }
      chunks.push(chunk);
    };
    const onEnd = (): void => {
      cleanup();
      resolve(Buffer.concat(chunks));
    };
    const onGone = (): void => {
      cleanup();
      reject(new ClientGoneError());
    };
    req.on('data', onData);
    req.once('end', onEnd);
    req.once('aborted', onGone);
    req.once('error', onGone);
  });
}
