/**
 * A valid baseline JPEG of an exact byte size: JFIF APP0, the standard luminance
 * quantisation and Huffman tables (ITU T.81 Annex K), one grey component, and a real
 * entropy-coded scan of textured noise (a random DC level and a few random low-frequency AC
 * coefficients per 8×8 block, about 1 bit per pixel like a photo), so a target that decodes
 * or resizes uploads pays for realistic pixel counts. COM segments fill the rest.
 */
import { createNoise } from './noise.js';
import { paddingText } from './padding-text.js';

const K1_LUMINANCE_QUANT = [
  16, 11, 10, 16, 24, 40, 51, 61, 12, 12, 14, 19, 26, 58, 60, 55, 14, 13, 16, 24, 40, 57, 69, 56, 14, 17, 22, 29, 51, 87, 80, 62, 18, 22, 37, 56, 68, 109, 103,
  77, 24, 35, 55, 64, 81, 104, 113, 92, 49, 64, 78, 87, 103, 121, 120, 101, 72, 92, 95, 98, 112, 100, 103, 99,
];
const DC_BITS = [0, 1, 5, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 0, 0, 0];
const DC_VALUES = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11];
const AC_BITS = [0, 2, 1, 3, 3, 2, 4, 3, 5, 5, 4, 4, 0, 0, 1, 0x7d];
const AC_VALUES = [
  0x01, 0x02, 0x03, 0x00, 0x04, 0x11, 0x05, 0x12, 0x21, 0x31, 0x41, 0x06, 0x13, 0x51, 0x61, 0x07, 0x22, 0x71, 0x14, 0x32, 0x81, 0x91, 0xa1, 0x08, 0x23, 0x42,
  0xb1, 0xc1, 0x15, 0x52, 0xd1, 0xf0, 0x24, 0x33, 0x62, 0x72, 0x82, 0x09, 0x0a, 0x16, 0x17, 0x18, 0x19, 0x1a, 0x25, 0x26, 0x27, 0x28, 0x29, 0x2a, 0x34, 0x35,
  0x36, 0x37, 0x38, 0x39, 0x3a, 0x43, 0x44, 0x45, 0x46, 0x47, 0x48, 0x49, 0x4a, 0x53, 0x54, 0x55, 0x56, 0x57, 0x58, 0x59, 0x5a, 0x63, 0x64, 0x65, 0x66, 0x67,
  0x68, 0x69, 0x6a, 0x73, 0x74, 0x75, 0x76, 0x77, 0x78, 0x79, 0x7a, 0x83, 0x84, 0x85, 0x86, 0x87, 0x88, 0x89, 0x8a, 0x92, 0x93, 0x94, 0x95, 0x96, 0x97, 0x98,
  0x99, 0x9a, 0xa2, 0xa3, 0xa4, 0xa5, 0xa6, 0xa7, 0xa8, 0xa9, 0xaa, 0xb2, 0xb3, 0xb4, 0xb5, 0xb6, 0xb7, 0xb8, 0xb9, 0xba, 0xc2, 0xc3, 0xc4, 0xc5, 0xc6, 0xc7,
  0xc8, 0xc9, 0xca, 0xd2, 0xd3, 0xd4, 0xd5, 0xd6, 0xd7, 0xd8, 0xd9, 0xda, 0xe1, 0xe2, 0xe3, 0xe4, 0xe5, 0xe6, 0xe7, 0xe8, 0xe9, 0xea, 0xf1, 0xf2, 0xf3, 0xf4,
  0xf5, 0xf6, 0xf7, 0xf8, 0xf9, 0xfa,
];

interface Code {
  code: number;
  length: number;
}

/** Canonical Huffman codes (T.81 Annex C) from a DHT's BITS and HUFFVAL lists, indexed by symbol. */
function canonicalCodes(bits: readonly number[], values: readonly number[]): Code[] {
  const codes: Code[] = [];
  let code = 0;
  let k = 0;
  for (let length = 1; length <= 16; length++) {
    for (let i = 0; i < (bits[length - 1] ?? 0); i++) codes[values[k++] as number] = { code: code++, length };
    code <<= 1;
  }
  return codes;
}

const DC_CODES = canonicalCodes(DC_BITS, DC_VALUES);
const AC_CODES = canonicalCodes(AC_BITS, AC_VALUES);
const EOB = AC_CODES[0x00] as Code;
/** Run 0, magnitude category 1..3: the cheapest AC symbols. */
const AC_SMALL = [1, 2, 3].map((size) => AC_CODES[size] as Code);
const MAX_AC_PER_BLOCK = 20;

function zigzag(natural: readonly number[]): number[] {
  const out: number[] = [];
  for (let s = 0; s < 15; s++) {
    const cells: number[] = [];
    for (let r = Math.max(0, s - 7); r <= Math.min(7, s); r++) cells.push(r * 8 + (s - r));
    if (s % 2 === 0) cells.reverse(); // even diagonals run bottom-left to top-right
    for (const cell of cells) out.push(natural[cell] as number);
  }
  return out;
}

const segment = (marker: number, payload: readonly number[] | Buffer): Buffer => {
  const head = Buffer.from([0xff, marker, (payload.length + 2) >> 8, (payload.length + 2) & 0xff]);
  return Buffer.concat([head, Buffer.from(payload)]);
};
const u16 = (v: number): number[] => [v >> 8, v & 0xff];

