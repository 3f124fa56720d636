/**
 * multipart/form-data bodies for the profile-photo upload (API endpoint 2, docs/design.md §4), built once as
 * plain Buffers with a fixed boundary and shared by every request that sends them: a
 * Buffer is written to the socket as is, never copied per virtual user.
 */
import { createHash } from 'node:crypto';
import type { CorpusImage } from './images/image-corpus.js';

/** The API's default file-part name. */
export const DEFAULT_PART = 'filename';
/** The part name used when the `name` text field overrides the default. */
export const OVERRIDE_PART = 'photo';

/** One form part: a text field, or a file part when `fileName` is set. */
export interface MultipartPart {
  name: string;
  /** Present for a file part. */
  fileName?: string;
  contentType?: string;
  data: Buffer;
}

/** A complete body and its Content-Type; built once, sent many times. */
export interface MultipartBody {
  /** The full `Content-Type` header value, boundary included. */
  contentType: string;
  body: Buffer;
}

const CRLF = '\r\n';

/** A boundary that occurs in none of the parts (RFC 2046 §5.1.1: up to 70 chars). */
function pickBoundary(parts: readonly MultipartPart[]): string {
  for (let attempt = 0; ; attempt++) {
    const digest = createHash('sha256').update(`coachbench-${attempt}`).digest('hex').slice(0, 32);
    const boundary = `----coachbench-${digest}`;
    if (!parts.some((part) => part.data.includes(boundary))) return boundary;
  }
}

/** Assembles parts in order into one body. Part order matters: streaming parsers see `name` before the file. */
export function buildMultipart(parts: readonly MultipartPart[]): MultipartBody {
  const boundary = pickBoundary(parts);
  const chunks: Buffer[] = [];
  for (const part of parts) {
    let head = `--${boundary}${CRLF}Content-Disposition: form-data; name="${part.name}"`;
    if (part.fileName !== undefined) head += `; filename="${part.fileName}"`;
    head += CRLF;
    if (part.contentType !== undefined) head += `Content-Type: ${part.contentType}${CRLF}`;
    chunks.push(Buffer.from(head + CRLF, 'latin1'), part.data, Buffer.from(CRLF, 'latin1'));
  }
  chunks.push(Buffer.from(`--${boundary}--${CRLF}`, 'latin1'));
  return { contentType: `multipart/form-data; boundary=${boundary}`, body: Buffer.concat(chunks) };
}

const imagePart = (name: string, image: CorpusImage): MultipartPart => ({
  name,
  fileName: image.fileName,
  contentType: image.mimeType,
  data: image.bytes,
});

/** The default upload: the image in the part named `filename`. */
export function defaultPhotoBody(image: CorpusImage): MultipartBody {
  return buildMultipart([imagePart(DEFAULT_PART, image)]);
}

/** The override upload: a `name` text field naming OVERRIDE_PART, then the image in that part. */
export function overridePhotoBody(image: CorpusImage): MultipartBody {
  return buildMultipart([{ name: 'name', data: Buffer.from(OVERRIDE_PART, 'latin1') }, imagePart(OVERRIDE_PART, image)]);
}
