/**
 * OTLP exemplars (docs/metrics.md "Exemplars"): the OTLP output writes the trace and span ids of each
 * interval's slowest traced requests into the latency histograms' data points it pushes, one
 * per bucket, and forgets them once pushed. A run pushing to a real OTLP/HTTP receiver
 * (test/support/otlp-receiver.ts) sends exemplars whose trace ids, span ids and values
 * are those report.json lists among each interval's slowest, stamped with the time each request
 * completed (report.json's `atMs`), not the time of the push.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recordMs } from '../../../src/metrics/histogram.js';
import { MetricSet } from '../../../src/metrics/metric-set.js';
import { CHAT, throughputNames } from '../../../src/metrics/names.js';
import { pointFromInterval } from '../../../src/metrics/timeseries.js';
import { OtlpOutput } from '../../../src/orchestration/outputs/otlp-output.js';
import { attribute, type Exemplar, metricsOf, type OtlpReceiver, startOtlpReceiver } from '../../support/otlp-receiver.js';
import { quickProfile } from '../../support/profiles.js';
import { runProfile } from '../../support/run-helpers.js';

const id = (n: number): string => n.toString(16).padStart(32, 'a');
const span = (n: number): string => n.toString(16).padStart(16, 'b');
const REQUEST_DURATION = 'coachbench_request_duration_seconds';
const DELIVERY = 'coachbench_event_delivery_seconds';

let receiver: OtlpReceiver;

beforeAll(async () => {
  receiver = await startOtlpReceiver();
});

afterAll(async () => {
  delete process.env.OTEL_METRIC_EXPORT_INTERVAL;
  await receiver.close();
});

/** Every exemplar of `metric` in `pushes`, with the `scenario` attribute of its data point. */
function exemplarsOf(pushes: OtlpReceiver['exports'], metric: string): Array<{ scenario: string | undefined; exemplar: Exemplar }> {
  return pushes.flatMap((push) =>
    metricsOf(push.body)
      .filter((m) => m.name === metric)
      .flatMap((m) => m.histogram?.dataPoints ?? [])
      .flatMap((point) => (point.exemplars ?? []).map((exemplar) => ({ scenario: attribute(point, 'scenario'), exemplar }))),
  );
}

