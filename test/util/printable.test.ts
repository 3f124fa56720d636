import { describe, expect, it } from 'vitest';
import { EXCERPT_CHARS, escapeInvisible, printable, printableJson, terminalText } from '../../src/util/printable.js';

describe('printable', () => {
  it.each([
    ['plain text', 'plain text'],
    ['tab\there', 'tab\\x09here'],
    ['\u001b[31mred', '\\x1b[31mred'],
    ['nul\u0000', 'nul\\x00'],
    ['del\u007f', 'del\\x7f'],
    ['line\nbreak\r', 'line\\x0abreak\\x0d'],
    ['zero\u200bwidth', 'zero\\u{200b}width'],
    ['separator\u2028', 'separator\\u{2028}'],
    ['ünïcödé ✓ 日本', 'ünïcödé ✓ 日本'],
    ['say "hi"', 'say \\"hi\\"'],
  ])('%j -> %j', (input, expected) => {
    expect(printable(input)).toBe(expected);
  });

  it(`cuts at ${EXCERPT_CHARS} characters with an ellipsis`, () => {
    const out = printable('x'.repeat(1_000));
    expect(out).toBe(`${'x'.repeat(EXCERPT_CHARS)}…`);
  });

  it('never cuts an escape in half', () => {
    const out = printable(`${'x'.repeat(EXCERPT_CHARS - 2)}\u0000\u0000`);
    expect(out).toBe(`${'x'.repeat(EXCERPT_CHARS - 2)}…`);
  });

  it('escapes a whole message without cutting it or touching its quotes', () => {
    expect(escapeInvisible(`"${'y'.repeat(500)}"\u0007\u001b[2J`)).toBe(`"${'y'.repeat(500)}"\\x07\\x1b[2J`);
  });
});

/** Every character a terminal or a bidi-aware viewer acts on, and how it must show. */
const HOSTILE_CHARS: [string, string][] = [
  ['\u001b', '\\x1b'],
  ['\u0007', '\\x07'],
  ['\r', '\\x0d'],
  ['\u0000', '\\x00'],
  ['\u007f', '\\x7f'],
  ['\u0085', '\\x85'],
  ['\u009b', '\\x9b'],
  ...['\u202a', '\u202b', '\u202c', '\u202d', '\u202e', '\u2066', '\u2067', '\u2068', '\u2069', '\u200e', '\u200f', '\u061c'].map((char): [string, string] => [
    char,
    `\\u{${char.codePointAt(0)?.toString(16)}}`,
  ]),
];

describe('terminalText', () => {
  it.each(HOSTILE_CHARS)('%j becomes %j', (char, shown) => {
    expect(terminalText(`a${char}b`)).toBe(`a${shown}b`);
  });

  it('keeps line breaks and everything printable, escapes the rest', () => {
    expect(terminalText('FAIL: 1 failed\n  ✗ photo.upload: photoUrl "\u001b[2J\u0007x\u202egpj.exe"\n')).toBe(
      'FAIL: 1 failed\n  ✗ photo.upload: photoUrl "\\x1b[2J\\x07x\\u{202e}gpj.exe"\n',
    );
  });

  it('leaves nothing a terminal would act on', () => {
    const all = Array.from({ length: 0x250 }, (_, code) => String.fromCodePoint(code)).join('') + HOSTILE_CHARS.map(([char]) => char).join('');
    // biome-ignore lint/suspicious/noControlCharactersInRegex: the controls are what must be absent.
    expect(terminalText(all).replace(/\n/g, '')).not.toMatch(/[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/u);
  });
});

describe('escapeInvisible', () => {
  it('escapes a line break too unless asked to keep it', () => {
    expect(escapeInvisible('a\nb\tc')).toBe('a\\x0ab\\x09c');
    expect(escapeInvisible('a\nb\tc', '\t')).toBe('a\\x0ab\tc');
  });
});

describe('printableJson', () => {
  it('writes DEL, C1 and bidi controls as \\u escapes that read back as the same string', () => {
    const value = { name: 'smoke\u001b[2J\u009b31m\u202eevil\u007f', nested: ['\u2066x\u2069', 'plain ✓'], astral: '\u{f0000}' };
    const text = printableJson(value);
    // biome-ignore lint/suspicious/noControlCharactersInRegex: the controls are what must be absent.
    expect(text).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069\u{f0000}]/u);
    expect(text).toContain('\\u009b');
    expect(JSON.parse(text)).toEqual(value);
    expect(printableJson({ a: 1 })).toBe(JSON.stringify({ a: 1 }, null, 2));
  });
});
