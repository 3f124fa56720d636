/**
 * Helpers for run-pipeline tests: run a profile (profiles.ts) in-process against the
 * embedded target (or a given --target), and read the outcome.
 */
import { join } from 'node:path';
import type { CheckResult, Report } from '../../src/contract/report.js';
import { executeRun } from '../../src/orchestration/execute-run.js';
import { type RunFlags, resolveRunConfig } from '../../src/orchestration/run-config.js';
import { writeProfile } from './profiles.js';

/** Runs a profile in-process; the report folder must have been written where it was asked. */
export async function runProfile(profile: Record<string, unknown>, flags: RunFlags = {}): Promise<{ report: Report; exitCode: number; outDir: string }> {
  const { path, dir } = await writeProfile(profile);
  const config = await resolveRunConfig({ profile: path, out: join(dir, 'report'), quiet: true, ...flags }, {});
  const outcome = await executeRun(config);
  if (outcome.outDir === null) throw new Error('the run wrote no report');
  return { ...outcome, outDir: outcome.outDir };
}

export function statusOf(report: Report): Record<string, CheckResult['status']> {
  return Object.fromEntries(report.checks.map((c) => [c.id, c.status]));
}

/** Checks and thresholds that did not pass, one line each, for readable assertion failures. */
export function failures(report: Report): string[] {
  const checks = report.checks.filter((c) => c.status === 'fail').map((c) => `${c.id}: ${c.detail}`);
  const thresholds = report.thresholds.filter((t) => t.status === 'fail').map((t) => `${t.expression} (observed ${t.observed})`);
  return [...checks, ...thresholds];
}
