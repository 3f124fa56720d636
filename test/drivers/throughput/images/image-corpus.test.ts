import { crc32, inflateSync } from 'node:zlib';
import busboy from 'busboy';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildImageCorpus, buildImageCorpusAsync, type CorpusImage, sniffImageFormat } from '../../../../src/drivers/throughput/images/image-corpus.js';
import { JPEG_MIN_BYTES } from '../../../../src/drivers/throughput/images/jpeg-image.js';
import { PNG_MIN_BYTES } from '../../../../src/drivers/throughput/images/png-image.js';
import { WEBP_MIN_BYTES } from '../../../../src/drivers/throughput/images/webp-image.js';
import { defaultPhotoBody, type MultipartBody, overridePhotoBody } from '../../../../src/drivers/throughput/multipart-body.js';
import { startTarget } from '../../../../src/reference-service/start-target.js';
import type { RunningTarget } from '../../../../src/reference-service/target-types.js';

const KiB = 1024;
const SIZES = [16 * KiB, 256 * KiB, 2 * 1024 * KiB];

/** Walks JPEG segments; returns the SOF0 dimensions and the marker list. */
function walkJpeg(bytes: Buffer): { markers: number[]; width: number; height: number } {
  expect(bytes.subarray(0, 2)).toEqual(Buffer.from([0xff, 0xd8]));
  const markers: number[] = [];
  let width = 0;
  let height = 0;
  let at = 2;
  for (;;) {
    expect(bytes[at]).toBe(0xff);
    const marker = bytes[at + 1] as number;
    markers.push(marker);
    const length = bytes.readUInt16BE(at + 2);
    if (marker === 0xc0) {
      height = bytes.readUInt16BE(at + 5);
      width = bytes.readUInt16BE(at + 7);
    }
    at += 2 + length;
    if (marker === 0xda) break;
  }
  // Entropy-coded data: every 0xFF is stuffed (FF 00) up to the final EOI.
  const scan = bytes.subarray(at, bytes.length - 2);
  for (let i = scan.indexOf(0xff); i !== -1; i = scan.indexOf(0xff, i + 2)) expect(scan[i + 1]).toBe(0x00);
  expect(bytes.subarray(bytes.length - 2)).toEqual(Buffer.from([0xff, 0xd9]));
  return { markers, width, height };
}

function walkPng(bytes: Buffer): { types: string[]; width: number; height: number; pixels: Buffer } {
  expect(bytes.subarray(0, 8)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
  const types: string[] = [];
  const idat: Buffer[] = [];
  let width = 0;
  let height = 0;
  for (let at = 8; at < bytes.length; ) {
    const length = bytes.readUInt32BE(at);
    const type = bytes.toString('latin1', at + 4, at + 8);
    const data = bytes.subarray(at + 8, at + 8 + length);
    expect(bytes.readUInt32BE(at + 8 + length)).toBe(crc32(bytes.subarray(at + 4, at + 8 + length)));
    types.push(type);
    if (type === 'IHDR') [width, height] = [data.readUInt32BE(0), data.readUInt32BE(4)];
    if (type === 'IDAT') idat.push(data);
    at += 12 + length;
  }
  return { types, width, height, pixels: inflateSync(Buffer.concat(idat)) };
}

function walkWebp(bytes: Buffer): { fourccs: string[]; canvas: [number, number]; vp8l: [number, number] } {
  expect(bytes.toString('latin1', 0, 4)).toBe('RIFF');
  expect(bytes.readUInt32LE(4)).toBe(bytes.length - 8);
  expect(bytes.toString('latin1', 8, 12)).toBe('WEBP');
  const fourccs: string[] = [];
  let canvas: [number, number] = [0, 0];
  let vp8l: [number, number] = [0, 0];
  for (let at = 12; at < bytes.length; ) {
    const fourcc = bytes.toString('latin1', at, at + 4);
    const size = bytes.readUInt32LE(at + 4);
    const data = bytes.subarray(at + 8, at + 8 + size);
    fourccs.push(fourcc);
    if (fourcc === 'VP8X') canvas = [data.readUIntLE(4, 3) + 1, data.readUIntLE(7, 3) + 1];
    if (fourcc === 'VP8L') {
      expect(data[0]).toBe(0x2f);
      const bits = data.readUInt32LE(1);
      vp8l = [(bits & 0x3fff) + 1, ((bits >>> 14) & 0x3fff) + 1];
    }
    at += 8 + size + (size & 1);
  }
  return { fourccs, canvas, vp8l };
}

describe('image corpus', () => {
  const corpus = buildImageCorpus(['jpeg', 'png', 'webp'], SIZES);

  it.each(corpus.map((image) => [image.fileName, image] as const))('%s has its magic bytes and the exact requested size', (_name, image) => {
    expect(sniffImageFormat(image.bytes)).toBe(image.format);
    expect(image.bytes.length).toBe(image.requestedBytes);
  });

  it('JPEGs are baseline JFIF with tables, a frame, COM padding and a stuffed scan that ends in EOI', () => {
    for (const image of corpus.filter((i) => i.format === 'jpeg')) {
      const { markers, width, height } = walkJpeg(image.bytes);
      expect(markers.slice(0, 5)).toEqual([0xe0, 0xdb, 0xc0, 0xc4, 0xc4]);
      expect(markers.at(-1)).toBe(0xda);
      expect(width % 8).toBe(0);
      expect(height % 8).toBe(0);
      // About one bit per pixel, like a photograph: the scan is most of the file.
      expect((width * height) / 8).toBeGreaterThan(image.bytes.length * 0.5);
    }
  });

  it('PNGs have valid CRCs and an IDAT that inflates to exactly the declared RGB rows', () => {
    for (const image of corpus.filter((i) => i.format === 'png')) {
      const { types, width, height, pixels } = walkPng(image.bytes);
      expect(types[0]).toBe('IHDR');
      expect(types.at(-1)).toBe('IEND');
      expect(types).toContain('IDAT');
      expect(pixels.length).toBe(height * (1 + 3 * width));
      for (let y = 0; y < height; y++) expect(pixels[y * (1 + 3 * width)]).toBe(0);
    }
  });

  it('WebPs are RIFF/WEBP with VP8X, a VP8L of the same dimensions and XMP padding', () => {
    for (const image of corpus.filter((i) => i.format === 'webp')) {
      const { fourccs, canvas, vp8l } = walkWebp(image.bytes);
      expect(fourccs).toEqual(['VP8X', 'VP8L', 'XMP ']);
      expect(vp8l).toEqual(canvas);
    }
  });

  it('is deterministic for a seed and differs between seeds', async () => {
    const again = await buildImageCorpusAsync(['jpeg', 'png', 'webp'], SIZES);
    for (const [i, image] of again.entries()) expect(image.bytes.equals((corpus[i] as CorpusImage).bytes)).toBe(true);
    const other = buildImageCorpus(['png'], [16 * KiB], 2)[0] as CorpusImage;
    expect(other.bytes.equals(corpus[3]?.bytes as Buffer)).toBe(false);
  });

  it('stops building when the run stops, with the images built so far', async () => {
    const stop = new AbortController();
    let built = 0;
    const building = buildImageCorpusAsync(['jpeg', 'png', 'webp'], SIZES, 1, stop.signal).then((images) => {
      built = images.length;
    });
    stop.abort();
    await building;
    expect(built).toBe(0);
    expect((await buildImageCorpusAsync(['jpeg'], SIZES, 1, new AbortController().signal)).length).toBe(SIZES.length);
  });

  it('never makes an image below a format minimum, and rounds WebP to even sizes', () => {
    const tiny = buildImageCorpus(['jpeg', 'png', 'webp'], [10]);
    const minimums = [JPEG_MIN_BYTES, PNG_MIN_BYTES, WEBP_MIN_BYTES];
    tiny.forEach((image, i) => {
      expect(image.bytes.length).toBeGreaterThanOrEqual(minimums[i] as number);
      expect(image.bytes.length).toBeLessThan((minimums[i] as number) + 16);
    });
    expect(tiny.map((i) => sniffImageFormat(i.bytes))).toEqual(['jpeg', 'png', 'webp']);
    const [odd] = buildImageCorpus(['webp'], [20_001]);
    expect(odd?.bytes.length).toBe(20_002);
  });
});

/** Parses a multipart body with busboy (what the reference target uses). */
function parseMultipart(body: MultipartBody): Promise<{ fields: Record<string, string>; files: Record<string, Buffer> }> {
  return new Promise((resolve, reject) => {
    const fields: Record<string, string> = {};
    const files: Record<string, Buffer> = {};
    const parser = busboy({ headers: { 'content-type': body.contentType } });
    parser.on('field', (name, value) => {
      fields[name] = value;
    });
    parser.on('file', (name, stream) => {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        files[name] = Buffer.concat(chunks);
      });
    });
    parser.on('close', () => resolve({ fields, files }));
    parser.on('error', reject);
    parser.end(body.body);
  });
}

