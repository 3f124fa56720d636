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

describe('plain progress lines', () => {
  /** The seconds of the lines a non-TTY stream got for points at these interval ends. */
  function linesAt(ends: number[], plainEveryMs: number | null): string[] {
    const stream = new PassThrough();
    let written = '';
    stream.on('data', (chunk: Buffer) => {
      written += chunk.toString();
    });
    const shown = new Progress({
      quiet: false,
      stream: stream as unknown as NodeJS.WriteStream,
      plan,
      streamsPerParticipant: 2,
      durationMs: 30_000,
      plainEveryMs,
    });
    for (const end of ends) shown.update(point(end, 200, 200), new MetricSet());
    return [...written.matchAll(/^\[(\S+)\/30s\]/gm)].map((match) => match[1] ?? '');
  }
  // Interval ends as a run reports them: a second apart, give or take some milliseconds.
  const ends = [1.003, 2.001, 3.001, 4.006, 5.001, 6, 7.002, 7.998, 9.004, 10.001, 11.003];

  it('--progress-every 1s prints a line for every interval, whatever its ends drift', () => {
    expect(linesAt(ends, 1_000)).toEqual(['1s', '2s', '3s', '4s', '5s', '6s', '7s', '8s', '9s', '10s', '11s']);
  });

  it('without a TTY and without the flag, a line every 5 s (docs/design.md §2.2)', () => {
    expect(linesAt(ends, null)).toEqual(['1s', '6s', '11s']);
  });
});
