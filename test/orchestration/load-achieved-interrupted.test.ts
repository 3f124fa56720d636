/**
 * load.achieved on a run stopped by Ctrl-C (docs/design.md §5.4, its Decision on a stopped
 * run): the streams are judged to the last interval closed before the stop, not through the
 * drain after it, so "N of M streams at the end" is what was held and planned over that
 * interval, with one driver process or several. Uploads answered only after 10 s keep every process busy
 * draining for SIGNAL_DRAIN_MS after the signal, its streams already closed: a window that ran
 * on to the process's end would judge that drain, whatever instant the signal hit. Needs
 * dist/ (npm run build).
 */
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Report } from '../../src/contract/report.js';
import { SIGNAL_DRAIN_MS } from '../../src/engine/drain.js';
import { SHORT_WINDOW_MIN_SHARE } from '../../src/metrics/checks/load-achieved.js';
import { progressLines, runBin } from '../support/bin-helpers.js';
import { TIMING_SLACK, writeProfile } from '../support/profiles.js';
import { readRunReport } from '../support/run-report.js';

/** 8 participants, a main and a chat stream each. */
const STREAMS = 16;

let dir: string;
let plateau: string;
let ramping: string;

const profileOf = (name: string, rampPerSec: number): Record<string, unknown> => ({
  name,
  duration: '20s',
  ...TIMING_SLACK,
  target: { keepAlive: '500ms', participants: 8, sessionsPerParticipant: 2, faults: ['latency=10000 on PATCH /participants/{user_id}/profile_photo'] },
  chatStreams: { participants: 8, rampPerSec, switchEvery: '0s', messageRatePerSec: 2, churnRatePerSec: 0 },
  // Uploads still in flight at any stop: every process drains on past its streams, until the drain is cut.
  photoUpload: { enabled: true, model: 'open', ratePerSec: 10, maxInFlight: 200, timeout: '30s', imageSizes: ['2KiB'] },
  tagLink: { enabled: false },
});

beforeAll(async () => {
  ({ path: plateau, dir } = await writeProfile(profileOf('stopped-plateau', 100)));
  // 8 participants at 2/s: the ramp takes 4 s.
  ({ path: ramping } = await writeProfile(profileOf('stopped-ramp', 2)));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

interface Stopped {
  report: Report;
  /** The judged window's end and the figures at the end, from load.achieved's detail. */
  toSec: number;
  held: number;
  planned: number;
  share: number;
}

/** Runs `profile` with `workers` driver processes and sends SIGINT `afterMs` after its `line`th progress line. */
async function stopRun(profile: string, workers: number, line: number, afterMs: number, out: string): Promise<Stopped> {
  let signalled = false;
  const result = await runBin(['run', '--profile', profile, '--workers', String(workers), '--progress-every', '1s', '--out', join(dir, out)], {
    onStderr: (pid, stderr) => {
      if (signalled || progressLines(stderr) < line) return;
      signalled = true;
      setTimeout(() => process.kill(pid, 'SIGINT'), afterMs);
    },
    deadlineMs: 30_000,
  });
  expect(result.killed, result.stderr).toBe(false);
  expect(result.code, result.stderr).toBe(130);
  const report = await readRunReport(join(dir, out));
  expect(report.interrupted).toBe(true);
  const detail = report.checks.find((check) => check.id === 'load.achieved')!.detail;
  const figures = /held (\d+(?:\.\d+)?) % of planned stream-seconds \([^)]* to (\d+(?:\.\d+)?) s\); (\d+) of (\d+) streams at the end/.exec(detail);
  expect(figures, detail).not.toBeNull();
  const [, share, toSec, held, planned] = figures!.map(Number);
  return { report, toSec: toSec!, held: held!, planned: planned!, share: share! };
}

/**
 * The window ends at the end of the last interval before the stop (a whole second), not after
 * the drain, which ran SIGNAL_DRAIN_MS on with the streams closed.
 */
function expectJudgedToTheStop(stopped: Stopped): void {
  const to = `judged to ${stopped.toSec} s of a run that ended at ${stopped.report.durationMs} ms`;
  expect(stopped.toSec * 1_000, to).toBeLessThan(stopped.report.durationMs - SIGNAL_DRAIN_MS / 2);
  expect(Number.isInteger(stopped.toSec), to).toBe(true);
}

describe('load.achieved, a run stopped by SIGINT', () => {
  it.each([
    { workers: 2, moment: 'just after an interval boundary', afterMs: 0 },
    { workers: 2, moment: 'mid-interval', afterMs: 500 },
    { workers: 1, moment: 'mid-interval', afterMs: 500 },
  ])('--workers $workers, stopped $moment: every stream held at the end, as planned', async ({ workers, afterMs }) => {
    // The third progress line: the ramp long settled, every stream open.
    const stopped = await stopRun(plateau, workers, 3, afterMs, `plateau-${workers}-${afterMs}`);
    expectJudgedToTheStop(stopped);
    expect({ held: stopped.held, planned: stopped.planned }).toEqual({ held: STREAMS, planned: STREAMS });
    expect(stopped.share).toBeGreaterThanOrEqual(SHORT_WINDOW_MIN_SHARE * 100);
  }, 60_000);

  it('--workers 2, stopped during the ramp: the plan at the end is the ramp part-way, and the streams held follow it', async () => {
    // 300 ms after the second progress line: every process is past 2 s of its clock, none at 3 s.
    const stopped = await stopRun(ramping, 2, 2, 300, 'ramp');
    expectJudgedToTheStop(stopped);
    expect(stopped.toSec).toBe(2);
    // The plan over the last interval, 1 s to 2 s: 2 participants/s, 2 streams each, 3 participants on the mean.
    expect(stopped.planned).toBe(6);
    // Each process opens its first participant at its start, half a step ahead of the plan's ramp: up to 2 streams each.
    expect(stopped.held, `${stopped.held} of ${stopped.planned}`).toBeGreaterThanOrEqual(stopped.planned - 1);
    expect(stopped.held, `${stopped.held} of ${stopped.planned}`).toBeLessThanOrEqual(stopped.planned + 4);
  }, 60_000);
});