describe('multipart bodies', () => {
  const [image] = buildImageCorpus(['jpeg'], [256 * KiB]) as [CorpusImage];

  it('default body carries the image bytes in the `filename` part', async () => {
    const parsed = await parseMultipart(defaultPhotoBody(image));
    expect(Object.keys(parsed.files)).toEqual(['filename']);
    expect(parsed.files.filename?.equals(image.bytes)).toBe(true);
    expect(parsed.fields).toEqual({});
  });

  it('override body names the part in a `name` field sent first, and carries no `filename` part', async () => {
    const body = overridePhotoBody(image);
    const parsed = await parseMultipart(body);
    expect(parsed.fields).toEqual({ name: 'photo' });
    expect(Object.keys(parsed.files)).toEqual(['photo']);
    expect(parsed.files.photo?.equals(image.bytes)).toBe(true);
    expect(body.body.indexOf('name="name"')).toBeLessThan(body.body.indexOf('name="photo"'));
  });
});

describe('the reference target accepts every corpus image', () => {
  let target: RunningTarget;
  beforeAll(async () => {
    target = await startTarget({ participants: 2 });
  });
  afterAll(() => target.close());

  it('in the default part and with the `name` override', async () => {
    const participant = target.fixtures.participants[0];
    if (!participant) throw new Error('target has no participants');
    const statuses: string[] = [];
    for (const image of buildImageCorpus(['jpeg', 'png', 'webp'], SIZES)) {
      for (const body of [defaultPhotoBody(image), overridePhotoBody(image)]) {
        const res = await request(`${target.url}/api/v1/participants/${participant.userId}/profile_photo`, {
          method: 'PATCH',
          headers: { authorization: `Bearer ${participant.token}`, 'x-api-key': target.fixtures.apiKey, 'content-type': body.contentType },
          body: body.body,
        });
        const json = (await res.body.json()) as { photoUrl?: string };
        statuses.push(`${image.fileName}:${res.statusCode}:${json.photoUrl?.split('.').pop()}`);
      }
    }
    const ext = { jpeg: 'jpg', png: 'png', webp: 'webp' } as const;
    const expected = buildImageCorpus(['jpeg', 'png', 'webp'], SIZES).flatMap((i) => [0, 1].map(() => `${i.fileName}:200:${ext[i.format]}`));
    expect(statuses).toEqual(expected);
  });
});
