import { describe, expect, it } from 'vitest';
import type { PlannedStage, RunPlan } from '../../../src/contract/profile/stage-plan.js';
import type { TimeseriesPoint } from '../../../src/contract/report.js';
import {
  judgedWindow,
  judgeStreamSeconds,
  type LoadInputs,
  loadAchieved,
  type RequestLoad,
  stoppedLoadEndMs,
} from '../../../src/metrics/checks/load-achieved.js';
import { timeseriesPoint } from '../../support/timeseries-point.js';

const stage = (name: string, startMs: number, endMs: number, from: number, to: number): PlannedStage => ({ name, named: false, startMs, endMs, from, to });

/** 200 participants ramped over 2 s, held to 30 s (smoke's shape, capped at a 200-participant fixtures file). */
const ramp = [stage('ramp', 0, 2_000, 0, 200), stage('hold', 2_000, 30_000, 200, 200)];

/** One point per second; `held(t)` is the mean streams held in the second ending at t. */
function series(seconds: number, held: (tSec: number) => number): TimeseriesPoint[] {
  return Array.from({ length: seconds }, (_, i) => {
    const tSec = i + 1;
    const streams = held(tSec);
    return timeseriesPoint({ tSec, streamsOpen: Math.ceil(streams / 2), mainStreamsOpen: Math.ceil(streams / 2), streamSeconds: streams });
  });
}

const plan = (stages: PlannedStage[], durationMs = 30_000): RunPlan => ({
  durationMs,
  scenarios: [{ scenario: 'chatStreams', unit: 'participants', explicit: false, stages }],
  windows: [],
});

const inputs = (overrides: Partial<LoadInputs>): LoadInputs => ({
  plan: plan(ramp),
  timeseries: series(30, () => 400),
  warmupMs: 2_000,
  runMs: 30_000,
  streamsPerParticipant: 2,
  requests: [],
  ...overrides,
});

describe('judgedWindow', () => {
  it.each([
    ['after the warm-up and 1 s past the ramp, to the end', ramp, 2_000, 30_000, 30_000, { fromMs: 3_000, toMs: 30_000 }],
    ['a warm-up longer than the ramp rules', ramp, 10_000, 30_000, 30_000, { fromMs: 10_000, toMs: 30_000 }],
    ['a run stopped early ends there', ramp, 0, 12_000, 30_000, { fromMs: 3_000, toMs: 12_000 }],
    ['no ramp from 0 (a step): 1 s after it', [stage('step', 0, 0, 0, 50), stage('hold', 0, 5_000, 50, 50)], 0, 5_000, 5_000, { fromMs: 1_000, toMs: 5_000 }],
    [
      'a quiet start, then a step: 1 s after the step',
      [stage('quiet', 0, 4_000, 0, 0), stage('step', 4_000, 4_000, 0, 50), stage('hold', 4_000, 9_000, 50, 50)],
      0,
      9_000,
      9_000,
      { fromMs: 5_000, toMs: 9_000 },
    ],
    ['a plan starting above 0 has no ramp to forgive', [stage('hold', 0, 5_000, 50, 50)], 0, 5_000, 5_000, { fromMs: 0, toMs: 5_000 }],
    ['too short for that: its last second', [stage('ramp', 0, 120, 0, 6), stage('hold', 120, 2_000, 6, 6)], 0, 2_000, 2_000, { fromMs: 1_000, toMs: 2_000 }],
    ['shorter than a second: all of it', ramp, 0, 800, 800, { fromMs: 0, toMs: 800 }],
    [
      'a ramp split where a lost worker left (scaleStagesFrom): 1 s after its last part',
      [stage('ramp', 0, 1_200, 0, 120), stage('ramp', 1_200, 2_000, 60, 100), stage('hold', 2_000, 30_000, 100, 100)],
      0,
      30_000,
      30_000,
      { fromMs: 3_000, toMs: 30_000 },
    ],
  ])('%s', (_name, stages, warmupMs, runMs, planMs, expected) => {
    expect(judgedWindow(stages, warmupMs, runMs, planMs)).toEqual(expected);
  });
});

