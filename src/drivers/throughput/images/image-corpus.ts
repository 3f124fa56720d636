/**
 * The upload corpus: one generated image per (format, size) of the profile, made once at
 * scenario start from a fixed seed, so the same profile uploads the same bytes everywhere.
 */
import { setImmediate as yieldToLoop } from 'node:timers/promises';
import { formatBytes } from '../../../util/bytes.js';
import { buildJpeg } from './jpeg-image.js';
import { buildPng } from './png-image.js';
import { buildWebp } from './webp-image.js';

/** The upload formats the reference service accepts by magic bytes (docs/design.md §4). */
export type ImageFormat = 'jpeg' | 'png' | 'webp';

/** One generated image and how it is named in a multipart part. */
export interface CorpusImage {
  format: ImageFormat;
  /** The size the profile asked for; `bytes.length` equals it, except that WebP rounds odd sizes up and sizes below a few hundred bytes (the formats' fixed overhead) come out larger. */
  requestedBytes: number;
  bytes: Buffer;
  mimeType: string;
  /** File name sent in the multipart part, e.g. `photo-16KiB.jpg`. */
  fileName: string;
}

const FORMAT_INFO: Record<ImageFormat, { mimeType: string; extension: string; build: (size: number, seed: number) => Buffer }> = {
  jpeg: { mimeType: 'image/jpeg', extension: 'jpg', build: buildJpeg },
  png: { mimeType: 'image/png', extension: 'png', build: buildPng },
  webp: { mimeType: 'image/webp', extension: 'webp', build: buildWebp },
};

function buildImage(format: ImageFormat, size: number, seed: number): CorpusImage {
  const info = FORMAT_INFO[format];
  return {
    format,
    requestedBytes: size,
    bytes: info.build(size, seed),
    mimeType: info.mimeType,
    fileName: `photo-${formatBytes(size)}.${info.extension}`,
  };
}

// The seed varies per image so that no two images share pixels.
const imageSeed = (seed: number, f: number, s: number): number => seed * 7_919 + f * 101 + s;

/** Generates one image per format × size. */
export function buildImageCorpus(formats: readonly ImageFormat[], sizesBytes: readonly number[], seed = 1): CorpusImage[] {
  return formats.flatMap((format, f) => sizesBytes.map((size, s) => buildImage(format, size, imageSeed(seed, f, s))));
}

/**
 * The same corpus, yielding to the event loop between images: a large JPEG takes a long while
 * to build (docs/benchmarks.md), and the streams this process holds must not see one long stall. A `stop` that aborts
 * ends it early, with the images built so far: a run stopped while it builds ends at once
 * (docs/design.md §2.8).
 */
export async function buildImageCorpusAsync(
  formats: readonly ImageFormat[],
  sizesBytes: readonly number[],
  seed = 1,
  stop?: AbortSignal,
): Promise<CorpusImage[]> {
  const images: CorpusImage[] = [];
  for (const [f, format] of formats.entries()) {
    for (const [s, size] of sizesBytes.entries()) {
      await yieldToLoop();
      if (stop?.aborted) return images;
      images.push(buildImage(format, size, imageSeed(seed, f, s)));
    }
  }
  return images;
}

/** The format a byte stream announces by its magic bytes, as the target decides (415 otherwise). */
export function sniffImageFormat(bytes: Uint8Array): ImageFormat | null {
  if (bytes.length >= 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return 'jpeg';
  const png = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
  if (bytes.length >= 8 && png.every((b, i) => bytes[i] === b)) return 'png';
  const ascii = (from: number, to: number): string => Buffer.from(bytes.subarray(from, to)).toString('latin1');
  if (bytes.length >= 12 && ascii(0, 4) === 'RIFF' && ascii(8, 12) === 'WEBP') return 'webp';
  return null;
}