/** MSB-first entropy-coded data with 0xFF byte stuffing; can roll back to a row boundary. */
class ScanWriter {
  bytes: Uint8Array;
  length = 0;
  private acc = 0;
  private bits = 0;
  constructor(capacity: number) {
    this.bytes = new Uint8Array(Math.max(16, capacity));
  }
  write(code: number, length: number): void {
    this.acc = (this.acc << length) | (code & ((1 << length) - 1));
    this.bits += length;
    while (this.bits >= 8) {
      this.bits -= 8;
      this.push((this.acc >>> this.bits) & 0xff);
    }
    this.acc &= (1 << this.bits) - 1;
  }
  flush(): void {
    if (this.bits > 0) this.write(0x7f, 8 - this.bits); // pad with 1-bits (T.81 F.1.2.3)
  }
  mark(): [number, number, number] {
    return [this.length, this.acc, this.bits];
  }
  reset([length, acc, bits]: [number, number, number]): void {
    this.length = length;
    this.acc = acc;
    this.bits = bits;
  }
  private push(byte: number): void {
    if (this.length + 2 > this.bytes.length) {
      const grown = new Uint8Array(this.bytes.length * 2);
      grown.set(this.bytes);
      this.bytes = grown;
    }
    this.bytes[this.length++] = byte;
    if (byte === 0xff) this.bytes[this.length++] = 0x00;
  }
}

const FIXED_BYTES = 2 + 18 + 69 + 13 + 33 + 183 + 10 + 2; // SOI APP0 DQT SOF0 DHT×2 SOS EOI
const MAX_BLOCKS_PER_SIDE = 8191; // 65535 px / 8
const AVG_BITS_PER_BLOCK = 56;

/** No JPEG of this generator is smaller: a size below it yields one row of 8×8 blocks, unpadded. */
export const JPEG_MIN_BYTES = FIXED_BYTES + 1;

/** A valid baseline JPEG of exactly `sizeBytes` (or JPEG_MIN_BYTES when smaller). */
export function buildJpeg(sizeBytes: number, seed: number): Buffer {
  const noise = createNoise(seed);
  const scanBudget = sizeBytes - FIXED_BYTES - 4 - 2; // leave room for one COM segment and the final flush
  const blocksX = Math.min(MAX_BLOCKS_PER_SIDE, Math.max(1, Math.round(Math.sqrt((Math.max(0, scanBudget) * 8) / AVG_BITS_PER_BLOCK))));
  const scan = new ScanWriter(Math.max(0, scanBudget) + 64);
  let previousDc = 0;
  let rows = 0;
  while (rows < MAX_BLOCKS_PER_SIDE) {
    const before = scan.mark();
    const dcBefore = previousDc;
    for (let x = 0; x < blocksX; x++) {
      const dc = noise.below(121) - 60; // quantised DC; ×16 stays inside the 8-bit sample range
      const diff = dc - previousDc;
      previousDc = dc;
      const category = diff === 0 ? 0 : 32 - Math.clz32(Math.abs(diff));
      const huff = DC_CODES[category] as Code;
      // One write per coefficient: the Huffman code followed by its magnitude bits (≤ 20 bits).
      const dcBits = diff >= 0 ? diff : diff + (1 << category) - 1;
      scan.write((huff.code << category) | dcBits, huff.length + category);
      const r = noise.next();
      const acCount = r % (MAX_AC_PER_BLOCK + 1);
      for (let k = 0; k < acCount; k++) {
        const bits = noise.next();
        const size = 1 + (bits % 3);
        const ac = AC_SMALL[size - 1] as Code;
        const magnitude = (1 << (size - 1)) | ((bits >>> 4) & ((1 << (size - 1)) - 1));
        // Negative values are sent as the ones' complement of the magnitude (T.81 F.1.2.2.1).
        const acBits = (bits >>> 8) & 1 ? magnitude : (1 << size) - 1 - magnitude;
        scan.write((ac.code << size) | acBits, ac.length + size);
      }
      scan.write(EOB.code, EOB.length); // MAX_AC_PER_BLOCK < 63, so every block ends with EOB
    }
    if (rows > 0 && scan.length > scanBudget) {
      scan.reset(before);
      previousDc = dcBefore;
      break;
    }
    rows++;
  }
  scan.flush();

  const header = [
    Buffer.from([0xff, 0xd8]),
    segment(0xe0, [...Buffer.from('JFIF\0', 'latin1'), 1, 1, 0, 0, 1, 0, 1, 0, 0]),
    segment(0xdb, [0x00, ...zigzag(K1_LUMINANCE_QUANT)]),
    segment(0xc0, [8, ...u16(rows * 8), ...u16(blocksX * 8), 1, 1, 0x11, 0]),
    segment(0xc4, [0x00, ...DC_BITS, ...DC_VALUES]),
    segment(0xc4, [0x10, ...AC_BITS, ...AC_VALUES]),
  ];
  const tail = [segment(0xda, [1, 1, 0x00, 0, 63, 0]), Buffer.from(scan.bytes.subarray(0, scan.length)), Buffer.from([0xff, 0xd9])];
  const used = [...header, ...tail].reduce((n, b) => n + b.length, 0);
  return Buffer.concat([...header, ...commentSegments(sizeBytes - used), ...tail]);
}

/** COM segments totalling exactly `bytes` (0 or ≥ 4), each at most 65537 bytes long. */
function commentSegments(bytes: number): Buffer[] {
  const out: Buffer[] = [];
  let left = bytes;
  while (left >= 4) {
    let take = Math.min(left, 65_537);
    if (left - take > 0 && left - take < 4) take -= 4;
    out.push(segment(0xfe, paddingText(take - 4)));
    left -= take;
  }
  return out;
}
