/**
 * Facts every renderer states the same way: check and threshold tallies, the failed items
 * with their observed values, and a threshold's observed value in its metric's unit.
 */

import type { CheckId } from '../contract/check-ids.js';
import type { CheckResult, Report, ThresholdResult } from '../contract/report.js';
import { missingEvidence } from '../metrics/checks/verdict.js';
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
  // A sliding-window threshold's value belongs to one window: say which.
  const window = result.window ? ` in the window ${+result.window.fromSec.toFixed(1)}–${+result.window.toSec.toFixed(1)} s` : '';
  try {
    return `${formatValue(result.observed, parseThreshold(result.expression, 'report').metric.unit)}${window}`;
  } catch {
    // A report written by another version may hold an expression this one cannot parse.
    return `${formatObserved(result.observed)}${window}`;
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

/**
 * The core checks the run has no evidence for (why a verdict is `incomplete`), with the
 * reason each was skipped. Empty for a report written before coreChecks existed (1.0.x).
 */
export function checksWithoutEvidence(report: Report): Array<{ id: CheckId; detail: string }> {
  return missingEvidence(report.checks, report.coreChecks ?? []).map((id) => ({
    id,
    detail: report.checks.find((check) => check.id === id)?.detail ?? 'not in this report',
  }));
}

/** `no evidence for stream.keepalive.cadence, tags.link`: what an incomplete verdict lacks. */
export function noEvidenceText(report: Report): string {
  const ids = checksWithoutEvidence(report).map((check) => check.id);
  return `no evidence for ${ids.length > 0 ? ids.join(', ') : 'its core checks'}`;
}

/** Short status sentence for titles: `PASS`, `FAIL`, `INCOMPLETE`, `FAIL (interrupted)`. */
export function verdictWord(report: Report): string {
  const word = report.verdict.toUpperCase();
  if (report.aborted) return `${word} (aborted)`;
  return report.interrupted ? `${word} (interrupted)` : word;
}

/** `--start-at` in words: this run's own start against the plan, or how far apart merged shards started. */
export function startText(report: Report): string | null {
  if (report.shardStarts) {
    const { plannedAt, spreadMs, shards } = report.shardStarts;
    return `${shards.length} shards started within ${spreadMs} ms of each other (planned ${plannedAt})`;
  }
  if (report.start) return `planned ${report.start.plannedAt}, started ${report.start.skewMs >= 0 ? '+' : ''}${report.start.skewMs} ms after`;
  return null;
}
