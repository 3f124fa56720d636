import { describe, expect, it } from 'vitest';
import { EXCERPT_CHARS, escapeInvisible, printable } from '../../src/util/printable.js';

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
