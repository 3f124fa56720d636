import { describe, expect, it } from 'vitest';
import { openLineBytesAfter } from '../../src/engine/sse-line-bound.js';

const bytes = (text: string): Buffer => Buffer.from(text, 'latin1');

describe('openLineBytesAfter', () => {
  it('carries an unfinished line across chunks and fails it once it passes the bound', () => {
    let open = openLineBytesAfter(bytes('data: 123'), 0, 16);
    expect(open).toBe(9);
    open = openLineBytesAfter(bytes('4567'), open, 16);
    expect(open).toBe(13);
    expect(openLineBytesAfter(bytes('890'), open, 16)).toBe(16);
    expect(openLineBytesAfter(bytes('8901'), open, 16)).toBe(-1);
  });

  it('ends a line at LF, CR or CRLF and counts only what follows the last break', () => {
    expect(openLineBytesAfter(bytes('abc\ndata: x'), 10, 16)).toBe(7);
    expect(openLineBytesAfter(bytes('abc\rdef'), 10, 16)).toBe(3);
    expect(openLineBytesAfter(bytes('abc\r\n\r\n'), 10, 16)).toBe(0);
  });

  it('fails when the line a chunk finishes was already too long with what came before', () => {
    expect(openLineBytesAfter(bytes('abcdefg\nxy'), 10, 16)).toBe(-1);
    expect(openLineBytesAfter(bytes('abcdef\nxy'), 10, 16)).toBe(2);
  });

  it('fails a line that lies wholly inside one chunk when it is longer than the bound', () => {
    const long = `a\n${'x'.repeat(17)}\nb\n`;
    expect(openLineBytesAfter(bytes(long), 0, 16)).toBe(-1);
    const fits = `a\n${'x'.repeat(16)}\r\n${'y'.repeat(16)}\nb`;
    expect(openLineBytesAfter(bytes(fits), 0, 16)).toBe(1);
  });

  it('fails a chunk that leaves open a tail longer than the bound', () => {
    expect(openLineBytesAfter(bytes(`a\n${'x'.repeat(17)}`), 0, 16)).toBe(-1);
  });

  it('counts bytes, not characters: three-byte characters fill the bound three times faster', () => {
    const text = Buffer.from('€€€€€€', 'utf8');
    expect(text.length).toBe(18);
    expect(openLineBytesAfter(text, 0, 16)).toBe(-1);
  });
});
