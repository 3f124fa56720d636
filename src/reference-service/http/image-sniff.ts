/** Image type by magic bytes: JPEG, PNG and WebP, the formats the photo endpoint accepts. */

export type ImageKind = 'jpeg' | 'png' | 'webp';

/** Bytes of a part's head that `sniffImage` needs. */
export const SNIFF_BYTES = 12;

const PNG = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

const startsWith = (head: Uint8Array, bytes: readonly number[], at = 0): boolean => bytes.every((b, i) => head[at + i] === b);
const ascii = (text: string): number[] => [...text].map((c) => c.charCodeAt(0));

/** The image type of a part whose first bytes are `head`, or null when it is none of the three. */
export function sniffImage(head: Uint8Array): ImageKind | null {
  if (startsWith(head, [0xff, 0xd8, 0xff])) return 'jpeg';
  if (startsWith(head, PNG)) return 'png';
  if (startsWith(head, ascii('RIFF')) && startsWith(head, ascii('WEBP'), 8)) return 'webp';
  return null;
}
