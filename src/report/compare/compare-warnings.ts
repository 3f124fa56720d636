/** Reasons two runs may not be comparable; shown with the comparison, never silently ignored. */

import type { Report } from '../../contract/report.js';
import { METRIC_ROOTS, metricRootObject } from '../../metrics/metric-catalog.js';

/** Durations further apart than this make raw counts (errors, drops) incomparable. */
const DURATION_SPREAD = 0.2;

export function comparabilityWarnings(baseline: Report, candidate: Report): string[] {
  const warnings: string[] = [];
  if (baseline.profile.name !== candidate.profile.name) {
    warnings.push(`different profiles: baseline "${baseline.profile.name}", candidate "${candidate.profile.name}"`);
  }
  const longer = Math.max(baseline.durationMs, candidate.durationMs);
  if (longer > 0 && Math.abs(baseline.durationMs - candidate.durationMs) / longer > DURATION_SPREAD) {
    warnings.push('run durations differ by more than 20 %: counts (errors, drops, violations) are not normalised');
  }
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
