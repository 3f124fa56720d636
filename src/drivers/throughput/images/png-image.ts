/**
 * A valid PNG of an exact byte size: 8-bit RGB noise (incompressible, like a photo) in a
 * zlib stream of stored deflate blocks, so the size is known before writing, plus a tEXt
 * Comment chunk for the remainder. Every chunk carries its CRC-32.
 */
import { crc32 } from 'node:zlib';
import { createNoise } from './noise.js';
import { paddingText } from './padding-text.js';

const SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
const STORED_BLOCK_MAX = 65_535;
const CHUNK_OVERHEAD = 12; // length, type, CRC
const COMMENT_KEYWORD = Buffer.from('Comment\0', 'latin1');
const MIN_COMMENT_CHUNK = CHUNK_OVERHEAD + COMMENT_KEYWORD.length;
const FIXED_BYTES = SIGNATURE.length + (CHUNK_OVERHEAD + 13) + CHUNK_OVERHEAD * 2; // IHDR, IDAT head, IEND

/** No PNG of this generator is smaller (a 1×1 image); a size below it yields one unpadded row. */
export const PNG_MIN_BYTES = FIXED_BYTES + zlibStoredSize(4);

function chunk(type: string, data: Buffer): Buffer {
  const out = Buffer.alloc(CHUNK_OVERHEAD + data.length);
  out.writeUInt32BE(data.length, 0);
  out.write(type, 4, 'latin1');
  data.copy(out, 8);
  out.writeUInt32BE(crc32(out.subarray(4, 8 + data.length)), 8 + data.length);
  return out;
}

/** zlib header + stored blocks (5 bytes each) + Adler-32. */
function zlibStoredSize(rawBytes: number): number {
  return 2 + Math.max(1, Math.ceil(rawBytes / STORED_BLOCK_MAX)) * 5 + rawBytes + 4;
}

function zlibStored(raw: Uint8Array): Buffer {
  const out = Buffer.alloc(zlibStoredSize(raw.length));
  out[0] = 0x78; // CM=8 (deflate), CINFO=7 (32 KiB window)
  out[1] = 0x01; // FCHECK so that (CMF·256 + FLG) % 31 == 0, FLEVEL=0
  let at = 2;
  let offset = 0;
  do {
    const length = Math.min(STORED_BLOCK_MAX, raw.length - offset);
    const final = offset + length >= raw.length;
    out[at++] = final ? 1 : 0; // BFINAL, BTYPE=00 (stored)
    out.writeUInt16LE(length, at);
    out.writeUInt16LE(~length & 0xffff, at + 2);
    at += 4;
    out.set(raw.subarray(offset, offset + length), at);
    at += length;
    offset += length;
  } while (offset < raw.length);
  out.writeUInt32BE(adler32(raw), at);
  return out;
}

function adler32(data: Uint8Array): number {
  let a = 1;
  let b = 0;
  // 5552 is the largest run before b can overflow 2^32 (RFC 1950 reference code).
  for (let i = 0; i < data.length; ) {
    const end = Math.min(data.length, i + 5552);
    for (; i < end; i++) {
      a += data[i] as number;
      b += a;
    }
    a %= 65_521;
    b %= 65_521;
  }
  return ((b << 16) | a) >>> 0;
}

/** A valid PNG of exactly `sizeBytes` (or PNG_MIN_BYTES when smaller). */
export function buildPng(sizeBytes: number, seed: number): Buffer {
  const width = Math.max(1, Math.min(4096, Math.round(Math.sqrt(Math.max(1, sizeBytes) / 3))));
  const rowBytes = 1 + width * 3;
  const fits = (h: number): boolean => {
    const rest = sizeBytes - FIXED_BYTES - zlibStoredSize(h * rowBytes);
    return rest === 0 || rest >= MIN_COMMENT_CHUNK;
  };
  let height = Math.max(1, Math.floor((sizeBytes - FIXED_BYTES - MIN_COMMENT_CHUNK) / rowBytes));
  while (height > 1 && !fits(height)) height--;

  const raw = new Uint8Array(height * rowBytes);
  createNoise(seed).fill(raw);
  for (let y = 0; y < height; y++) raw[y * rowBytes] = 0; // filter type None

  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr.set([8, 2, 0, 0, 0], 8); // 8 bits, RGB, deflate, adaptive filtering, no interlace
  const idat = chunk('IDAT', zlibStored(raw));
  const used = FIXED_BYTES + idat.length - CHUNK_OVERHEAD;
  const padding = sizeBytes - used;
  const parts = [SIGNATURE, chunk('IHDR', ihdr)];
  if (padding >= MIN_COMMENT_CHUNK) parts.push(chunk('tEXt', Buffer.concat([COMMENT_KEYWORD, paddingText(padding - MIN_COMMENT_CHUNK)])));
  parts.push(idat, chunk('IEND', Buffer.alloc(0)));
  return Buffer.concat(parts);
}
