import { describe, expect, it } from 'vitest';
import { formatDuration, parseDuration } from '../../src/util/duration.js';
import { ConfigError } from '../../src/util/errors.js';

describe('parseDuration', () => {
  it.each([
    ['250ms', 250],
    ['30s', 30_000],
    ['1.5s', 1_500],
    ['5m', 300_000],
    ['2h', 7_200_000],
    ['120', 120],
    [45, 45],
  ])('%s -> %d ms', (input, expected) => {
    expect(parseDuration(input, '--duration')).toBe(expected);
  });

  it.each(['', 'soon', '5d', '-3s', '1s2'])('rejects %j naming the flag', (input) => {
    expect(() => parseDuration(input, '--duration')).toThrow(ConfigError);
    expect(() => parseDuration(input, '--duration')).toThrow(/--duration/);
  });
});

describe('formatDuration', () => {
  it.each([
    [850, '850ms'],
    [12_500, '12.5s'],
    [200_000, '3m20s'],
    [7_500_000, '2h05m'],
  ])('%d ms -> %s', (ms, text) => {
    expect(formatDuration(ms)).toBe(text);
  });
});
