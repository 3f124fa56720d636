/**
 * load.achieved on real runs (docs/design.md §5.4) and what a report says was driven (§2.11):
 * an open-model rate the target is too slow for drops its slots and fails the check; a fixtures
 * file with fewer participants than the profile caps the run, which the console says once and
 * report.json, its plan and every view say after it.
 */
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { peakOf } from '../../src/contract/profile/stage-plan.js';
import { startTarget } from '../../src/reference-service/start-target.js';
import type { RunningTarget } from '../../src/reference-service/target-types.js';
import { runBin } from '../support/bin-helpers.js';
import { profileFile, quickProfile, REQUEST_KINDS_ONLY, setupThenGetSession, writeProfile } from '../support/profiles.js';
import { runProfile } from '../support/run-helpers.js';
import { readRunReport } from '../support/run-report.js';

describe('load.achieved, open model', () => {
  it('fails when slots are dropped at maxInFlight against a slow target, saying planned and achieved', async () => {
    const { report } = await runProfile(
      quickProfile({
        duration: '4s',
        // Every upload answered after 1 s: two places in flight carry about 2 of the 20 asked for each second.
        target: { keepAlive: '500ms', participants: 30, sessionsPerParticipant: 2, faults: ['latency=1000'] },
        chatStreams: { participants: 6, rampPerSec: 200, switchEvery: '0s', messageRatePerSec: 0, churnRatePerSec: 0 },
        photoUpload: { enabled: true, ratePerSec: 20, maxInFlight: 2, imageSizes: ['16KiB'], formats: ['jpeg'] },
        tagLink: { enabled: false },
      }),
    );
    const check = report.checks.find((c) => c.id === 'load.achieved')!;
    expect(check.status, check.detail).toBe('fail');
    expect(check.observed as number).toBeLessThan(50);
    expect(check.detail).toMatch(/^photoUpload started \d+(\.\d)? % of \d+ planned arrivals \((\d+) dropped at maxInFlight; \d+ started late\)/);
    const dropped = Number(/\((\d+) dropped/.exec(check.detail)![1]);
    expect(dropped).toBe(report.scenarios.photoUpload!.droppedSlots);
    expect(dropped).toBeGreaterThan(20);
    // The streams were held: only the rate is named short.
    expect(check.detail).not.toMatch(/stream-seconds/);
    expect(report.verdict).toBe('fail');
  }, 60_000);
});

describe('load.achieved, a scenario slow to get ready', () => {
  it('counts the plan of the time a request kind waited for its setup as never started, past the first second', async () => {
    const { report } = await runProfile({
      name: 'slow-setup',
      duration: '4s',
      // The setup's answer comes 2.5 s into the run: its kind's schedule holds only the 1.5 s left.
      target: { keepAlive: '500ms', participants: 10, sessionsPerParticipant: 2, faults: ['latency=2500 on POST /tags'] },
      ...REQUEST_KINDS_ONLY,
      requests: setupThenGetSession({
        model: 'open',
        ratePerSec: 20,
      }),
    });
    const kind = report.scenarios.requests!.getSession!;
    expect(kind.requests).toBeGreaterThan(0);
    expect(kind.requests).toBeLessThan(40);
    expect(kind.droppedSlots).toBe(0);
    const check = report.checks.find((c) => c.id === 'load.achieved')!;
    expect(check.status, check.detail).toBe('fail');
    // 20/s over 4 s less the first second's grace: about 60 planned, of which the 2.5 s of setup held 30.
    const planned = Number(/of (\d+) planned arrivals/.exec(check.detail)![1]);
    expect(planned).toBeGreaterThanOrEqual(55);
    expect(planned).toBeLessThanOrEqual(60);
    expect(check.detail).toMatch(/; \d+ never started \(due before its schedule began, or as the run stopped\)/);
    expect(report.verdict).toBe('fail');
  }, 30_000);

  it('counts the slots a staged schedule owed while its kind waited for setup, sent in a burst seconds late, as short', async () => {
    const { report } = await runProfile({
      name: 'slow-setup-staged',
      target: { keepAlive: '500ms', participants: 10, sessionsPerParticipant: 2, faults: ['latency=2500 on POST /tags'] },
      ...REQUEST_KINDS_ONLY,
      requests: setupThenGetSession({
        model: 'open',
        maxInFlight: 128,
        // 20/s from the start for 4 s: laid from the run's start, so the 2.5 s of setup leave 50 slots due at once.
        stages: [
          { duration: '0s', target: 20 },
          { duration: '4s', target: 'hold', name: 'flat' },
        ],
      }),
    });
    const kind = report.scenarios.requests!.getSession!;
    expect(kind.droppedSlots).toBe(0);
    expect(kind.lateSlots).toBeGreaterThan(40);
    const check = report.checks.find((c) => c.id === 'load.achieved')!;
    expect(check.status, check.detail).toBe('fail');
    // Due in the first 1.5 s and sent at 2.5 s: about 30 of the 80 planned.
    const overdue = Number(/; (\d+) started more than 1 s late, not on the planned schedule/.exec(check.detail)?.[1]);
    expect(overdue).toBeGreaterThanOrEqual(25);
    expect(overdue).toBeLessThan(kind.lateSlots);
    expect(check.detail).toMatch(/: \d+(\.\d)? % reached it on schedule/);
    expect(report.verdict).toBe('fail');
  }, 30_000);

  it('counts a closed-model kind whose connections opened after its setup as held for the rest of the run only', async () => {
    const { report } = await runProfile({
      name: 'slow-setup-closed',
      duration: '4s',
      target: { keepAlive: '500ms', participants: 10, sessionsPerParticipant: 2, faults: ['latency=2500 on POST /tags'] },
      ...REQUEST_KINDS_ONLY,
      requests: setupThenGetSession({
        model: 'closed',
        connections: 2,
      }),
    });
    expect(report.scenarios.requests!.getSession!.requests).toBeGreaterThan(0);
    const check = report.checks.find((c) => c.id === 'load.achieved')!;
    expect(check.status, check.detail).toBe('fail');
    // Opened 2.5 s into a 4 s run: held for about half of the 3 s past the first second.
    expect(check.detail).toMatch(
      /^requests\.getSession held its 2 closed-model connections \([\d,]+ requests completed, opened 2\.\d s into the run: held for \d+(\.\d)? % of it past its first second\)/,
    );
    expect(check.observed as number).toBeLessThan(60);
    expect(report.verdict).toBe('fail');
  }, 30_000);
});

describe('load.achieved, a target that dies mid-run', () => {
  it('counts the open-model requests refused at the connection as load that never reached the target', async () => {
    const target = await startTarget({ participants: 10, sessionsPerParticipant: 2, keepAliveMs: 500 });
    const { dir } = await writeProfile({});
    const fixtures = join(dir, 'fixtures.json');
    await writeFile(fixtures, JSON.stringify(target.fixtures));
    // Gone 1.5 s into the 4 s run: every upload after that is refused; those before were answered.
    const dies = setTimeout(() => void target.close(), 1_500);
    try {
      const { report, exitCode } = await runProfile(
        {
          name: 'target-dies',
          duration: '4s',
          chatStreams: { enabled: false },
          photoUpload: { enabled: true, ratePerSec: 20, imageSizes: ['2KiB'], formats: ['jpeg'] },
          tagLink: { enabled: false },
          generator: { maxEventLoopDelayP99: '2s' },
        },
        { target: target.url, fixtures, expectKeepalive: '500ms' },
      );
      const photo = report.scenarios.photoUpload!;
      const refused = photo.errorsByKind['net:ECONNREFUSED'] ?? 0;
      expect(refused).toBeGreaterThan(20);
      // What was answered before the target died still passes the upload checks: only the load says it.
      expect(report.checks.find((c) => c.id === 'photo.upload')!.status).toBe('pass');
      const check = report.checks.find((c) => c.id === 'load.achieved')!;
      expect(check.status, check.detail).toBe('fail');
      expect(check.detail).toMatch(
        new RegExp(`; ${refused} never reached the target \\(net:ECONNREFUSED: ${refused}\\): \\d+(\\.\\d)? % reached it on schedule`),
      );
      expect(check.observed as number).toBeLessThan(60);
      expect(report.verdict).toBe('fail');
      expect(exitCode).toBe(1);
    } finally {
      clearTimeout(dies);
      await target.close();
    }
  }, 30_000);
});

describe('load.achieved, closed model', () => {
  it('fails when the connections completed no request: a target that answers nothing drove no load', async () => {
    const { report } = await runProfile(
      quickProfile({
        duration: '1500ms',
        // Every answer held twice as long as the run: the connections open, nothing completes on them.
        target: { keepAlive: '500ms', participants: 30, sessionsPerParticipant: 2, faults: ['latency=3000'] },
        chatStreams: { participants: 4, rampPerSec: 200, switchEvery: '0s', messageRatePerSec: 0, churnRatePerSec: 0 },
        photoUpload: { enabled: true, model: 'closed', connections: 2, timeout: '30s', imageSizes: ['16KiB'], formats: ['jpeg'] },
        tagLink: { enabled: false },
      }),
    );
    expect(report.scenarios.photoUpload!.requests).toBe(0);
    const check = report.checks.find((c) => c.id === 'load.achieved')!;
    expect(check.status, check.detail).toBe('fail');
    expect(check.detail).toMatch(/photoUpload completed no request on its 2 closed-model connections/);
  }, 90_000);
});

describe('a fixtures file with fewer participants than the profile', () => {
  let target: RunningTarget;
  let dir: string;

  beforeAll(async () => {
    target = await startTarget({ participants: 30, sessionsPerParticipant: 2, keepAliveMs: 500 });
    dir = await mkdtemp(join(tmpdir(), 'coachbench-capped-'));
  });
  afterAll(() => target.close());

  it('caps the run: said once on the console, and report.json, its plan and the views say the capped number', async () => {
    const fixtures = join(dir, 'fixtures.json');
    await writeFile(fixtures, JSON.stringify({ ...target.fixtures, participants: target.fixtures.participants.slice(0, 16) }));
    const profile = await profileFile(
      dir,
      'profile',
      quickProfile({
        duration: '3s',
        chatStreams: { participants: 24, rampPerSec: 200, switchEvery: '1500ms', messageRatePerSec: 10, churnRatePerSec: 0 },
        // Thresholds read the participants too: after a warm-up (the totals after it), and over a sliding window (judged live).
        warmup: '500ms',
        thresholds: ['chatStreams.participants == 16', 'chatStreams.participants[1s] == 16'],
      }),
    );
    const out = join(dir, 'report');
    const result = await runBin(['run', '-p', profile, '-t', target.url, '-f', fixtures, '--expect-keepalive', '500ms', '--out', out], {
      env: { COACHBENCH_API_KEY: target.fixtures.apiKey },
    });
    // The cap is under test, not the cadence of a busy machine: the run may pass or fail, never stop short.
    expect([0, 1], result.stderr).toContain(result.code);
    const cap = /the fixtures file holds 16 participants, fewer than the profile's 24: the run holds 16/g;
    expect(result.stderr.match(cap), result.stderr).toHaveLength(1);
    expect(result.stderr).toMatch(/16 participants/);
    expect(result.stderr).toMatch(/streams \d+\/32 \(plan \d+\)/);

    const report = await readRunReport(out);
    expect(report.scenarios.chatStreams!.participants).toBe(16);
    expect(peakOf(report.plan!.scenarios[0]!.stages)).toBe(16);
    // The profile stays as written (shards of one run must still merge); the plan says what was driven.
    expect((report.profile as unknown as { chatStreams: { participants: number } }).chatStreams.participants).toBe(24);
    expect(report.warnings.filter((w) => /fewer than the profile's 24/.test(w))).toHaveLength(1);
    expect(report.thresholds.map((t) => [t.expression, t.observed])).toEqual([
      ['chatStreams.participants == 16', 16],
      ['chatStreams.participants[1s] == 16', 16],
    ]);
    // load.achieved judged the capped plan: 16 participants, 32 streams.
    const load = report.checks.find((c) => c.id === 'load.achieved')!;
    expect(load.detail).toMatch(/; \d+ of 32 streams at the end/);

    const html = await readFile(join(out, 'report.html'), 'utf8');
    expect(html).toMatch(/<dt>Participants<\/dt><dd>16<\/dd>/);
    expect(html).not.toMatch(/<dt>Participants<\/dt><dd>24<\/dd>/);
    const markdown = await readFile(join(out, 'summary.md'), 'utf8');
    expect(markdown).toMatch(/\| 16 participants, peak \d+ open streams \|/);
  }, 60_000);
});
