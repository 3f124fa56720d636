import { describe, expect, it } from 'vitest';
import { backoffDelayMs } from '../../src/engine/backoff.js';

describe('backoffDelayMs', () => {
  it.each([
    [0, 1, 250],
    [1, 1, 500],
    [3, 1, 2_000],
    [10, 1, 10_000],
    [1_000, 1, 10_000],
    [3, 0.5, 1_000],
    [3, 0, 0],
  ])('attempt %d with draw %d waits %d ms (base 250 ms, cap 10 s)', (attempt, draw, expected) => {
    expect(backoffDelayMs(attempt, 250, 10_000, draw)).toBe(expected);
  });
});
