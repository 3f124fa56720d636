/**
 * Facts every renderer states the same way: check and threshold tallies, the failed items
 * with their observed values, and a threshold's observed value in its metric's unit.
 */

import type { CheckResult, Report, ThresholdResult } from '../contract/report.js';
import { parseThreshold } from '../metrics/thresholds.js';
import { formatDuration } from '../util/duration.js';
import { formatObserved, formatValue } from './format.js';

export interface Tally {
  passed: number;
  failed: number;
  skipped: number;
  total: number;
}

export function checkTally(report: Report): Tally {
  const count = (status: CheckResult['status']): number => report.checks.filter((check) => check.status === status).length;
  return { passed: count('pass'), failed: count('fail'), skipped: count('skip'), total: report.checks.length };
}

export function thresholdTally(report: Report): Tally {
  const failed = report.thresholds.filter((threshold) => threshold.status === 'fail').length;
  return { passed: report.thresholds.length - failed, failed, skipped: 0, total: report.thresholds.length };
}

/** A threshold's observed value with the unit of the metric it names (`—` when absent). */
export function formatThresholdObserved(result: ThresholdResult): string {
  if (result.observed === null) return '— (metric absent or no samples)';
  try {
    return formatValue(result.observed, parseThreshold(result.expression, 'report').metric.unit);
  } catch {
    // A report written by another version may hold an expression this one cannot parse.
    return formatObserved(result.observed);
  }
}

/** One plain-text line per failed check and threshold, in report order (checks first). */
export interface FailedItem {
  kind: 'check' | 'threshold';
  name: string;
  observed: string;
  detail: string;
}

export function failedItems(report: Report): FailedItem[] {
  const checks = report.checks
    .filter((check) => check.status === 'fail')
    .map((check): FailedItem => ({ kind: 'check', name: check.id, observed: formatObserved(check.observed), detail: check.detail }));
  const thresholds = report.thresholds
    .filter((threshold) => threshold.status === 'fail')
    .map((threshold): FailedItem => ({ kind: 'threshold', name: threshold.expression, observed: formatThresholdObserved(threshold), detail: '' }));
  return [...checks, ...thresholds];
}

/** `30.5s`, `1h02m`: the run's length for humans. */
export function runLength(report: Report): string {
  return formatDuration(report.durationMs);
}

/** Short status sentence for titles: `PASS`, `FAIL`, `FAIL (interrupted)`. */
export function verdictWord(report: Report): string {
  const word = report.verdict.toUpperCase();
  return report.interrupted ? `${word} (interrupted)` : word;
}
