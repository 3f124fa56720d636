import { describe, expect, it } from 'vitest';
import { ConfigError } from '../../src/util/errors.js';
import { lineAndColumn, parseJsonText } from '../../src/util/json-text.js';

function problem(text: string, jsonc: boolean): string {
  try {
    parseJsonText(text, 'f.json', { jsonc });
    return '';
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return (error as Error).message;
  }
}

describe('parseJsonText', () => {
  it('reads JSONC: line and block comments, trailing commas, a byte-order mark', () => {
    const text = '\uFEFF{\n  // a comment\n  "a": 1, /* another */\n  "b": [1, 2,],\n}\n';
    expect(parseJsonText(text, 'f.json', { jsonc: true })).toEqual({ a: 1, b: [1, 2] });
  });

  it('reads strict JSON, and refuses comments and trailing commas in it', () => {
    expect(parseJsonText('{"a": [1]}', 'f.json', { jsonc: false })).toEqual({ a: [1] });
    expect(problem('{\n  // no\n  "a": 1\n}', false)).toBe('f.json:2:3: not valid JSON: a comment (not allowed here) at "// no\\x0a  \\"a\\": 1\\x0a}"');
    expect(problem('{"a": 1,}', false)).toMatch(/^f\.json:1:9: not valid JSON: expected a property name in double quotes at "}"$/);
  });

  it.each([
    ['{\n  "a": 1\n  "b": 2\n}', /^f\.json:3:3: not valid JSON \(comments and trailing commas are allowed\): expected "," at "\\"b\\": 2/],
    ['{"a": }', /^f\.json:1:7: .*: expected a value at "}"$/],
    ['{"a": 1', /^f\.json:1:8: .*: expected "}" at the end of the file$/],
    ['{"a": "open', /^f\.json:1:7: .*: a string that never ends at "\\"open"$/],
    ['{ /* never closed', /^f\.json:1:3: .*: a comment that never ends/],
    ["{'a': 1}", /^f\.json:1:2: .*: unexpected character at "'a': 1}"$/],
    ['', /^f\.json:1:1: .*: expected a value at the end of the file$/],
    ['{"a": 1} x', /^f\.json:1:10: .*: unexpected character at "x"$/],
  ])('says where and what for %j', (text, message) => {
    expect(problem(text, true)).toMatch(message);
  });

  it('quotes binary input as a short escaped excerpt, never raw bytes', () => {
    const elf = `\u007fELF\u0002\u0001\u0001\u0000${'\u0000'.repeat(500)}`;
    const message = problem(elf, false);
    expect(message).toMatch(/^f\.json:1:1: not valid JSON: unexpected character at "\\x7fELF\\x02\\x01\\x01\\x00/);
    expect(message).not.toMatch(/\p{Cc}/u);
    expect(message.length).toBeLessThan(120);
  });
});

describe('lineAndColumn', () => {
  it.each([
    [0, 1, 1],
    [2, 1, 3],
    [3, 2, 1],
    [5, 2, 3],
    [6, 3, 1],
  ])('offset %d is line %d column %d', (offset, line, column) => {
    expect(lineAndColumn('ab\ncd\nef', offset)).toEqual({ line, column });
  });
});
