/**
 * compare on a candidate that did not drive its planned load (docs/reports.md, compare): its
 * figures describe a lighter load than the baseline's, so "no regression" would be a green
 * over a load that never reached the target. compare says so on stderr and in every output,
 * and `--strict` refuses the comparison. Two real runs against one reference target, whose
 * setup route turns slow between them (a timed fault), so nothing else tells them apart.
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Report } from '../../../src/contract/report.js';
import { startTarget } from '../../../src/reference-service/start-target.js';
import type { RunningTarget } from '../../../src/reference-service/target-types.js';
import { REQUEST_KINDS_ONLY, setupThenGetSession, writeProfile } from '../../support/profiles.js';
import { runCli } from '../../support/run-cli.js';
import { runProfile } from '../../support/run-helpers.js';

/** When the setup route turns slow, after the target starts: the baseline's run is over by then. */
const SLOW_FROM_MS = 7_000;

const PROFILE = {
  name: 'compare-load',
  duration: '3s',
  ...REQUEST_KINDS_ONLY,
  requests: setupThenGetSession({
    model: 'open',
    ratePerSec: 20,
  }),
};

const loadOf = (report: Report) => report.checks.find((check) => check.id === 'load.achieved')!;

describe('compare: a candidate whose setup took most of its run', () => {
  let target: RunningTarget;
  let baseline: string;
  let candidate: string;

  beforeAll(async () => {
    const startedMs = performance.now();
    target = await startTarget({ participants: 10, sessionsPerParticipant: 2, keepAliveMs: 500, faults: [`latency=2500@${SLOW_FROM_MS}ms on POST /tags`] });
    const { dir } = await writeProfile({});
    const fixtures = join(dir, 'fixtures.json');
    await writeFile(fixtures, JSON.stringify(target.fixtures));
    const flags = { target: target.url, fixtures, expectKeepalive: '500ms' };
    const base = await runProfile(PROFILE, flags);
    expect(loadOf(base.report).status, loadOf(base.report).detail).toBe('pass');
    await sleep(Math.max(0, SLOW_FROM_MS + 200 - (performance.now() - startedMs)));
    const cand = await runProfile(PROFILE, flags);
    expect(loadOf(cand.report).status, loadOf(cand.report).detail).toBe('fail');
    baseline = join(base.outDir, 'report.json');
    candidate = join(cand.outDir, 'report.json');
  }, 60_000);
  afterAll(() => target?.close());

  it('warns that the candidate did not drive its planned load', async () => {
    const { stderr, stdout } = await runCli(['compare', baseline, candidate]);
    const warning = /the candidate run did not drive its planned load \(load\.achieved: requests\.getSession started \d+(\.\d)? % of \d+ planned arrivals/;
    expect(stderr).toMatch(new RegExp(`^coachbench compare: warning: ${warning.source}`, 'm'));
    expect(stdout).toMatch(warning);
  });

  it('--strict refuses the comparison: exit 2, one line naming it', async () => {
    const { code, stdout, stderr } = await runCli(['compare', baseline, candidate, '--strict']);
    expect(code).toBe(2);
    expect(stdout).toBe('');
    expect(stderr.trim().split('\n')).toHaveLength(1);
    expect(stderr).toMatch(/^coachbench: --strict: the reports are not comparable: the candidate run did not drive its planned load/);
  });
});