describe('OTLP exemplars', () => {
  it('mark the buckets of the slowest traced requests, once per push', async () => {
    const before = receiver.exports.length;
    const warnings: string[] = [];
    // No periodic push within the test: the pushes are close()'s.
    const output = new OtlpOutput(`${receiver.url}/v1/metrics`, (text) => warnings.push(text), { OTEL_METRIC_EXPORT_INTERVAL: '600000' });
    output.beginSession({ profileName: 'exemplars' } as Parameters<OtlpOutput['beginSession']>[0]);
    const interval = new MetricSet();
    const tags = throughputNames('tagLink');
    for (const ms of [3, 4, 5, 180, 900]) recordMs(interval.histogram(tags.latencyUs), ms);
    interval.inc(tags.requests, 5);
    const recordedFromMs = Date.now();
    // id(4) shares the bucket (0.1, 0.25] with the slower id(2), offered after it: a bucket keeps its latest.
    interval.slow('tagLink', id(1), 900, span(1));
    // A slow request kept without a span id (a report from before they were kept) has none.
    interval.slow('tagLink', id(2), 180);
    interval.slow('tagLink', id(4), 120);
    recordMs(interval.histogram(CHAT.eventLatencyUs), 42);
    interval.slow('chatStreams.delivery', id(3), 42, span(3));
    const recordedToMs = Date.now();
    // The interval closes later than its requests completed: the exemplars keep the requests' times.
    await new Promise((resolve) => setTimeout(resolve, 250));
    const offeredMs = Date.now();
    output.onInterval({
      point: pointFromInterval(interval, 1, 1),
      interval,
      total: interval,
      verdict: () => ({ verdict: 'pass', checks: [], thresholds: [] }),
    });
    await output.close();

    expect(warnings).toEqual([]);
    const pushes = receiver.exports.slice(before);
    // close() pushes twice (flush, then shutdown): the exemplars are in the first only.
    expect(pushes).toHaveLength(2);
    expect(pushes.map((push) => push.contentType)).toEqual(['application/json', 'application/json']);
    expect(exemplarsOf(pushes.slice(1), REQUEST_DURATION)).toEqual([]);
    const tagLink = exemplarsOf(pushes, REQUEST_DURATION);
    expect(tagLink.map(({ scenario }) => scenario)).toEqual(['tagLink', 'tagLink']);
    // Bucket order: 0.18 s in (0.1, 0.25], 0.9 s in (0.5, 1].
    expect(tagLink.map(({ exemplar }) => [exemplar.traceId, exemplar.spanId, exemplar.asDouble])).toEqual([
      [id(2), undefined, 0.18],
      [id(1), span(1), 0.9],
    ]);
    for (const { exemplar } of [...tagLink, ...exemplarsOf(pushes, DELIVERY)]) {
      const timeMs = Number(BigInt(exemplar.timeUnixNano ?? '0') / 1_000_000n);
      expect(timeMs).toBeGreaterThanOrEqual(recordedFromMs);
      expect(timeMs).toBeLessThanOrEqual(recordedToMs);
      expect(timeMs).toBeLessThan(offeredMs);
    }
    expect(exemplarsOf(pushes, DELIVERY).map(({ exemplar }) => [exemplar.traceId, exemplar.spanId, exemplar.asDouble])).toEqual([[id(3), span(3), 0.042]]);
  });

  it('of a run are trace ids report.json lists among each interval slowest, with their latencies', async () => {
    process.env.OTEL_METRIC_EXPORT_INTERVAL = '1000';
    const before = receiver.exports.length;
    const { report } = await runProfile(
      quickProfile({ duration: '6s', tagLink: { enabled: true, model: 'open', ratePerSec: 20 }, generator: { maxEventLoopDelayP99: '2s' } }),
      { otlp: receiver.url },
    );
    const pushes = receiver.exports.slice(before);
    expect(pushes.length).toBeGreaterThanOrEqual(3);

    const slowest = new Map<string, { latencyMs: number; spanId: string | undefined; atMs: number | undefined }>();
    for (const point of report.timeseries)
      for (const list of Object.values(point.slowest ?? {}))
        for (const slow of list) slowest.set(slow.traceId, { latencyMs: slow.latencyMs, spanId: slow.spanId, atMs: slow.atMs });
    expect(slowest.size).toBeGreaterThan(10);

    const requests = exemplarsOf(pushes, REQUEST_DURATION);
    const deliveries = exemplarsOf(pushes, DELIVERY);
    console.info(`${requests.length} request and ${deliveries.length} delivery exemplars pushed; ${slowest.size} slowest trace ids in report.json`);
    expect(requests.length).toBeGreaterThan(3);
    expect(deliveries.length).toBeGreaterThan(0);
    expect(new Set(requests.map(({ scenario }) => scenario))).toEqual(new Set(['tagLink']));
    for (const { exemplar } of [...requests, ...deliveries]) {
      const traceId = exemplar.traceId ?? '';
      expect(traceId).toMatch(/^[0-9a-f]{32}$/);
      expect(slowest.has(traceId), traceId).toBe(true);
      // report.json rounds to the µs; the exemplar carries the full value in seconds.
      expect(Math.abs((exemplar.asDouble ?? Number.NaN) * 1_000 - slowest.get(traceId)!.latencyMs)).toBeLessThan(0.002);
      // The span id is the traceparent's parent id the request carried, as report.json keeps it.
      expect(exemplar.spanId).toMatch(/^[0-9a-f]{16}$/);
      expect(exemplar.spanId).toBe(slowest.get(traceId)!.spanId);
      // Its time is when the request completed (or the delivery arrived), as report.json keeps it.
      const atMs = slowest.get(traceId)!.atMs;
      expect(atMs).toBeGreaterThan(Date.parse(report.startedAt));
      expect(exemplar.timeUnixNano).toBe(`${BigInt(atMs!) * 1_000_000n}`);
    }
    // Forgotten once pushed: no trace id is sent twice.
    const ids = [...requests, ...deliveries].map(({ exemplar }) => exemplar.traceId);
    expect(new Set(ids).size).toBe(ids.length);
  }, 60_000);
});