describe('judgeStreamSeconds', () => {
  it('compares the seconds held with the plan over the same intervals', () => {
    const judged = judgeStreamSeconds(
      series(30, () => 400),
      ramp,
      2,
      { fromMs: 3_000, toMs: 30_000 },
    )!;
    expect(judged.held).toBeCloseTo(27 * 400, 6);
    expect(judged.planned).toBeCloseTo(27 * 400, 6);
    expect(judged.heldAtEnd).toBe(400);
    expect(judged.plannedAtEnd).toBe(400);
  });

  it('a proxy that lets fewer and fewer through: held falls, the end says where', () => {
    const judged = judgeStreamSeconds(
      series(30, (t) => Math.max(184, 400 - 10 * t)),
      ramp,
      2,
      { fromMs: 3_000, toMs: 30_000 },
    )!;
    expect(judged.held / judged.planned).toBeLessThan(0.7);
    expect(judged.heldAtEnd).toBe(184);
  });

  it('an interval straddling the window start is left out (it holds the ramp), the last is cut at the end', () => {
    // Late ticks: intervals (0, 1.4], (1.4, 2.4], (2.4, 3.4]; the run ended at 3.0 s.
    const points = series(3, () => 10).map((p, i) => ({ ...p, tSec: 1.4 + i, intervalSec: 1 }));
    points[0] = { ...points[0]!, intervalSec: 1.4, streamSeconds: 1 };
    const judged = judgeStreamSeconds(points, [stage('hold', 0, 3_000, 5, 5)], 2, { fromMs: 1_000, toMs: 3_000 })!;
    expect(judged.fromMs).toBeCloseTo(1_400, 6);
    // The cut last interval counts what it held up to its peak (10 streams) over its 0.6 s inside.
    expect(judged.held).toBeCloseTo(10 + 10 * 0.6, 6);
    expect(judged.planned).toBeCloseTo(10 * 1.6, 6);
  });

  it('a last interval that runs on while the streams close counts its held seconds inside the window', () => {
    // 24 streams to the end at 2 s, closed at 2.1 s; the recorder stopped at 2.24 s.
    const points = series(2, () => 24);
    points[1] = { ...points[1]!, tSec: 2.24, intervalSec: 1.24, streamsOpen: 12, mainStreamsOpen: 12, streamSeconds: 24 * 1.1 };
    const judged = judgeStreamSeconds(points, [stage('hold', 0, 2_000, 12, 12)], 2, { fromMs: 1_000, toMs: 2_000 })!;
    expect(judged.held / judged.planned).toBeCloseTo(1, 6);
  });

  it('judges each second once where merged points overlap (workers whose intervals differ in length)', () => {
    // Two workers' intervals merged side by side: each point spans the longer one, 1.3 s.
    const points = series(4, () => 10).map((p) => ({ ...p, intervalSec: 1.3, streamSeconds: 13 }));
    const judged = judgeStreamSeconds(points, [stage('hold', 0, 4_000, 5, 5)], 2, { fromMs: 0, toMs: 4_000 })!;
    // The first point straddles the window's start and is left out; the rest cover 0.7 s to 4 s once.
    expect(judged.planned).toBeCloseTo(10 * 3.3, 6);
    expect(judged.held / judged.planned).toBeCloseTo(1, 6);
  });

  it('reads the plan at the end over the same last interval as the streams held, not at its last instant', () => {
    // A ramp down to nothing over the last 2 s, held exactly: 16 streams at 28 s, 8 at 29 s, 0 at 30 s.
    const stages = [stage('hold', 0, 28_000, 8, 8), stage('down', 28_000, 30_000, 8, 0)];
    const points = series(30, (t) => (t <= 28 ? 16 : 8));
    points[29] = { ...points[29]!, streamsOpen: 4, mainStreamsOpen: 4, streamSeconds: 4 };
    const judged = judgeStreamSeconds(points, stages, 2, { fromMs: 3_000, toMs: 30_000 })!;
    // The last second held 4 streams on the mean, as planned: not "4 of 0".
    expect(judged.heldAtEnd).toBeCloseTo(4, 6);
    expect(judged.plannedAtEnd).toBeCloseTo(4, 6);
  });

  it('is null for a report older than stream-second counting', () => {
    const old = series(5, () => 4).map(({ streamSeconds: _, ...rest }) => rest);
    expect(judgeStreamSeconds(old, ramp, 2, { fromMs: 0, toMs: 5_000 })).toBeNull();
  });
});

const open = (planned: number, started: number, late: number, dropped: number): RequestLoad => ({
  scenario: 'photoUpload',
  model: 'open',
  planned,
  started,
  late,
  dropped,
  connections: 0,
  connectionErrors: {},
});

