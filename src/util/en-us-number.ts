/**
 * Numbers written as `Intl.NumberFormat('en-US', …)` writes them, without ICU: a process's first
 * Intl service starts ICU, which costs every run CPU for the few numbers it writes this way
 * (histograms.hlog's columns, a check's message, the progress line; docs/benchmarks.md, "A run's
 * fixed cost"). ICU rounds the shortest decimal that reads back as the number, half away from
 * zero — `toFixed` rounds the binary value itself and parts from it at a 5 past the last digit
 * (1.2345 to three decimals) — and groups the integer part by thousands with commas.
 * test/util/en-us-number.test.ts holds the two to the same text.
 */
import { remembered } from './remembered.js';

export interface NumberStyle {
  /** Decimals written at most (`maximumFractionDigits`). */
  maxFractionDigits: number;
  /** Decimals written at least (`minimumFractionDigits`); trailing zeros beyond it are dropped. */
  minFractionDigits: number;
  /** Thousands separated by commas (`useGrouping`). */
  grouping: boolean;
}

const PLAIN_DECIMAL = /^-?\d+(\.\d+)?$/;

/** Intl's formatter per style, for what the plain path does not cover (exponent forms, NaN, ±Infinity). */
const intlFormat = remembered(
  (style: NumberStyle) =>
    new Intl.NumberFormat('en-US', {
      maximumFractionDigits: style.maxFractionDigits,
      minimumFractionDigits: style.minFractionDigits,
      useGrouping: style.grouping,
    }),
);

/** `value` as `Intl.NumberFormat('en-US', style)` writes it. */
export function formatNumber(value: number, style: NumberStyle): string {
  const shortest = String(value);
  if (!PLAIN_DECIMAL.test(shortest)) return intlFormat(style).format(value);
  const digitsAfter = style.maxFractionDigits;
  const negative = shortest.startsWith('-');
  const [whole = '0', fraction = ''] = (negative ? shortest.slice(1) : shortest).split('.');
  // The kept digits as one integer, rounded up when the first dropped digit is 5 or more.
  let kept = `${whole}${fraction.padEnd(digitsAfter, '0').slice(0, digitsAfter)}`;
  if (fraction.length > digitsAfter && fraction.charCodeAt(digitsAfter) >= 0x35) kept = (BigInt(kept) + 1n).toString();
  kept = kept.padStart(digitsAfter + 1, '0');
  const integer = kept.slice(0, kept.length - digitsAfter);
  let decimals = kept.slice(kept.length - digitsAfter);
  while (decimals.length > style.minFractionDigits && decimals.endsWith('0')) decimals = decimals.slice(0, -1);
  const grouped = style.grouping ? integer.replace(/\B(?=(\d{3})+$)/g, ',') : integer;
  const sign = negative || Object.is(value, -0) ? '-' : '';
  return `${sign}${grouped}${decimals === '' ? '' : `.${decimals}`}`;
}
