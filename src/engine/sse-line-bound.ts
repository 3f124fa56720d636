/**
 * The byte count behind the SSE frame bound (docs/design.md §6). eventsource-parser keeps an
 * unfinished line in memory until its end arrives, so a target that never ends a line would
 * grow that buffer without limit; counting the bytes of the open line as chunks arrive lets
 * a stream refuse the line before the decoder and the parser ever hold more than the bound.
 */

const LF = 0x0a;
const CR = 0x0d;

/** Lines end at CR, LF or CRLF (the SSE grammar); a CRLF only adds an empty line, which is harmless here. */
function firstBreak(chunk: Uint8Array, from: number): number {
  const lf = chunk.indexOf(LF, from);
  const cr = chunk.indexOf(CR, from);
  if (lf < 0) return cr;
  return cr < 0 ? lf : Math.min(lf, cr);
}

/**
 * Bytes of the line still open after `chunk`, given `openBytes` of it already seen before;
 * or -1 when a line that the chunk continues, holds or leaves open is longer than `maxBytes`.
 * Allocates nothing; scans the inside of a chunk only when its lines could exceed the bound.
 */
export function openLineBytesAfter(chunk: Uint8Array, openBytes: number, maxBytes: number): number {
  const first = firstBreak(chunk, 0);
  if (first < 0) return openBytes + chunk.length > maxBytes ? -1 : openBytes + chunk.length;
  if (openBytes + first > maxBytes) return -1;
  const last = Math.max(chunk.lastIndexOf(LF), chunk.lastIndexOf(CR));
  if (last - first - 1 > maxBytes) {
    for (let start = first + 1; start < last; ) {
      const end = firstBreak(chunk, start);
      if (end - start > maxBytes) return -1;
      start = end + 1;
    }
  }
  const open = chunk.length - last - 1;
  return open > maxBytes ? -1 : open;
}