describe('stoppedLoadEndMs', () => {
  // Twelve whole seconds, then the drain after a stop at 12.3 s: 0.5 s with the streams closed.
  const stopped = [...series(12, () => 400), timeseriesPoint({ tSec: 12.8, intervalSec: 0.8, streamSeconds: 120, streamsOpen: 200, mainStreamsOpen: 200 })];

  it('ends a stopped run at the end of the last interval closed before the stop', () => {
    expect(stoppedLoadEndMs(stopped, 12_300, 30_000)).toBe(12_000);
  });

  it('leaves a run that was not stopped at its end, and one stopped inside its first interval at the stop', () => {
    const whole = series(30, () => 400);
    expect(stoppedLoadEndMs(whole, 30_001, 30_000)).toBe(30_001);
    // Its end timer fired a millisecond early: the plan ended it, no stop did.
    expect(stoppedLoadEndMs(whole, 29_999, 30_000)).toBe(29_999);
    expect(stoppedLoadEndMs([timeseriesPoint({ tSec: 1.2, intervalSec: 1.2, streamSeconds: 100 })], 700, 30_000)).toBe(700);
  });

  it('takes the end the driver processes noted: a merged point can end before a stop one of its parts ran past', () => {
    // Two workers' last intervals merged: one closed at 12 s, the other's ran past its stop to 12.4 s; their mean ends at 12.2 s.
    const merged = [...series(11, () => 400), timeseriesPoint({ tSec: 12.2, intervalSec: 1.2, streamSeconds: 420, streamsOpen: 200, mainStreamsOpen: 200 })];
    expect(stoppedLoadEndMs(merged, 12_300, 30_000)).toBe(12_200);
    expect(stoppedLoadEndMs(merged, 12_300, 30_000, 11_000)).toBe(11_000);
    expect(stoppedLoadEndMs(merged, 700, 30_000, 0)).toBe(700);
  });

  it("ends where that interval's point ends, so no sliver of the drain's next point is judged", () => {
    // The interval closed at 12.0004 s; its point says 12 s (rounded to the ms); the drain's closed no stream.
    const drained = [...series(12, () => 400), timeseriesPoint({ tSec: 12.013, intervalSec: 0.013, streamSeconds: 0, streamsOpen: 0, mainStreamsOpen: 0 })];
    expect(stoppedLoadEndMs(drained, 12_009, 30_000, 12_000.4)).toBe(12_000);
    const result = loadAchieved(inputs({ timeseries: drained, runMs: 12_009, closedBeforeStopMs: 12_000.4 }));
    expect(result.detail).toBe('held 100 % of planned stream-seconds (3,600 of 3,600 from 3 s to 12 s); 400 of 400 streams at the end');
  });

  it('gives the figures at the end of that interval, not of the drain', () => {
    const result = loadAchieved(inputs({ timeseries: stopped, runMs: 12_300 }));
    expect(result.status).toBe('pass');
    expect(result.detail).toBe('held 100 % of planned stream-seconds (3,600 of 3,600 from 3 s to 12 s); 400 of 400 streams at the end');
  });
});

