/**
 * How deeply a JSON text nests, checked before it is parsed (docs/design.md §2.5): the
 * JSONC parser, the schema validators and the code that walks a report all recurse, so a
 * file of a few hundred thousand `[` would end in "Maximum call stack size exceeded"
 * instead of a line naming the file. No file coachbench writes or documents nests more
 * than a dozen levels.
 */

/** The deepest nesting of objects and arrays any JSON file coachbench reads may have. */
export const MAX_JSON_DEPTH = 64;

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const SLASH = 0x2f;
const STAR = 0x2a;
const OPEN_BRACE = 0x7b;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACE = 0x7d;
const CLOSE_BRACKET = 0x5d;

/** The index just past the string that opens at `start` (a `"`), or the text's end. */
function endOfString(text: string, start: number): number {
  let at = start + 1;
  for (;;) {
    const quote = text.indexOf('"', at);
    if (quote === -1) return text.length;
    let backslashes = 0;
    while (text.charCodeAt(quote - 1 - backslashes) === BACKSLASH) backslashes += 1;
    if (backslashes % 2 === 0) return quote + 1;
    at = quote + 1;
  }
}

/** The index just past the comment that opens at `start` (a `/`), or `start + 1` when none does. */
function endOfComment(text: string, start: number): number {
  const next = text.charCodeAt(start + 1);
  if (next === SLASH) {
    const newline = text.indexOf('\n', start + 2);
    return newline === -1 ? text.length : newline;
  }
  if (next === STAR) {
    const close = text.indexOf('*/', start + 2);
    return close === -1 ? text.length : close + 2;
  }
  return start + 1;
}

/**
 * The offset of the first `{` or `[` that opens level `maxDepth + 1`, or -1 when the text
 * nests no deeper than `maxDepth`. Strings are skipped, and `//` and `/* *\/` comments too
 * (a strict reader refuses a comment when it parses). Works on text that is not valid JSON:
 * the parser names that problem afterwards.
 */
export function tooDeepAt(text: string, maxDepth: number = MAX_JSON_DEPTH): number {
  let depth = 0;
  let at = 0;
  while (at < text.length) {
    const code = text.charCodeAt(at);
    if (code === QUOTE) {
      at = endOfString(text, at);
      continue;
    }
    if (code === SLASH) {
      at = endOfComment(text, at);
      continue;
    }
    if (code === OPEN_BRACE || code === OPEN_BRACKET) {
      depth += 1;
      if (depth > maxDepth) return at;
    } else if ((code === CLOSE_BRACE || code === CLOSE_BRACKET) && depth > 0) {
      depth -= 1;
    }
    at += 1;
  }
  return -1;
}
