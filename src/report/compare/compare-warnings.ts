/**
 * Reasons two runs may not be comparable; shown with the comparison (stderr, the terminal
 * table, Markdown and HTML), never silently ignored. `compare --strict` refuses to compare
 * runs whose setup differs: profile, target or duration, or a run that did not drive its plan.
 */

import type { Report } from '../../contract/report.js';
import { METRIC_ROOTS, metricRootObject } from '../../metrics/metric-catalog.js';
import { formatDuration } from '../../util/duration.js';
import { ConfigError } from '../../util/errors.js';

/** Measured run lengths further apart than this make raw counts (errors, drops) incomparable. */
const DURATION_SPREAD = 0.2;

/**
 * What a run was pointed at. Embedded targets listen on a new port every run, so they are
 * told apart by their faults, not their URL.
 */
function targetOf(report: Report): string {
  const { target } = report;
  if (!target.embedded) return target.url.replace(/\/+$/, '');
  return target.faults?.length ? `the embedded reference target with faults ${target.faults.join(', ')}` : 'the embedded reference target';
}

/** The profile's configured duration (a --duration override included); null in a report that lacks it. */
function configuredDurationMs(report: Report): number | null {
  const value = report.profile.durationMs;
  return typeof value === 'number' ? value : null;
}

/** Differences in what was run (profile, target, duration, a load not driven): `compare --strict` refuses them. */
export function setupDifferences(baseline: Report, candidate: Report): string[] {
  const differences: string[] = [];
  if (baseline.profile.name !== candidate.profile.name) {
    differences.push(`different profiles: baseline "${baseline.profile.name}", candidate "${candidate.profile.name}"`);
  }
  const [baseTarget, candTarget] = [targetOf(baseline), targetOf(candidate)];
  if (baseTarget !== candTarget) differences.push(`different targets: baseline ${baseTarget}, candidate ${candTarget}`);
  const [baseConfigured, candConfigured] = [configuredDurationMs(baseline), configuredDurationMs(candidate)];
  const longer = Math.max(baseline.durationMs, candidate.durationMs);
  const configuredDiffer = baseConfigured !== null && candConfigured !== null && baseConfigured !== candConfigured;
  if (configuredDiffer || (longer > 0 && Math.abs(baseline.durationMs - candidate.durationMs) / longer > DURATION_SPREAD)) {
    differences.push(
      `different durations: baseline ${formatDuration(baseline.durationMs)}, candidate ${formatDuration(candidate.durationMs)}: ` +
        'counts (errors, drops, violations) are not normalised',
    );
  }
  // A run that fell short of its plan measured a lighter load: its figures say nothing of the planned one.
  for (const [name, report] of [
    ['baseline', baseline],
    ['candidate', candidate],
  ] as const) {
    const load = report.checks.find((check) => check.id === 'load.achieved');
    if (load?.status === 'fail') differences.push(`the ${name} run did not drive its planned load (load.achieved: ${load.detail})`);
  }
  return differences;
}

/** `compare --strict`: throws ConfigError (exit 2, one line) when the runs' setup differs. */
export function assertComparable(baseline: Report, candidate: Report): void {
  const differences = setupDifferences(baseline, candidate);
  if (differences.length > 0) throw new ConfigError(`--strict: the reports are not comparable: ${differences.join('; ')}`);
}

export function comparabilityWarnings(baseline: Report, candidate: Report): string[] {
  const warnings = setupDifferences(baseline, candidate);
  for (const [name, report] of [
    ['baseline', baseline],
    ['candidate', candidate],
  ] as const) {
    if (report.generator.saturated) warnings.push(`the ${name} generator was saturated: its latencies include the driver's own delay`);
    if (report.interrupted) warnings.push(`the ${name} run was interrupted`);
  }
  for (const root of METRIC_ROOTS) {
    const inBase = metricRootObject(baseline, root) !== null;
    const inCand = metricRootObject(candidate, root) !== null;
    if (inBase !== inCand) warnings.push(`${root} ran only in the ${inBase ? 'baseline' : 'candidate'}; it is not compared`);
  }
  return warnings;
}
