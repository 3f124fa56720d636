/**
 * What a stream keeps of the target's SSE `id:` and how it is sent back as `Last-Event-ID`
 * (docs/design.md §6, "Bounded event ids"). WHATWG lets an id hold any character but NUL;
 * an HTTP header value holds bytes, and undici refuses a string with a character outside
 * Latin-1 or a control character (`UND_ERR_INVALID_ARG`, before anything is sent). As the
 * WHATWG EventSource does, the id goes back as its UTF-8 bytes (written one byte per
 * character, which is how undici and node:http2 write header strings); an id with a control
 * character (other than tab) or longer than the bound cannot go back at all: the target's
 * fault, and the stream reconnects without it.
 */

/** Longest event id, in UTF-8 bytes, a stream keeps and sends back as Last-Event-ID. */
export const MAX_EVENT_ID_BYTES = 1024;

/** The Last-Event-ID header value for an id, or why there is none. */
export type EventIdHeader = { ok: true; value: string } | { ok: false; reason: string };

const PRINTABLE_ASCII = /^[\x20-\x7e]*$/;
// biome-ignore lint/suspicious/noControlCharactersInRegex: the control characters are what this finds.
const CONTROL = /[\x00-\x08\x0a-\x1f\x7f]/;
/** V8 keeps shorter slices as copies; longer ones would hold the whole chunk they were cut from. */
const SHORTEST_SLICE = 13;

/**
 * The id a stream keeps from an `id:` field: a copy of its own (a slice of the chunk it came in
 * would keep the whole chunk alive), and past the bound only enough of it to show that it is
 * too long, so a target's huge ids cost each stream at most the bound.
 */
export function keptEventId(id: string): string {
  if (id.length < SHORTEST_SLICE) return id;
  const kept = id.length > MAX_EVENT_ID_BYTES ? id.slice(0, MAX_EVENT_ID_BYTES + 1) : id;
  return Buffer.from(kept, 'utf8').toString('utf8');
}

/** The header that resumes after `id`; an empty id is the target's reset (WHATWG: send none), the caller's to check. */
export function lastEventIdHeader(id: string): EventIdHeader {
  if (id.length <= MAX_EVENT_ID_BYTES && PRINTABLE_ASCII.test(id)) return { ok: true, value: id };
  if (CONTROL.test(id)) return { ok: false, reason: 'it holds a control character, which no HTTP header value may carry' };
  const bytes = Buffer.from(id, 'utf8');
  if (bytes.length > MAX_EVENT_ID_BYTES) return { ok: false, reason: `it is longer than ${MAX_EVENT_ID_BYTES} bytes, the bound on a kept event id` };
  return { ok: true, value: bytes.toString('latin1') };
}
