/**
 * Bad input is quoted in error lines, and bad input can be anything: a binary file, a
 * terminal escape sequence. Everything quoted, and every error line, goes through here.
 */

/** Control, format, unassigned and private-use characters, and the line and paragraph separators. */
const INVISIBLE = /[\p{C}\p{Zl}\p{Zp}]/u;

/** The longest excerpt of someone's input an error line quotes. */
export const EXCERPT_CHARS = 60;

function escapeChar(char: string): string {
  if (char === '"') return '\\"';
  const code = char.codePointAt(0) ?? 0;
  return code <= 0xff ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u{${code.toString(16)}}`;
}

/**
 * An excerpt of input to quote in "…": every invisible character escaped (`\x1b`, `\x00`,
 * `\u{200b}`) and `"` as `\"`, cut to at most `maxChars` characters with `…` when longer.
 */
export function printable(text: string, maxChars: number = EXCERPT_CHARS): string {
  let out = '';
  for (const char of text) {
    const piece = char === '"' || INVISIBLE.test(char) ? escapeChar(char) : char;
    if (out.length + piece.length > maxChars) return `${out}…`;
    out += piece;
  }
  return out;
}

/** A whole message made safe for a terminal: invisible characters escaped, nothing cut, quotes kept. */
export function escapeInvisible(text: string): string {
  return text.replace(new RegExp(INVISIBLE.source, 'gu'), escapeChar);
}
