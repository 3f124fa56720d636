import { describe, expect, it } from 'vitest';
import { medianInterval } from '../../bench/lib/median.js';

const oneTo = (n: number) => Array.from({ length: n }, (_, i) => n - i);

describe('where a median lies (the sign test interval)', () => {
  it.each([
    // n, the k-th smallest and largest, the chance the median is between them: 1 − 2 P(Binomial(n, ½) < k)
    [3, 1, 3, 0.75],
    [5, 1, 5, 0.9375],
    [9, 2, 8, 0.9609375],
    [20, 6, 15, 0.9586105346679688],
  ])('of %i values is the %i-th to the %i-th smallest, with %f confidence', (n, low, high, confidence) => {
    expect(medianInterval(oneTo(n))).toEqual({ low, high, confidence });
  });

  it('narrows to the confidence asked for', () => {
    // 1 − 2 P(B ≤ 6) = 0.885 for twenty values: at 85 % the 7th to the 14th.
    expect(medianInterval(oneTo(20), 0.85)).toMatchObject({ low: 7, high: 14 });
  });

  it('has none for no values', () => {
    expect(medianInterval([])).toBeNull();
  });
});