describe('loadAchieved', () => {
  it('passes a run that held its plan, saying so', () => {
    const result = loadAchieved(inputs({}));
    expect(result.status).toBe('pass');
    expect(result.observed).toBe(100);
    expect(result.detail).toBe('held 100 % of planned stream-seconds (10,800 of 10,800 from 3 s to 30 s); 400 of 400 streams at the end');
  });

  it('fails a run whose streams fell short, with planned, achieved and the end', () => {
    const result = loadAchieved(inputs({ timeseries: series(30, (t) => (t <= 5 ? 400 : 184)) }));
    expect(result.status).toBe('fail');
    // Two seconds of 400 after the window opens at 3 s, then 25 of 184.
    expect(result.observed).toBe(50);
    expect(result.detail).toMatch(
      /^held 50 % of planned stream-seconds \(5,400 of 10,800 from 3 s to 30 s\); 184 of 400 streams at the end \(at least 95 % is required\)$/,
    );
  });

  it('names the stage that fell short most', () => {
    const stages = [stage('ramp', 0, 2_000, 0, 100), stage('steady', 2_000, 20_000, 100, 100), stage('spike', 20_000, 30_000, 400, 400)];
    const result = loadAchieved(inputs({ plan: plan(stages), timeseries: series(30, (t) => (t <= 20 ? 200 : 300)) }));
    expect(result.status).toBe('fail');
    expect(result.detail).toMatch(/least in stage spike \(37\.5 %\)/);
    expect(result.detail).toMatch(/300 of 800 streams at the end/);
  });

  it.each([
    ['every slot started', open(600, 600, 0, 0), 'pass', /^photoUpload started 100 % of 600 planned arrivals \(0 dropped at maxInFlight; 0 started late\)$/],
    ['late slots still arrived: said, not short', open(600, 600, 120, 0), 'pass', /100 % .*; 120 started late\)$/],
    ['a few slots dropped are within 95 %', open(600, 580, 0, 20), 'pass', /96\.7 %/],
    [
      'slots dropped at maxInFlight',
      open(600, 300, 0, 300),
      'fail',
      /photoUpload started 50 % of 600 planned arrivals \(300 dropped at maxInFlight; 0 started late\)/,
    ],
    ['slots never reached (a schedule cut short)', open(600, 400, 0, 0), 'fail', /66\.7 %/],
  ])('open model: %s', (_name, load, status, detail) => {
    const result = loadAchieved(inputs({ plan: { ...plan(ramp), scenarios: [] }, requests: [load] }));
    expect(result.status).toBe(status);
    expect(result.detail).toMatch(detail);
  });

  it('closed model: a connection error is a connection not held', () => {
    const closed: RequestLoad = { ...open(0, 0, 0, 0), scenario: 'tagLink', model: 'closed', connections: 8, connectionErrors: { 'net:ECONNREFUSED': 3 } };
    const failed = loadAchieved(inputs({ plan: { ...plan(ramp), scenarios: [] }, requests: [closed] }));
    expect(failed).toMatchObject({ status: 'fail', observed: 0 });
    expect(failed.detail).toMatch(/tagLink could not hold its 8 closed-model connections: 3 connection errors \(net:ECONNREFUSED: 3\)/);
    const held = loadAchieved(inputs({ plan: { ...plan(ramp), scenarios: [] }, requests: [{ ...closed, started: 120, connectionErrors: {} }] }));
    expect(held).toMatchObject({ status: 'pass', observed: 100, detail: 'tagLink held its 8 closed-model connections (120 requests completed)' });
  });

  it('closed model: connections that completed no request drove no load', () => {
    const idle: RequestLoad = { ...open(0, 0, 0, 0), scenario: 'photoUpload', model: 'closed', connections: 4, connectionErrors: {} };
    const result = loadAchieved(inputs({ plan: { ...plan(ramp), scenarios: [] }, requests: [idle] }));
    expect(result).toMatchObject({ status: 'fail', observed: 0 });
    expect(result.detail).toMatch(/photoUpload completed no request on its 4 closed-model connections \(none answered or failed by the end of the run\)/);
  });

  it('each part is judged: streams held, arrivals short', () => {
    const result = loadAchieved(inputs({ requests: [open(600, 300, 0, 300)] }));
    expect(result.status).toBe('fail');
    expect(result.observed).toBe(50);
    expect(result.detail).not.toMatch(/stream-seconds/);
  });

  it('skips only when nothing was planned', () => {
    const result = loadAchieved(inputs({ plan: { ...plan(ramp), scenarios: [] } }));
    expect(result).toMatchObject({ status: 'skip', observed: null });
    expect(result.detail).toMatch(/nothing was planned/);
  });

  it.each([
    ['a window under 10 s is held to 90 %', 5, 92, 'pass'],
    ['a window under 10 s below 90 % fails', 5, 88, 'fail'],
    ['a window of 10 s or more is held to 95 %', 15, 92, 'fail'],
  ])('%s', (_name, seconds, share, status) => {
    const stages = [stage('hold', 0, seconds * 1_000, 10, 10)];
    const result = loadAchieved(
      inputs({ plan: plan(stages, seconds * 1_000), warmupMs: 0, runMs: seconds * 1_000, timeseries: series(seconds, () => (20 * share) / 100) }),
    );
    expect(result.status, result.detail).toBe(status);
    if (status === 'fail') expect(result.detail).toMatch(seconds < 10 ? /at least 90 % is required/ : /at least 95 % is required/);
  });

  it('fails a run that held no stream at all (never a skip)', () => {
    const result = loadAchieved(inputs({ timeseries: series(30, () => 0) }));
    expect(result).toMatchObject({ status: 'fail', observed: 0 });
  });
});
