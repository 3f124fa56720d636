import { describe, expect, it } from 'vitest';
import { latencyMedians } from '../../bench/lib/peers-latency.js';
import { renderPeersSummary } from '../../bench/lib/peers-readme.js';
import { judgeGoals } from '../../bench/lib/peers-table.js';

/** One round's summarised row of bench/open-error.js, as bench/peers.js folds it in. */
const row = (repetition: number, client: string, streams: number, p50: number, p99: number) => ({
  repetition,
  client,
  streams,
  requests: 7_500 - repetition,
  errorVsNginxMs: { p50, p99, p999: p99 + 1 },
  errorVsRulerMs: { p50: p50 - 0.1, p99: p99 - 0.1, p999: p99 },
});

// Three rounds in which one 15 s window of coachbench's caught a mark-compact (round 2).
const rows = [
  row(1, 'floor', 0, 1.1, 2.4),
  row(1, 'coachbench', 0, 0.9, 1.6),
  row(2, 'floor', 0, 1.0, 3.1),
  row(2, 'coachbench', 0, 1.0, 4.2),
  row(3, 'floor', 0, 1.2, 2.2),
  row(3, 'coachbench', 0, 0.8, 1.8),
];

describe('the latency workload over several rounds', () => {
  const medians = latencyMedians(rows);

  it('gives each client the median of each error over its rounds and the p99 of every round', () => {
    const coachbench = medians.find((m) => m.client === 'coachbench');
    expect(coachbench).toMatchObject({
      rounds: 3,
      requests: 7_498,
      errorVsNginxMs: { p50: 0.9, p99: 1.8, p999: 2.8 },
      errorVsNginxP99RangeMs: [1.6, 4.2],
      errorVsRulerMs: { p50: 0.8, p99: 1.7 },
    });
  });

  it("judges the goals from the medians, not from one round's window", () => {
    const goals = judgeGoals({ latency: { ratePerSec: 500, rows, medians } });
    const p99 = goals.find((g) => g.goal === 'latency error p99 vs nginx (ms), 500/s, 0 streams');
    // Two rounds of three under 2 ms and one over: the median is, the rounds do not decide it.
    expect(p99).toMatchObject({ value: 1.8, verdict: 'within its spread', spread: { low: 1.6, high: 4.2, confidence: 0.75 }, beside: 'floor: 2.4 ms' });
    const p50Floor = goals.find((g) => g.goal === "latency error p50 vs the sink / the floor's, 500/s, 0 streams");
    // Each round's ratio by the sink: 0.8 / 1.0, 0.9 / 0.9, 0.7 / 1.1.
    expect(p50Floor).toMatchObject({ value: 0.8, verdict: 'met', spread: { low: 0.64, high: 1 } });
  });

  it('fails the p99 goal when most rounds are over it', () => {
    const slow = rows.map((r) => (r.client === 'coachbench' ? { ...r, errorVsNginxMs: { ...r.errorVsNginxMs, p99: r.errorVsNginxMs.p99 + 1 } } : r));
    const goals = judgeGoals({ latency: { ratePerSec: 500, rows: slow, medians: latencyMedians(slow) } });
    expect(goals.find((g) => g.goal === 'latency error p99 vs nginx (ms), 500/s, 0 streams')).toMatchObject({ value: 2.8, verdict: 'not met' });
  });
});

describe("the README's quote of the peers measurement", () => {
  const medians = latencyMedians(rows);
  const quote = renderPeersSummary({
    measuredWith: { startedAt: '2026-11-26T22:21:00Z', machine: { cpus: 2 } },
    settings: { connections: 16, streams: 2_000, seconds: 10 },
    workloads: {
      latency: { ratePerSec: 500, medians },
      streams: {
        measuredAt: '2026-11-26T20:08:00Z',
        measuredWithSettings: { streams: 5_000 },
        medians: {
          coachbench: { peakRssKiBPerStream: 33.5, cpuUsPerStreamSecond: 18.6 },
          bareClient: { peakRssKiBPerStream: 53.6, cpuUsPerStreamSecond: 19.3 },
        },
      },
    },
  });

  it("quotes each client's median p99 over the rounds, not one round's", () => {
    expect(quote).toContain("| open model, 500/s beside 0 streams: p99 latency − nginx's | +1.8 ms | — | — | +2.4 ms |");
  });

  it('names a carried-over streams workload by the stream count it was measured with', () => {
    expect(quote).toContain('| 5000 SSE streams: peak RSS per stream | 33.5 KiB |');
    expect(quote).not.toContain('2000 SSE streams');
  });
});
