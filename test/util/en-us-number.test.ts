/**
 * formatNumber writes what Intl.NumberFormat('en-US') writes without starting ICU: the same
 * rounding (of the shortest decimal, half away from zero, where toFixed rounds the binary value),
 * the same grouping, the same trailing zeros, for the styles a run writes numbers in.
 */
import { describe, expect, it } from 'vitest';
import { formatNumber, type NumberStyle } from '../../src/util/en-us-number.js';
import { seededRandom } from '../../src/util/seeded-random.js';

const STYLES: Record<string, NumberStyle> = {
  "histograms.hlog's columns": { maxFractionDigits: 3, minFractionDigits: 3, grouping: false },
  'whole numbers, grouped': { maxFractionDigits: 0, minFractionDigits: 0, grouping: true },
  'the progress line': { maxFractionDigits: 1, minFractionDigits: 0, grouping: true },
  'one or two decimals, grouped': { maxFractionDigits: 2, minFractionDigits: 1, grouping: true },
};

const TIES = [
  1.2345, 1.0005, 2.0005, 129.1675, 326.2675, 59.8535, 0.9995, 9.9995, 999.9995, 0.0005, -0.0005, -1.2345, 0.5, -0.5, 9.5, 99.95, 999.95, 999_999.5, -999_999.5,
  0.05,
];
const EDGES = [0, -0, 1e-7, -1e-7, 5e-324, 0.1, 1e21, 1.2345678901234566e25, Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY];

function randomValues(seed: number): number[] {
  const next = seededRandom(seed);
  return Array.from({ length: 20_000 }, (_, i) => {
    switch (i % 4) {
      case 0:
        return Math.round(next() * 1e7) / 1e4;
      case 1:
        return (next() - 0.5) * 10 ** Math.floor(next() * 14);
      case 2:
        return Math.round(next() * 1e9) / 2;
      default:
        return Math.round(1_764_000_000_000 + next() * 1e10) / 1_000 + 0.0005;
    }
  });
}

describe('formatNumber', () => {
  for (const [name, style] of Object.entries(STYLES)) {
    it(`writes what Intl.NumberFormat writes: ${name}`, () => {
      const intl = new Intl.NumberFormat('en-US', {
        maximumFractionDigits: style.maxFractionDigits,
        minimumFractionDigits: style.minFractionDigits,
        useGrouping: style.grouping,
      });
      for (const value of [...TIES, ...EDGES, ...randomValues(style.maxFractionDigits + 1)]) {
        expect(formatNumber(value, style), String(value)).toBe(intl.format(value));
      }
    });
  }
});
