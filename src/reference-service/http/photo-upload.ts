/**
 * Streams a multipart photo upload through busboy without keeping image bytes: each file
 * part keeps only a size counter and its first bytes. The image part is `filename`, or the
 * part named by the text field `name` wherever that field appears in the form; so until the
 * form ends (or `name` arrives) every file part is a candidate. Reading stops at once when the
 * chosen part passes the limit, or when the whole body passes limit + 1 MiB of slack.
 */
import type { IncomingMessage } from 'node:http';
import busboy from 'busboy';
import { type ImageKind, SNIFF_BYTES, sniffImage } from './image-sniff.js';
import { HttpProblem, problems } from './problem.js';
import { ClientGoneError } from './read-json.js';

/** The largest accepted image: 5 MiB. */
export const MAX_PHOTO_BYTES = 5 * 1024 * 1024;
const FORM_SLACK_BYTES = 1024 * 1024;
const DEFAULT_PART = 'filename';

interface Candidate {
  size: number;
  head: Buffer;
}

// 413s close the connection: the unread rest of the upload is not worth reading.
const tooLarge = (detail: string): HttpProblem => new HttpProblem(413, 'payload-too-large', detail, { connection: 'close' });

/** Resolves the image type of the accepted upload, or rejects with the 400/413/415 problem. */
export function receivePhoto(req: IncomingMessage): Promise<ImageKind> {
  const contentType = req.headers['content-type'] ?? '';
  if (!/^multipart\/form-data\s*;/i.test(contentType)) {
    req.resume();
    return Promise.reject(problems.unsupportedMedia('the photo must be sent as multipart/form-data with a boundary'));
  }
  if (Number(req.headers['content-length'] ?? 0) > MAX_PHOTO_BYTES + FORM_SLACK_BYTES) {
    return Promise.reject(tooLarge(`the upload is larger than ${MAX_PHOTO_BYTES + FORM_SLACK_BYTES} bytes`));
  }
  return new Promise((resolve, reject) => {
    const candidates = new Map<string, Candidate>();
    let chosenName: string | null = null;
    let bodyBytes = 0;
    let settled = false;
    const parser = busboy({
      headers: req.headers,
      // Text fields are buffered by busboy, so they are capped small: only `name` matters.
      // An image must be a file part (a filename= or application/octet-stream).
      limits: { fieldSize: 1024, fields: 20, files: 20, parts: 40 },
    });
    const finish = (error: Error | null, kind?: ImageKind): void => {
      if (settled) return;
      settled = true;
      req.off('data', countBody);
      req.unpipe(parser);
      parser.removeAllListeners();
      parser.on('error', () => undefined);
      parser.destroy();
      if (error) reject(error);
      else resolve(kind as ImageKind);
    };
    // Only a part known to be the image (its name matches `name`) is refused mid-stream;
    // before `name` arrives the body cap bounds how much is read.
    const failIfChosenTooBig = (): void => {
      const part = chosenName === null ? undefined : candidates.get(chosenName);
      if (part && part.size > MAX_PHOTO_BYTES) finish(tooLarge(`the image part "${chosenName}" is larger than ${MAX_PHOTO_BYTES} bytes`));
    };
    const countBody = (chunk: Buffer): void => {
      bodyBytes += chunk.length;
      if (bodyBytes > MAX_PHOTO_BYTES + FORM_SLACK_BYTES) finish(tooLarge(`the upload is larger than ${MAX_PHOTO_BYTES + FORM_SLACK_BYTES} bytes`));
    };
    parser.on('field', (name, value) => {
      if (name !== 'name' || chosenName !== null) return;
      chosenName = value === '' ? DEFAULT_PART : value;
      failIfChosenTooBig();
    });
    parser.on('file', (name, stream) => {
      const existing = candidates.get(name);
      const part: Candidate = existing ?? { size: 0, head: Buffer.alloc(0) };
      if (!existing) candidates.set(name, part);
      // busboy errors the open file stream too on a truncated form; `parser` reports it.
      stream.on('error', () => undefined);
      stream.on('data', (chunk: Buffer) => {
        if (existing) return; // a repeated part name: the first part is the one that counts
        if (part.head.length < SNIFF_BYTES) part.head = Buffer.concat([part.head, chunk.subarray(0, SNIFF_BYTES - part.head.length)]);
        part.size += chunk.length;
        if (part.size > MAX_PHOTO_BYTES && name === chosenName) failIfChosenTooBig();
      });
    });
    parser.on('error', (error: Error) => finish(problems.badRequest(`the multipart body is malformed (${error.message})`)));
    parser.on('partsLimit', () => finish(problems.badRequest('the form has too many parts')));
    parser.on('filesLimit', () => finish(problems.badRequest('the form has too many file parts')));
    parser.on('fieldsLimit', () => finish(problems.badRequest('the form has too many fields')));
    parser.on('close', () => finish(...decide(candidates, chosenName ?? DEFAULT_PART)));
    req.on('data', countBody);
    req.once('aborted', () => finish(new ClientGoneError()));
    req.once('error', () => finish(new ClientGoneError()));
    req.pipe(parser);
  });
}

function decide(candidates: Map<string, Candidate>, name: string): [Error | null, ImageKind?] {
  const part = candidates.get(name);
  if (!part || part.size === 0) return [problems.badRequest(`the form has no image in the part "${name}"`)];
  if (part.size > MAX_PHOTO_BYTES) return [tooLarge(`the image part "${name}" is larger than ${MAX_PHOTO_BYTES} bytes`)];
  const kind = sniffImage(part.head);
  if (!kind) return [problems.unsupportedMedia(`the image part "${name}" is not JPEG, PNG or WebP`)];
  return [null, kind];
}
