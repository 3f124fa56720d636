/** The closing lines of a run: verdict, failed items and where the report is. */
import { join } from 'node:path';
import type { RunOutcome } from './run-session.js';

export function describeOutcome({ report, outDir }: RunOutcome): string {
  const failedChecks = report.checks.filter((c) => c.status === 'fail');
  const failedThresholds = report.thresholds.filter((t) => t.status === 'fail');
  const lines = [
    `${report.verdict.toUpperCase()}${report.interrupted ? ' (interrupted)' : ''}: ` +
      `${report.checks.filter((c) => c.status === 'pass').length} checks passed, ${failedChecks.length} failed, ` +
      `${report.checks.filter((c) => c.status === 'skip').length} skipped; ` +
      `${report.thresholds.length - failedThresholds.length}/${report.thresholds.length} thresholds held`,
  ];
  for (const check of failedChecks) lines.push(`  ✗ ${check.id}: ${check.detail}`);
  for (const threshold of failedThresholds) lines.push(`  ✗ ${threshold.expression} (observed ${threshold.observed ?? 'n/a'})`);
  lines.push(`report: ${join(outDir, 'report.json')}`);
  return lines.join('\n');
}
