import { describe, expect, it } from 'vitest';
import { escapeMarkdown, escapeXml } from '../../src/report/escape.js';
import { formatChange, formatCount, formatCounts, formatMs, formatObserved, formatValue, groupThousands } from '../../src/report/format.js';

describe('number formatting', () => {
  it.each([
    [0, '0 ms'],
    [0.2154, '0.215 ms'],
    [5.747, '5.75 ms'],
    [31.24, '31.2 ms'],
    [15_041.3, '15,041 ms'],
  ])('formatMs(%d) = %s', (value, text) => {
    expect(formatMs(value)).toBe(text);
  });

  it.each([
    [1_234_567, 0, '1,234,567'],
    [-1_234.5, 1, '-1,234.5'],
    [999, 0, '999'],
    [-0.01, 0, '0'],
  ])('groupThousands(%d, %d) = %s', (value, decimals, text) => {
    expect(groupThousands(value, decimals)).toBe(text);
  });

  it.each([
    [null, 'ms', '—'],
    [Number.NaN, 'ms', '—'],
    [0.00111, 'ratio', '0.111 %'],
    [60, 'perSec', '60.0/s'],
    [23.5, 'percent', '23.5 %'],
    [101_000_000, 'bytes', '96.3 MiB'],
    [1, 'flag', 'yes'],
    [0, 'flag', 'no'],
    [30, 'seconds', '30.0 s'],
    [2_000, 'count', '2,000'],
  ] as const)('formatValue(%s, %s) = %s', (value, unit, text) => {
    expect(formatValue(value, unit)).toBe(text);
  });

  it('formats changes, counts and observed values', () => {
    expect(formatChange(0.253)).toBe('+25.3 %');
    expect(formatChange(-0.05)).toBe('-5.00 %');
    expect(formatChange(null)).toBe('new');
    expect(formatCount(0.00111)).toBe('0.00111');
    expect(formatCounts({ b: 2, a: 2, c: 10 })).toBe('c 10 · a 2 · b 2');
    expect(formatCounts({})).toBe('none');
    expect(formatObserved('200 text/html')).toBe('200 text/html');
    expect(formatObserved(null)).toBe('—');
  });
});

describe('escaping', () => {
  it('escapes markup and quotes for HTML/XML, and replaces characters XML forbids', () => {
    expect(escapeXml(`<a href="x" title='y'>&</a>`)).toBe('&lt;a href=&quot;x&quot; title=&#39;y&#39;&gt;&amp;&lt;/a&gt;');
    expect(escapeXml('bell\u0007 ok\tnew\nline \uD800 lone \u001b[2J\u202e\r')).toBe('bell\\x07 ok\tnew\nline \\u{d800} lone \\x1b[2J\\u{202e}\\x0d');
    expect(escapeXml('emoji 😀 stays')).toBe('emoji 😀 stays');
  });

  it('keeps a Markdown cell on one line with no live syntax or HTML', () => {
    expect(escapeMarkdown('a|b\n<b>*x*</b> [l](u) `c`')).toBe('a\\|b &lt;b&gt;\\*x\\*&lt;/b&gt; \\[l\\]\\(u\\) \\`c\\`');
    // The visible escape's backslash is itself escaped, so a rendered summary shows `\x1b`.
    expect(escapeMarkdown('run\u001b[2J\u0007\u202eok\u009b')).toBe('run\\\\x1b\\[2J\\\\x07\\\\u\\{202e\\}ok\\\\x9b');
  });
});
