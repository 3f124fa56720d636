/**
 * buildReport is the report's only author (docs/design.md §0): what a run, a capacity search
 * or a merge knows beside the total goes in as an input and comes out in report.json, and the
 * verdict is judged once, from the checks, thresholds, evidence and the failures no check sees.
 */
import { describe, expect, it } from 'vitest';
import type { CapacityResult, CheckResult, TransportInfo } from '../../src/contract/report.js';
import { validateReport } from '../../src/contract/validate-report.js';
import { MetricSet } from '../../src/metrics/metric-set.js';
import { connectionsName } from '../../src/metrics/names.js';
import { buildReport, type ReportContext } from '../../src/report/build-report.js';
import { loadProfileText } from '../support/profile-text.js';

// No scenario: nothing to measure, no core check, so the verdict alone is pass.
const profile = loadProfileText({ name: 'inputs', duration: '10s', chatStreams: { enabled: false } });

/** A run of that profile. */
function context(extra: Partial<ReportContext> = {}): ReportContext {
  return {
    runId: 'inputs-20260101T000000Z',
    startedAt: new Date('2026-01-01T00:00:00Z'),
    endedAt: new Date('2026-01-01T00:00:10Z'),
    durationMs: 10_000,
    interrupted: false,
    target: { url: 'http://127.0.0.1:1', embedded: false },
    profile,
    keepAlive: { intervalMs: 15_000, toleranceMs: 5_000 },
    shard: null,
    processes: 1,
    rssBytes: 1,
    timeseries: [],
    warnings: [],
    thresholds: [],
    ...extra,
  };
}

const transport: Omit<TransportInfo, 'protocols'> = {
  tls: false,
  insecure: false,
  extraCas: 0,
  clientCertificate: false,
  servername: null,
  proxy: 'none',
  headers: [],
  userAgent: 'coachbench',
  http: '1.1',
};

describe('buildReport', () => {
  it("writes the run's workers, start, transport, labels and trace URL, and the protocols from the total", () => {
    const total = new MetricSet();
    total.inc(connectionsName('streams', 'http/1.1'), 8);
    const workers = [
      { index: 0, participants: 2, counters: { 'chat.opened': 2 } },
      { index: 1, participants: 2, counters: { 'chat.opened': 2 } },
    ];
    const report = buildReport(
      total,
      context({
        workers,
        start: { plannedMs: Date.parse('2026-01-01T00:00:00Z'), actualMs: Date.parse('2026-01-01T00:00:00.012Z') },
        transport,
        labels: { release: '1.2.3' },
        traceUrl: 'https://tempo.example/trace/{traceId}',
      }),
    );
    expect(report.workers).toEqual(workers);
    expect(report.start).toEqual({ plannedAt: '2026-01-01T00:00:00.000Z', actualAt: '2026-01-01T00:00:00.012Z', skewMs: 12 });
    expect(report.transport).toEqual({ ...transport, protocols: { streams: { 'http/1.1': 8 } } });
    expect(report.labels).toEqual({ release: '1.2.3' });
    expect(report.traceUrl).toBe('https://tempo.example/trace/{traceId}');
    expect(validateReport(JSON.parse(JSON.stringify(report)))).toEqual({ valid: true, errors: [] });
    // Absent inputs leave their fields out; so does an empty set of labels.
    const bare = buildReport(new MetricSet(), context({ labels: {} }));
    for (const field of ['workers', 'start', 'transport', 'labels', 'traceUrl', 'capacity', 'shardStarts', 'aborted']) expect(bare).not.toHaveProperty(field);
  });

  it('fails the verdict on what no check sees: an abort, a worker lost under the fail policy, failed shards', () => {
    expect(buildReport(new MetricSet(), context()).verdict).toBe('pass');
    expect(buildReport(new MetricSet(), context({ workerLost: true })).verdict).toBe('fail');
    expect(buildReport(new MetricSet(), context({ shardsFailed: true })).verdict).toBe('fail');
    const aborted = buildReport(
      new MetricSet(),
      context({ aborted: { expression: 'chatStreams.stalled[5s] < 1', atSec: 5, observed: 3, window: { fromSec: 0, toSec: 5 } } }),
    );
    expect([aborted.verdict, aborted.aborted?.atSec]).toEqual(['fail', 5]);
  });

  it("makes a capacity search's report: the search's profile and result, failed when no load held", () => {
    const result: CapacityResult = {
      variable: 'chatStreams.participants',
      loadUnit: 'participants',
      slos: ['chatStreams.stalled < 1'],
      steps: [{ load: 4, pass: false, values: { 'chatStreams.stalled < 1': 2 }, failedChecks: [], reportDir: 'steps/01-4' }],
      maxSustainableLoad: null,
      firstFailingLoad: 4,
      stoppedBecause: 'saturated',
    };
    const search = { ...profile, name: 'the-search' };
    const report = buildReport(new MetricSet(), context({ capacity: { result, profile: search } }));
    expect(report.verdict).toBe('fail');
    expect(report.capacity).toEqual(result);
    expect(report.profile.name).toBe('the-search');
    expect(report.warnings).toContain('the driver saturated before an SLO broke: add --workers or shards and search again');
    const held = buildReport(new MetricSet(), context({ capacity: { result: { ...result, maxSustainableLoad: 4, stoppedBecause: 'max' }, profile: search } }));
    expect(held.verdict).toBe('pass');
    expect(held.warnings).toEqual([]);
  });

  it("fails a merged report's check that any shard failed, saying where, and keeps a shard's saturation", () => {
    const failed: CheckResult = { id: 'errors.problem_json', status: 'fail', observed: 2, detail: '2 answers were not problem+json' };
    const report = buildReport(
      new MetricSet(),
      context({ shardChecks: [{ label: 'shard 1/2', source: 'b/report.json', checks: [failed] }], shardSaturated: true }),
    );
    const problem = report.checks.find((check) => check.id === 'errors.problem_json')!;
    expect(problem.status).toBe('fail');
    expect(problem.detail).toMatch(/^failed in shard 1\/2 \(b\/report\.json\): 2 answers were not problem\+json; the merged data alone read: /);
    expect(report.generator.saturated).toBe(true);
    expect(report.verdict).toBe('fail');
    expect(buildReport(new MetricSet(), context()).checks.find((check) => check.id === 'errors.problem_json')?.status).toBe('skip');
  });
});
