/**
 * Exemplars (docs/metrics.md "Exemplars"): `/metrics` answers OpenMetrics, with the trace id
 * (and the span id, where the request's traceparent had one) of each interval's slowest
 * requests on the histogram buckets they fell in, to a scraper that asks for it, and the
 * Prometheus text format (no exemplars, counters unchanged) to one that does not. Then a real Prometheus (Debian's, `--enable-feature=exemplar-storage`)
 * scrapes a run and its exemplar API returns trace ids report.json lists among the slowest.
 * The Prometheus part is skipped, saying why, only where no Prometheus is installed.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { recordMs } from '../../../src/metrics/histogram.js';
import { MetricSet } from '../../../src/metrics/metric-set.js';
import { CHAT, throughputNames } from '../../../src/metrics/names.js';
import { pointFromInterval } from '../../../src/metrics/timeseries.js';
import { PrometheusOutput } from '../../../src/orchestration/outputs/prometheus-output.js';
import { freePort } from '../../support/free-port.js';
import { quickProfile } from '../../support/profiles.js';
import { HAS_PROMETHEUS, PROMETHEUS_SKIP_NOTE, type RunningPrometheus, startPrometheus } from '../../support/prometheus.js';
import { runProfile } from '../../support/run-helpers.js';

const OPENMETRICS_ACCEPT =
  'application/openmetrics-text;version=1.0.0,application/openmetrics-text;version=0.0.1;q=0.75,text/plain;version=0.0.4;q=0.5,*/*;q=0.1';
const id = (n: number): string => n.toString(16).padStart(32, 'a');
const spanOf = (n: number): string => n.toString(16).padStart(16, 'b');

let prometheus: RunningPrometheus | null = null;

afterAll(async () => {
  await prometheus?.stop();
});

describe('/metrics exemplars', () => {
  it('are in OpenMetrics when asked for, and the Prometheus text format stays as it was', async () => {
    const output = await PrometheusOutput.start('127.0.0.1', 0);
    try {
      output.beginSession({ profileName: 'exemplars' } as Parameters<PrometheusOutput['beginSession']>[0]);
      const interval = new MetricSet();
      const tags = throughputNames('tagLink');
      for (const ms of [3, 4, 5, 180, 900]) recordMs(interval.histogram(tags.latencyUs), ms);
      interval.inc(tags.requests, 5);
      interval.slow('tagLink', id(1), 900, spanOf(1));
      interval.slow('tagLink', id(2), 180);
      recordMs(interval.histogram(CHAT.eventLatencyUs), 42);
      interval.slow('chatStreams.delivery', id(3), 42);
      output.onInterval({
        point: pointFromInterval(interval, 1, 1),
        interval,
        total: interval,
        verdict: () => ({ verdict: 'pass', checks: [], thresholds: [] }),
      });

      const open = await fetch(`${output.url}/metrics`, { headers: { accept: OPENMETRICS_ACCEPT } });
      expect(open.headers.get('content-type')).toBe('application/openmetrics-text; version=1.0.0; charset=utf-8');
      const openText = await open.text();
      expect(openText.endsWith('# EOF\n')).toBe(true);
      expect(openText).toMatch(
        new RegExp(`coachbench_request_duration_seconds_bucket\\{le="1",scenario="tagLink"\\} 5 # \\{trace_id="${id(1)}",span_id="${spanOf(1)}"\\} 0\\.9 \\d`),
      );
      expect(openText).toMatch(
        new RegExp(`coachbench_request_duration_seconds_bucket\\{le="0\\.25",scenario="tagLink"\\} 4 # \\{trace_id="${id(2)}"\\} 0\\.18 \\d`),
      );
      expect(openText).toContain(`# {trace_id="${id(3)}"} 0.042`);

      const plain = await fetch(`${output.url}/metrics`);
      expect(plain.headers.get('content-type')).toBe('text/plain; version=0.0.4; charset=utf-8');
      const plainText = await plain.text();
      expect(plainText).not.toContain('# {');
      expect(plainText).not.toContain('# EOF');
      // prom-client drops `_total` from counter names while rendering OpenMetrics: put back.
      expect(plainText).toMatch(/^# TYPE coachbench_requests_total counter$/m);
      expect(plainText).toMatch(/^coachbench_requests_total\{scenario="tagLink"\} 5$/m);
    } finally {
      await output.close();
    }
  });
});

interface Exemplar {
  labels: Record<string, string>;
  value: string;
}

describe(`a real Prometheus stores the exemplars of a run${PROMETHEUS_SKIP_NOTE}`, () => {
  it.skipIf(!HAS_PROMETHEUS)(
    'and its exemplar API returns trace ids report.json lists among each interval slowest',
    async () => {
      const metricsPort = await freePort();
      prometheus = await startPrometheus(metricsPort, ['--enable-feature=exemplar-storage']);
      const promUrl = prometheus.url;

      const startSec = Date.now() / 1000 - 5;
      const { report } = await runProfile(
        quickProfile({ duration: '8s', tagLink: { enabled: true, model: 'open', ratePerSec: 20 }, generator: { maxEventLoopDelayP99: '2s' } }),
        { metricsPort: String(metricsPort) },
      );
      await new Promise((resolve) => setTimeout(resolve, 1_500));
      const endSec = Date.now() / 1000 + 5;

      const slowest = new Map<string, number>();
      const spans = new Map<string, string | undefined>();
      for (const point of report.timeseries)
        for (const list of Object.values(point.slowest ?? {}))
          for (const slow of list) {
            slowest.set(slow.traceId, slow.latencyMs);
            spans.set(slow.traceId, slow.spanId);
          }
      expect(slowest.size).toBeGreaterThan(10);

      const url = `${promUrl}/api/v1/query_exemplars?query=${encodeURIComponent('{__name__=~"coachbench_(request_duration|event_delivery)_seconds_bucket"}')}&start=${startSec}&end=${endSec}`;
      const body = (await (await fetch(url)).json()) as { status: string; data: Array<{ seriesLabels: Record<string, string>; exemplars: Exemplar[] }> };
      expect(body.status).toBe('success');
      const exemplars = body.data.flatMap((series) => series.exemplars.map((exemplar) => ({ series: series.seriesLabels, exemplar })));
      console.info(`${exemplars.length} exemplars stored; ${slowest.size} slowest trace ids in report.json`);
      expect(exemplars.length).toBeGreaterThan(5);
      expect(new Set(exemplars.map(({ series }) => series.scenario ?? series.__name__))).toEqual(
        new Set(['tagLink', 'coachbench_event_delivery_seconds_bucket']),
      );
      for (const { exemplar } of exemplars) {
        const traceId = exemplar.labels.trace_id ?? '';
        expect(slowest.has(traceId), traceId).toBe(true);
        expect(exemplar.labels.span_id, traceId).toBe(spans.get(traceId));
        // report.json rounds to the µs; the exemplar carries the full value in seconds.
        expect(Math.abs(Number(exemplar.value) * 1_000 - slowest.get(traceId)!)).toBeLessThan(0.002);
      }
    },
    90_000,
  );
});
