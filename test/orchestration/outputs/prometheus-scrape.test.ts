/**
 * `run --metrics-port` end to end with a real Prometheus (Debian's `prometheus` package):
 * Prometheus scrapes a 25 s run against the embedded target every second, and a PromQL query
 * over its HTTP API returns the event count and the stream-seconds report.json holds. Skipped, saying why, only
 * where no Prometheus is installed (.ci/run installs it).
 */
import { afterAll, describe, expect, it } from 'vitest';
import type { Report } from '../../../src/contract/report.js';
import { freePort } from '../../support/free-port.js';
import { quickProfile } from '../../support/profiles.js';
import { HAS_PROMETHEUS, PROMETHEUS_SKIP_NOTE, type RunningPrometheus, startPrometheus } from '../../support/prometheus.js';
import { runProfile } from '../../support/run-helpers.js';

interface PromResult {
  metric: Record<string, string>;
  value: [number, string];
}

async function query(promUrl: string, promql: string): Promise<PromResult[]> {
  const response = await fetch(`${promUrl}/api/v1/query?query=${encodeURIComponent(promql)}`);
  const body = (await response.json()) as { status: string; data: { result: PromResult[] } };
  expect(body.status).toBe('success');
  return body.data.result;
}

const scalar = async (promUrl: string, promql: string): Promise<number> => Number((await query(promUrl, promql))[0]?.value[1] ?? Number.NaN);

const reportEvents = (report: Report): number => {
  const chat = report.scenarios.chatStreams;
  if (!chat) return 0;
  const sum = (record: Record<string, number>): number => Object.values(record).reduce((a, b) => a + b, 0);
  return sum(chat.events) + sum(chat.mainStreams.events);
};

let prometheus: RunningPrometheus | null = null;

afterAll(async () => {
  await prometheus?.stop();
});

describe(`a real Prometheus scrapes run --metrics-port${PROMETHEUS_SKIP_NOTE}`, () => {
  it.skipIf(!HAS_PROMETHEUS)(
    'and a PromQL query returns the run’s event count',
    async () => {
      const metricsPort = await freePort();
      prometheus = await startPrometheus(metricsPort);
      const promUrl = prometheus.url;

      const { report } = await runProfile(quickProfile({ duration: '25s' }), { metricsPort: String(metricsPort) });
      // Let Prometheus notice the endpoint is gone (one more scrape) before it is asked.
      await new Promise((resolve) => setTimeout(resolve, 1_500));

      const expected = reportEvents(report);
      // max_over_time: the series went stale when the run closed its endpoint.
      const scraped = await scalar(promUrl, 'sum(max_over_time(coachbench_events_total[5m]))');
      // The last scrape comes up to one scrape interval (1 s) before the endpoint closes, so it
      // can miss what the last intervals published: the final full one and the partial one.
      const points = report.timeseries;
      const missable = points.slice(-3).reduce((n, point) => n + point.events, 0);
      console.info(`report.json: ${expected} events; Prometheus: ${scraped}; tolerance ${missable} (events of the last 3 intervals)`);
      expect(expected).toBeGreaterThan(1_000);
      expect(scraped).toBeLessThanOrEqual(expected);
      expect(scraped).toBeGreaterThanOrEqual(expected - missable);

      // The run was watched live: about one sample a second, open streams seen, checks judged.
      const samples = await scalar(promUrl, 'count_over_time(coachbench_run_elapsed_seconds[5m])');
      expect(samples).toBeGreaterThanOrEqual(18);
      expect(await scalar(promUrl, 'max_over_time(coachbench_open_streams{stream="chat"}[5m])')).toBe(report.scenarios.chatStreams?.participants);
      const p99 = await scalar(promUrl, 'histogram_quantile(0.99, sum by (le) (max_over_time(coachbench_keepalive_gap_seconds_bucket[5m])))');
      expect(p99).toBeGreaterThan(0.4);
      expect(p99).toBeLessThan(1);
      // Stream open latency (request → headers) is exported as a histogram: the opens it counted are the report's, or the last scrape's share of them.
      const opens = await scalar(promUrl, 'sum(max_over_time(coachbench_stream_open_seconds_count[5m]))');
      expect(opens).toBeGreaterThan(0);
      expect(opens).toBeLessThanOrEqual(report.scenarios.chatStreams!.openLatencyMs.count);
      // Stream-seconds held (report.json's time series `streamSeconds`), in seconds, less at most what the last intervals added.
      const held = points.reduce((n, point) => n + (point.streamSeconds ?? 0), 0);
      const heldMissable = points.slice(-3).reduce((n, point) => n + (point.streamSeconds ?? 0), 0);
      const scrapedHeld = await scalar(promUrl, 'max_over_time(coachbench_stream_held_seconds_total[5m])');
      console.info(`report.json: ${held} stream-seconds; Prometheus: ${scrapedHeld}; tolerance ${heldMissable}`);
      expect(held).toBeGreaterThan(100);
      expect(scrapedHeld).toBeLessThanOrEqual(held + 1);
      expect(scrapedHeld).toBeGreaterThanOrEqual(held - heldMissable - 1);
      const passing = await query(promUrl, 'last_over_time(coachbench_check_status{check="stream.open",status="pass"}[5m])');
      expect(passing[0]?.value[1]).toBe('1');
    },
    90_000,
  );
});
