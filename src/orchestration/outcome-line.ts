/**
 * The closing lines of a run: verdict, failed items, the core checks an incomplete run has
 * no evidence for (`INCOMPLETE: no evidence for <checks>`), and where the report is. Every
 * field a target, a profile or a report file wrote is escaped whole (printable.ts), so it
 * can neither move the cursor nor start a line of its own.
 */

import { join } from 'node:path';
import { describeAbort } from '../report/describe-abort.js';
import { checksWithoutEvidence, noEvidenceText } from '../report/report-facts.js';
import { REPORT_JSON_FILE } from '../report/report-views.js';
import { escapeInvisible } from '../util/printable.js';
import type { RunOutcome } from './run-session.js';

/** The lines printed when a run ends. */
export function describeOutcome({ report, outDir }: Pick<RunOutcome, 'exitCode' | 'report' | 'outDir'>): string {
  const failedChecks = report.checks.filter((c) => c.status === 'fail');
  const failedThresholds = report.thresholds.filter((t) => t.status === 'fail');
  const incomplete = report.verdict === 'incomplete';
  const lines = [
    `${report.verdict.toUpperCase()}${report.interrupted ? ' (interrupted)' : ''}${report.aborted ? ` (aborted at ${+report.aborted.atSec.toFixed(1)} s)` : ''}: ` +
      (incomplete ? `${escapeInvisible(noEvidenceText(report))}; ` : '') +
      `${report.checks.filter((c) => c.status === 'pass').length} checks passed, ${failedChecks.length} failed, ` +
      `${report.checks.filter((c) => c.status === 'skip').length} skipped; ` +
      `${report.thresholds.length - failedThresholds.length}/${report.thresholds.length} thresholds held`,
  ];
  if (report.aborted) lines.push(`  ✗ aborted: ${escapeInvisible(describeAbort(report.aborted))}`);
  for (const check of failedChecks) lines.push(`  ✗ ${escapeInvisible(`${check.id}: ${check.detail}`)}`);
  for (const threshold of failedThresholds) lines.push(`  ✗ ${escapeInvisible(threshold.expression)} (observed ${threshold.observed ?? 'n/a'})`);
  if (incomplete) for (const check of checksWithoutEvidence(report)) lines.push(`  ? ${escapeInvisible(`${check.id}: ${check.detail}`)}`);
  lines.push(outDir === null ? 'report: none was written (see the warning above)' : `report: ${escapeInvisible(join(outDir, REPORT_JSON_FILE))}`);
  return lines.join('\n');
}
