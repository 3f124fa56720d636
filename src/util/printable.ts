/**
 * The one printable path: everything coachbench writes to a terminal (error lines, the
 * closing lines of a run, compare and trend, progress messages, file names) and every
 * report view a terminal may `cat` passes through here, because any of it can quote a
 * target, a report file or a flag, and any of those can hold a terminal escape sequence
 * (docs/design.md §2.10).
 */

/**
 * Control (C0, DEL, C1), format (bidi controls U+202A–U+202E, U+2066–U+2069, U+200E/F,
 * U+061C, zero-width characters), unassigned, private-use and surrogate characters, and the
 * line and paragraph separators.
 */
const INVISIBLE = /[\p{C}\p{Zl}\p{Zp}]/u;

/**
 * What may be invisible: a control, or any character beyond ASCII (a surrogate pair as one),
 * less the characters kept. A plain scan for these is several times faster than a
 * Unicode-property scan over a text that is mostly ASCII (a report.json of megabytes), and
 * INVISIBLE then judges each one found. One pattern per `keep`, made once.
 */
const candidatePatterns = new Map<string, RegExp>();

function candidatesBut(keep: string): RegExp {
  let pattern = candidatePatterns.get(keep);
  if (pattern === undefined) {
    let controls = '';
    for (let code = 0; code < 0x20; code++) if (!keep.includes(String.fromCharCode(code))) controls += `\\u${code.toString(16).padStart(4, '0')}`;
    pattern = new RegExp(`[${controls}\\u007f-\\ud7ff\\ue000-\\uffff]|[\\ud800-\\udbff][\\udc00-\\udfff]?|[\\udc00-\\udfff]`, 'g');
    candidatePatterns.set(keep, pattern);
  }
  return pattern;
}

/** `text` with every invisible character but those in `keep` replaced by `shown(char)`. */
function replaceInvisible(text: string, keep: string, shown: (char: string) => string): string {
  return text.replace(candidatesBut(keep), (char) => (INVISIBLE.test(char) && !keep.includes(char) ? shown(char) : char));
}

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

/**
 * `text` with every invisible character escaped (`\x1b`, `\x0a`, `\u{202e}`), nothing cut,
 * quotes kept, except the characters in `keep` (e.g. `'\n'` for a text of several lines).
 * A field quoted inside a line goes through here with nothing kept, so that it cannot end
 * the line and forge the next one.
 */
export function escapeInvisible(text: string, keep = ''): string {
  return replaceInvisible(text, keep, escapeChar);
}

/**
 * What may be written to stdout or stderr: `text` with its line breaks kept and every other
 * invisible character escaped. Every write to a terminal goes through here
 * (test/architecture/terminal-writes.test.ts holds src/ to it).
 */
export function terminalText(text: string): string {
  return escapeInvisible(text, '\n');
}

/**
 * `value` as JSON a terminal may show (`plan --json`, `cat report.json`): JSON.stringify
 * escapes C0 controls but leaves DEL, C1 and bidi controls raw, so those become `\u`
 * escapes too, which any JSON reader turns back into the same string.
 */
export function printableJson(value: unknown, indent = 2): string {
  return replaceInvisible(JSON.stringify(value, null, indent), '\n', (char) => {
    let out = '';
    for (let i = 0; i < char.length; i++) out += `\\u${char.charCodeAt(i).toString(16).padStart(4, '0')}`;
    return out;
  });
}
