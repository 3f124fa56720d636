/**
 * Strict UTF-8 for coachbench's own input files (docs/design.md §2.5). Node's usual decoding
 * turns a bad byte into U+FFFD and carries on, so a fixtures file's damaged `apiKey` would be
 * sent as a different key; here a bad sequence is refused, and its byte offset found.
 */

const strict = new TextDecoder('utf-8', { fatal: true });

/** Where a byte sequence stops being UTF-8. */
export interface Utf8Problem {
  /** Offset of the first byte of the bad sequence. */
  offset: number;
  /** That byte. */
  byte: number;
}

/** The length of the sequence a lead byte announces, with the range its second byte must be in; null for a byte that cannot lead. */
function sequenceOf(lead: number): { length: number; low: number; high: number } | null {
  if (lead >= 0xc2 && lead <= 0xdf) return { length: 2, low: 0x80, high: 0xbf };
  // The narrowed second-byte ranges refuse overlong forms, surrogates and code points above U+10FFFF.
  if (lead === 0xe0) return { length: 3, low: 0xa0, high: 0xbf };
  if (lead === 0xed) return { length: 3, low: 0x80, high: 0x9f };
  if (lead >= 0xe1 && lead <= 0xef) return { length: 3, low: 0x80, high: 0xbf };
  if (lead === 0xf0) return { length: 4, low: 0x90, high: 0xbf };
  if (lead === 0xf4) return { length: 4, low: 0x80, high: 0x8f };
  if (lead >= 0xf1 && lead <= 0xf3) return { length: 4, low: 0x80, high: 0xbf };
  return null;
}

/** The first ill-formed sequence in `bytes` (the Unicode standard's definition, as TextDecoder's), or null. */
export function firstInvalidUtf8(bytes: Uint8Array): Utf8Problem | null {
  let at = 0;
  while (at < bytes.length) {
    const lead = bytes[at] as number;
    if (lead < 0x80) {
      at += 1;
      continue;
    }
    const sequence = sequenceOf(lead);
    if (sequence === null) return { offset: at, byte: lead };
    const second = bytes[at + 1];
    if (second === undefined || second < sequence.low || second > sequence.high) return { offset: at, byte: lead };
    for (let i = 2; i < sequence.length; i++) {
      const next = bytes[at + i];
      if (next === undefined || next < 0x80 || next > 0xbf) return { offset: at, byte: lead };
    }
    at += sequence.length;
  }
  return null;
}

/**
 * `bytes` as text, or the first bad sequence. A leading byte-order mark is dropped. Fast
 * path: the platform's strict decoder; the byte-by-byte scan only runs to say where.
 */
export function decodeUtf8(bytes: Uint8Array): { text: string } | { problem: Utf8Problem } {
  try {
    return { text: strict.decode(bytes) };
  } catch {
    return { problem: firstInvalidUtf8(bytes) ?? { offset: 0, byte: bytes[0] ?? 0 } };
  }
}
