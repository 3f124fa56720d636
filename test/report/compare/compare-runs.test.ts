/**
 * Issue 5, "Done means": real runs against the embedded reference target. Reports of
 * real runs validate against the schema; compare passes two clean runs against each other
 * and flags the regression of a target with `latency=20`.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import type { Report } from '../../../src/contract/report.js';
import { validateReport } from '../../../src/contract/validate-report.js';
import { compareReports } from '../../../src/report/compare/compare.js';
import { quickProfile } from '../../support/profiles.js';
import { runProfile } from '../../support/run-helpers.js';

const TARGET = { keepAlive: '300ms', participants: 30, sessionsPerParticipant: 2 };
/*
 * Runs here share a small machine with other test files (and, on a CI box, other jobs):
 * two clean 3 s runs' p90 latencies differ by up to ~10 ms from that alone. The 20 ms fault
 * stays well above a 10 ms latency floor (what --floor ms=10 gives a noisy runner); the
 * default 10 % limit and every other floor stay as they are.
 */
const OPTIONS = { maxRegression: 0.1, perMetric: {}, floors: { ms: 10 } };
const ATTEMPTS = 3;

/** A clean run passed its own checks; a run the machine disturbed (late KEEP_ALIVEs) is redone. */
async function cleanRun(profile: Record<string, unknown>): Promise<Report> {
  let report: Report | null = null;
  for (let attempt = 0; attempt < ATTEMPTS && report?.verdict !== 'pass'; attempt += 1) report = (await runProfile(profile)).report;
  if (report?.verdict !== 'pass') throw new Error(`no clean run in ${ATTEMPTS} attempts: the machine is too loaded for this test`);
  return report;
}
/*
 * Opens spread over a second instead of a 0.1 s burst: a burst measures how the driver and
 * the embedded target (one event loop) queue behind each other, which swings with machine load.
 */
const steady = (target: Record<string, unknown> = TARGET): Record<string, unknown> =>
  quickProfile({ target, chatStreams: { participants: 24, rampPerSec: 24, switchEvery: '1500ms', messageRatePerSec: 30, churnRatePerSec: 6 } });

describe('compare on real runs', () => {
  let cleanA: Report;
  let cleanB: Report;
  let slow: Report;

  beforeAll(async () => {
    // A first run JIT-compiles the driver and target code paths; benchmarks discard it.
    await runProfile(steady());
    cleanA = await cleanRun(steady());
    cleanB = await cleanRun(steady());
    slow = (await runProfile(steady({ ...TARGET, faults: ['latency=20'] }))).report;
  }, 180_000);

  it('real reports validate against the schema', () => {
    for (const report of [cleanA, cleanB, slow]) expect(validateReport(JSON.parse(JSON.stringify(report)))).toEqual({ valid: true, errors: [] });
  });

  it('passes two clean runs against each other, both ways', () => {
    expect(compareReports(cleanA, cleanB, OPTIONS).regressions.map((row) => `${row.metric} ${row.baseline} → ${row.candidate}`)).toEqual([]);
    expect(compareReports(cleanB, cleanA, OPTIONS).regressions.map((row) => `${row.metric} ${row.baseline} → ${row.candidate}`)).toEqual([]);
  });

  it('flags the event-latency regression of a target with latency=20', () => {
    const comparison = compareReports(cleanA, slow, OPTIONS);
    const flagged = comparison.regressions.map((row) => row.metric);
    expect(flagged).toContain('chatStreams.eventLatencyMs.p50');
    const p50 = comparison.rows.find((row) => row.metric === 'chatStreams.eventLatencyMs.p50');
    expect(p50?.delta).toBeGreaterThan(15);
  });
});
