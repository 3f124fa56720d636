import { describe, expect, it } from 'vitest';
import { formatDuration, MAX_DURATION_MS, parseDuration } from '../../src/util/duration.js';
import { ConfigError } from '../../src/util/errors.js';

const parse = (text: string | number): number => parseDuration(text, '--duration');

/** The ConfigError message `parse` throws for `text`, or '' when it parses. */
function problem(text: string | number): string {
  try {
    parse(text);
    return '';
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return (error as Error).message;
  }
}

describe('parseDuration', () => {
  it.each<[string | number, number]>([
    ['500ms', 500],
    ['250ms', 250],
    ['30s', 30_000],
    ['1.5s', 1_500],
    ['.5s', 500],
    ['90s', 90_000],
    ['5m', 300_000],
    ['2m30s', 150_000],
    ['2h', 7_200_000],
    ['1h30m', 5_400_000],
    ['1h30m15s', 5_415_000],
    ['1h0m0s250ms', 3_600_250],
    ['1d12h', 129_600_000],
    ['7d', MAX_DURATION_MS],
    ['0s', 0],
    [' 30 s ', 30_000],
    ['1h 30m', 5_400_000],
    ['0.1ms', 0],
    [45, 45],
    [0, 0],
    [MAX_DURATION_MS, MAX_DURATION_MS],
  ])('%j -> %d ms', (input, expected) => {
    expect(parse(input)).toBe(expected);
  });

  it.each<[string | number, RegExp]>([
    ['30', /^--duration: "30" has no unit \(units ms, s, m, h, d; e\.g\. /],
    ['1.5', /"1\.5" has no unit/],
    ['1h30', /^--duration: "1h30": every number needs a unit \(units ms, s, m, h, d/],
    ['1s2', /every number needs a unit/],
    ['30m1h', /^--duration: "30m1h": write the units largest first, each once \(e\.g\. 1h30m\)$/],
    ['1s1s', /largest first, each once/],
    ['', /^--duration: "" is not a duration \(units ms, s, m, h, d/],
    ['   ', /is not a duration/],
    ['soon', /^--duration: "soon" is not a duration/],
    ['-3s', /"-3s" is not a duration/],
    ['1e3s', /"1e3s" is not a duration/],
    ['5w', /"5w" is not a duration/],
    ['ms', /"ms" is not a duration/],
    ['999999999h', /^--duration: "999999999h" is longer than the maximum, 7d$/],
    ['7d1ms', /is longer than the maximum, 7d/],
    ['169h', /is longer than the maximum, 7d/],
    [MAX_DURATION_MS + 1, /^--duration: 604800001 ms is longer than the maximum, 7d$/],
    [-1, /must be a non-negative number, got -1/],
    [Number.NaN, /must be a non-negative number, got NaN/],
    [Number.POSITIVE_INFINITY, /must be a non-negative number/],
  ])('refuses %j with one line naming the flag', (input, message) => {
    const text = problem(input);
    expect(text).toMatch(message);
    expect(text.startsWith('--duration: ')).toBe(true);
    expect(text).not.toContain('\n');
  });

  it('names the profile field it was given, for profile durations', () => {
    expect(() => parseDuration('10', 'quick.json: chatStreams.switchEvery')).toThrow(/^quick\.json: chatStreams\.switchEvery: "10" has no unit/);
  });

  it('reads a bare number as milliseconds only when asked (the latency=MS fault spec)', () => {
    expect(parseDuration('50', '--fault latency=50', { unitless: 'ms' })).toBe(50);
    expect(parseDuration('50ms', '--fault latency=50ms', { unitless: 'ms' })).toBe(50);
    // Only a lone number: inside a compound duration every number still needs its unit.
    expect(() => parseDuration('1s50', '--fault', { unitless: 'ms' })).toThrow(/every number needs a unit/);
  });

  it('quotes hostile input as a short printable excerpt', () => {
    const text = problem(`\u001b[31m${'x'.repeat(200)}`);
    expect(text).toContain('"\\x1b[31mxxx');
    expect(text).not.toContain('\u001b');
    expect(text.length).toBeLessThan(200);
  });

  it('keeps every accepted duration below the setTimeout ceiling', () => {
    expect(MAX_DURATION_MS).toBeLessThan(2 ** 31 - 1);
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
