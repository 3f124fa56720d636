/**
 * The progress line shows stream open latency (request → headers, p99 since the start) beside
 * delivery latency, so a proxy that holds or queues opens shows while the run goes on.
 */
import { describe, expect, it } from 'vitest';
import type { RunPlan } from '../../src/contract/profile/stage-plan.js';
import { recordMs } from '../../src/metrics/histogram.js';
import { MetricSet } from '../../src/metrics/metric-set.js';
import { CHAT } from '../../src/metrics/names.js';
import { Progress } from '../../src/orchestration/progress.js';
import { timeseriesPoint } from '../support/timeseries-point.js';

const point = timeseriesPoint({ tSec: 5, streamsOpen: 40, mainStreamsOpen: 40, events: 80, eventsPerSec: 80, keepAlives: 80 });

/** 20 participants, each with a main and a chat stream, held for the run. */
const plan: RunPlan = {
  durationMs: 10_000,
  scenarios: [
    {
      scenario: 'chatStreams',
      unit: 'participants',
      explicit: false,
      stages: [{ name: 'hold', named: false, startMs: 0, endMs: 10_000, from: 20, to: 20 }],
    },
  ],
  windows: [],
};
const progress = new Progress({ quiet: false, stream: process.stderr, plan, streamsPerParticipant: 2, durationMs: 10_000 });

describe('the progress line', () => {
  it('says the open latency p99 so far, or "-" before any stream opened', () => {
    const total = new MetricSet();
    expect(progress.line(point, total)).toContain('open p99 -');
    for (let i = 0; i < 99; i++) recordMs(total.histogram(CHAT.openLatencyUs), 5);
    recordMs(total.histogram(CHAT.openLatencyUs), 1_004);
    recordMs(total.histogram(CHAT.openLatencyUs), 1_004);
    expect(progress.line(point, total)).toMatch(/delivery p99 -\s+open p99 100\d\.\dms/);
  });
});
