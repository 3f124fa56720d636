/**
 * A valid WebP of an exact (even) byte size in the extended format: RIFF/WEBP, a VP8X
 * header, a lossless VP8L bitstream of RGB noise, and an XMP packet for the remainder.
 * The VP8L stream uses no transforms and five "simple" prefix codes (RFC 9649 §3.7.2.1.1):
 * two symbols each for green, red and blue (one bit per channel per pixel), one symbol for
 * alpha and distance (zero bits), so the stream length is known before writing.
 */
import { createNoise } from './noise.js';
import { XMP_MIN_BYTES, xmpPacket } from './padding-text.js';

const VP8L_SIGNATURE = 0x2f;
const MAX_SIDE = 16_384;
const BITS_PER_PIXEL = 3;
// signature 8, size+alpha+version 32, transform 1, cache 1, meta 1, codes 19·3 + 11 + 4
const HEADER_BITS = 8 + 32 + 3 + 19 * 3 + 11 + 4;
const FIXED_BYTES = 12 + (8 + 10) + 8 + 8; // RIFF header, VP8X, VP8L and XMP chunk headers

/** No WebP of this generator is smaller (a 1×1 image with the shortest XMP packet). */
export const WEBP_MIN_BYTES = FIXED_BYTES + vp8lBytes(1) + XMP_MIN_BYTES + 1;

function vp8lBytes(pixels: number): number {
  return Math.ceil((HEADER_BITS + pixels * BITS_PER_PIXEL) / 8);
}
const even = (n: number): number => n + (n & 1);

/** LSB-first bit packing, the VP8L order. */
class BitWriter {
  readonly bytes: Uint8Array;
  private at = 0;
  private acc = 0;
  private bits = 0;
  constructor(length: number) {
    this.bytes = new Uint8Array(length);
  }
  write(value: number, count: number): void {
    this.acc |= (value & ((1 << count) - 1)) << this.bits;
    this.bits += count;
    while (this.bits >= 8) {
      this.bytes[this.at++] = this.acc & 0xff;
      this.acc >>>= 8;
      this.bits -= 8;
    }
  }
  finish(): Uint8Array {
    if (this.bits > 0) this.bytes[this.at++] = this.acc & 0xff;
    return this.bytes;
  }
}

function riffChunk(fourcc: string, data: Uint8Array): Buffer {
  const out = Buffer.alloc(8 + even(data.length));
  out.write(fourcc, 0, 'latin1');
  out.writeUInt32LE(data.length, 4);
  out.set(data, 8);
  return out;
}

function writeSimpleCode(w: BitWriter, symbols: readonly number[]): void {
  w.write(1, 1); // simple code
  w.write(symbols.length - 1, 1);
  const [first = 0, second] = symbols;
  const firstIs8Bits = first > 1 ? 1 : 0;
  w.write(firstIs8Bits, 1);
  w.write(first, firstIs8Bits ? 8 : 1);
  if (second !== undefined) w.write(second, 8);
}

function vp8l(width: number, height: number, seed: number): Uint8Array {
  const w = new BitWriter(vp8lBytes(width * height));
  w.write(VP8L_SIGNATURE, 8);
  w.write(width - 1, 14);
  w.write(height - 1, 14);
  w.write(0, 1); // alpha_is_used
  w.write(0, 3); // version
  w.write(0, 1); // no transform
  w.write(0, 1); // no color cache
  w.write(0, 1); // no meta prefix codes
  writeSimpleCode(w, [0x30, 0xd0]); // green
  writeSimpleCode(w, [0x20, 0xe0]); // red
  writeSimpleCode(w, [0x40, 0xc0]); // blue
  writeSimpleCode(w, [0xff]); // alpha: opaque, zero bits per pixel
  writeSimpleCode(w, [0]); // distance: unused
  const noise = createNoise(seed);
  let left = width * height * BITS_PER_PIXEL;
  for (; left >= 24; left -= 24) w.write(noise.next() & 0xffffff, 24);
  if (left > 0) w.write(noise.next(), left);
  return w.finish();
}

/** A valid WebP of exactly `sizeBytes` rounded up to even (RIFF chunks are even-sized), or WEBP_MIN_BYTES. */
export function buildWebp(sizeBytes: number, seed: number): Buffer {
  const target = even(Math.max(sizeBytes, WEBP_MIN_BYTES));
  const pixelBudget = Math.max(1, Math.floor(((target - FIXED_BYTES - XMP_MIN_BYTES - 1) * 8 - HEADER_BITS) / BITS_PER_PIXEL));
  const width = Math.max(1, Math.min(MAX_SIDE, Math.round(Math.sqrt(pixelBudget))));
  let height = Math.max(1, Math.min(MAX_SIDE, Math.floor(pixelBudget / width)));
  const xmpBytes = (h: number): number => target - FIXED_BYTES - even(vp8lBytes(width * h));
  while (height > 1 && xmpBytes(height) < XMP_MIN_BYTES) height--;

  const vp8x = Buffer.alloc(10);
  vp8x[0] = 0x04; // XMP metadata present
  vp8x.writeUIntLE(width - 1, 4, 3);
  vp8x.writeUIntLE(height - 1, 7, 3);
  const body = Buffer.concat([
    Buffer.from('WEBP', 'latin1'),
    riffChunk('VP8X', vp8x),
    riffChunk('VP8L', vp8l(width, height, seed)),
    riffChunk('XMP ', xmpPacket(Math.max(XMP_MIN_BYTES, xmpBytes(height)))),
  ]);
  const head = Buffer.alloc(8);
  head.write('RIFF', 0, 'latin1');
  head.writeUInt32LE(body.length, 4);
  return Buffer.concat([head, body]);
}
