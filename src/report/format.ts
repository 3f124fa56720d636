/**
 * Number formatting shared by every renderer, so a figure reads the same in the HTML,
 * the Markdown summary, JUnit and compare. Deterministic (no locale), units always shown.
 */
import type { MetricUnit } from '../metrics/metric-catalog.js';
import { formatBytes } from '../util/bytes.js';

/** `1234567.8` → `1,234,568` (decimals = 0); independent of the machine's locale. */
export function groupThousands(value: number, decimals = 0): string {
  const fixed = Math.abs(value).toFixed(decimals);
  const [whole = '0', fraction] = fixed.split('.');
  const grouped = whole.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  const sign = value < 0 && Number(fixed) !== 0 ? '-' : '';
  return `${sign}${grouped}${fraction === undefined ? '' : `.${fraction}`}`;
}

/** Keeps about three significant digits for small values, whole units for large ones. */
function adaptive(value: number): string {
  const magnitude = Math.abs(value);
  if (magnitude === 0) return '0';
  if (magnitude < 1) return value.toFixed(3);
  if (magnitude < 10) return value.toFixed(2);
  if (magnitude < 100) return value.toFixed(1);
  return groupThousands(value);
}

export function formatMs(ms: number): string {
  return `${adaptive(ms)} ms`;
}

export function formatCount(value: number): string {
  return Number.isInteger(value) ? groupThousands(value) : String(Number(value.toPrecision(4)));
}

/** A fraction as percent: 0.0011 → `0.110 %`. */
export function formatRatio(ratio: number): string {
  return `${adaptive(ratio * 100)} %`;
}

/** Memory in the views' style (`util/bytes.ts`, the one byte formatter). */
export const formatMemory = (bytes: number): string => formatBytes(bytes, 'memory');

export function formatSeconds(seconds: number): string {
  return `${adaptive(seconds)} s`;
}

/** Formats a value of a catalog unit; null (absent or no data) prints as an em dash. */
export function formatValue(value: number | null, unit: MetricUnit): string {
  if (value === null || !Number.isFinite(value)) return '—';
  switch (unit) {
    case 'ms':
      return formatMs(value);
    case 'count':
      return formatCount(value);
    case 'ratio':
      return formatRatio(value);
    case 'perSec':
      return `${adaptive(value)}/s`;
    case 'percent':
      return `${adaptive(value)} %`;
    case 'bytes':
      return formatMemory(value);
    case 'flag':
      return value === 0 ? 'no' : 'yes';
    case 'seconds':
      return formatSeconds(value);
  }
}

/** A rate of named things: `112 events/s`. */
export function formatRate(perSec: number, noun: string): string {
  return `${adaptive(perSec)} ${noun}/s`;
}

/** A signed relative change: 0.253 → `+25.3 %`; null (zero baseline) → `new`. */
export function formatChange(relative: number | null): string {
  if (relative === null) return 'new';
  if (relative === 0) return '0 %';
  const sign = relative > 0 ? '+' : '-';
  return `${sign}${adaptive(Math.abs(relative) * 100)} %`;
}

/** `{a: 1, b: 2}` → `a 1 · b 2`, largest first; `none` when empty. */
export function formatCounts(counts: Readonly<Record<string, number>>): string {
  const entries = Object.entries(counts).sort((x, y) => y[1] - x[1] || x[0].localeCompare(y[0]));
  return entries.length === 0 ? 'none' : entries.map(([key, value]) => `${key} ${formatCount(value)}`).join(' · ');
}

/** A check's observed value: numbers grouped, strings as given, null as an em dash. */
export function formatObserved(observed: number | string | null): string {
  if (observed === null) return '—';
  return typeof observed === 'number' ? formatCount(observed) : observed;
}
