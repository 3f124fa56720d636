/** Hand-built multipart bodies and tiny images, so tests control every byte and part order. */

export interface Part {
  name: string;
  /** Present for a file part. */
  filename?: string;
  contentType?: string;
  data: Buffer | string;
}

export const BOUNDARY = 'coachbench-test-boundary-7d1f';
export const MULTIPART_TYPE = `multipart/form-data; boundary=${BOUNDARY}`;

export function partHead(part: Part): string {
  const filename = part.filename === undefined ? '' : `; filename="${part.filename}"`;
  const type = part.contentType ?? (part.filename === undefined ? undefined : 'application/octet-stream');
  return `--${BOUNDARY}\r\nContent-Disposition: form-data; name="${part.name}"${filename}\r\n${type ? `Content-Type: ${type}\r\n` : ''}\r\n`;
}

export const CLOSING = `--${BOUNDARY}--\r\n`;

export function multipart(parts: Part[]): Buffer {
  const chunks: Buffer[] = [];
  for (const part of parts) {
    chunks.push(Buffer.from(partHead(part)), Buffer.from(part.data), Buffer.from('\r\n'));
  }
  chunks.push(Buffer.from(CLOSING));
  return Buffer.concat(chunks);
}

const pad = (head: number[], size: number): Buffer => {
  const out = Buffer.alloc(size, 0x20);
  Buffer.from(head).copy(out);
  return out;
};

export const JPEG = (size = 256): Buffer => pad([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46, 0x49, 0x46], size);
export const PNG = (size = 256): Buffer => pad([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a], size);
export const WEBP = (size = 256): Buffer => pad([...Buffer.from('RIFF'), 0x24, 0, 0, 0, ...Buffer.from('WEBPVP8 ')], size);
export const NOT_AN_IMAGE = (size = 256): Buffer => pad([...Buffer.from('GIF89a')], size);
