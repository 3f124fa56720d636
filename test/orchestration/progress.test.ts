import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import type { RunPlan } from '../../src/contract/profile/stage-plan.js';
import type { TimeseriesPoint } from '../../src/contract/report.js';
import { MetricSet } from '../../src/metrics/metric-set.js';
import { Progress } from '../../src/orchestration/progress.js';
import { timeseriesPoint } from '../support/timeseries-point.js';

/** 200 participants ramped over 2 s, then held (each holds a main and a chat stream). */
const plan: RunPlan = {
  durationMs: 30_000,
  scenarios: [
    {
      scenario: 'chatStreams',
      unit: 'participants',
      explicit: false,
      stages: [
        { name: 'ramp', named: false, startMs: 0, endMs: 2_000, from: 0, to: 200 },
        { name: 'hold', named: false, startMs: 2_000, endMs: 30_000, from: 200, to: 200 },
      ],
    },
  ],
  windows: [],
};

const point = (tSec: number, chat: number, main: number): TimeseriesPoint => timeseriesPoint({ tSec, streamsOpen: chat, mainStreamsOpen: main });

const progress = (runPlan: RunPlan): Progress =>
  new Progress({ quiet: false, stream: new PassThrough() as unknown as NodeJS.WriteStream, plan: runPlan, streamsPerParticipant: 2, durationMs: 30_000 });

describe('the progress line', () => {
  it.each([
    ['halfway up the ramp', point(1, 100, 100), 'streams 200/400 (plan 200)'],
    ['held as planned', point(10, 200, 200), 'streams 400/400 (plan 400)'],
    ['a proxy that lets a quarter through', point(20, 92, 92), 'streams 184/400 (plan 400)'],
  ])('%s: open streams beside the plan', (_name, at, expected) => {
    expect(progress(plan).line(at, new MetricSet())).toContain(`  ${expected}  `);
  });

  it('without chat streams says only what is open', () => {
    expect(progress({ ...plan, scenarios: [] }).line(point(5, 0, 0), new MetricSet())).toContain('  streams 0  ');
  });
});
