/**
 * Metadata text that brings a generated image to its exact size (JPEG COM, PNG tEXt, WebP
 * XMP). Plain printable ASCII: no 0xFF (JPEG markers), no NUL (PNG keyword separator).
 */
const LINE = 'coachbench synthetic test image; padding to the profile-set size. ';

/** Exactly `bytes` bytes of printable ASCII. */
export function paddingText(bytes: number): Buffer {
  const n = Math.max(0, bytes);
  const out = Buffer.alloc(n);
  for (let i = 0; i < n; i += LINE.length) out.write(LINE, i, Math.min(LINE.length, n - i), 'latin1');
  return out;
}

const XMP_HEAD = '<?xpacket begin="" id="W5M0MpCehiHzreSzNTczkc9d"?><x:xmpmeta xmlns:x="adobe:ns:meta/"></x:xmpmeta>';
const XMP_TAIL = '<?xpacket end="w"?>';

/** The smallest XMP packet `xmpPacket` makes. */
export const XMP_MIN_BYTES = XMP_HEAD.length + XMP_TAIL.length;

/**
 * An XMP packet of exactly `bytes` bytes (at least XMP_MIN_BYTES): real XMP writers leave
 * whitespace padding inside the packet for in-place edits, so a padded packet is ordinary.
 */
export function xmpPacket(bytes: number): Buffer {
  const spaces = Math.max(0, bytes - XMP_MIN_BYTES);
  return Buffer.from(XMP_HEAD + ' '.repeat(spaces) + XMP_TAIL, 'latin1');
}
