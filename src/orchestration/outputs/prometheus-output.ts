/**
 * `run --metrics-port`: serves `/metrics` in the Prometheus text format with prom-client,
 * from the merged interval stream (names: src/metrics/exported-metrics.ts, docs/metrics.md).
 * Counters grow by each interval's counts; gauges hold the last interval; histograms take
 * each interval's HDR buckets. A capacity search keeps one endpoint whose counters run on
 * across its steps.
 */
import type { Server } from 'node:http';
import { Counter, Gauge, Histogram, Registry } from 'prom-client';
import { EXPORTED, type ExportedKey, HISTOGRAM_SOURCES } from '../../metrics/exported-metrics.js';
import { VERSION } from '../../util/version.js';
import { closeServer, listenOn, liveServer } from './listen.js';
import type { IntervalSample, LiveOutput, SessionInfo } from './live-output.js';
import { EXPORTED_KEYS, type Labels, MetricFeed, type MetricWriter } from './metric-feed.js';

type AnyMetric = Counter | Gauge | Histogram;

function makeMetric(key: ExportedKey, registry: Registry): AnyMetric {
  const { name, kind, help, labels } = EXPORTED[key];
  const common = { name, help, labelNames: [...labels], registers: [registry] };
  if (kind === 'counter') return new Counter(common);
  if (kind === 'gauge') return new Gauge(common);
  const buckets = HISTOGRAM_SOURCES.find((entry) => entry.key === key)?.buckets ?? [];
  return new Histogram({ ...common, buckets: [...buckets] });
}

export class PrometheusOutput implements LiveOutput {
  readonly name = 'the Prometheus endpoint';
  readonly registry = new Registry();
  private readonly metrics = new Map<ExportedKey, AnyMetric>();
  private readonly feed: MetricFeed;

  private constructor(
    private readonly server: Server,
    /** The origin served; the endpoint is `${url}/metrics`. */
    readonly url: string,
  ) {
    for (const key of EXPORTED_KEYS) this.metrics.set(key, makeMetric(key, this.registry));
    const writer: MetricWriter = {
      add: (key, labels, value) => (this.metrics.get(key) as Counter).inc(labels, value),
      set: (key, labels, value) => (this.metrics.get(key) as Gauge).set(labels, value),
      observe: (key, labels, valueSec, count) => {
        // prom-client has no weighted observe: one call per sample, from an interval's HDR buckets.
        const child = (this.metrics.get(key) as Histogram).labels(labels);
        for (let i = 0; i < count; i++) child.observe(valueSec);
      },
    };
    this.feed = new MetricFeed(writer);
  }

  /** Starts listening on host:port (0 = any free port). */
  static async start(host: string, port: number): Promise<PrometheusOutput> {
    let output: PrometheusOutput | null = null;
    const server = liveServer(host, (request, response) => {
      const path = new URL(request.url ?? '/', 'http://localhost').pathname;
      if (!output || request.method !== 'GET' || path !== '/metrics') {
        response.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' }).end('not found: the metrics are at /metrics\n');
        return;
      }
      const { registry } = output;
      registry.metrics().then(
        (text) => response.writeHead(200, { 'content-type': registry.contentType }).end(text),
        (error: unknown) => response.writeHead(500, { 'content-type': 'text/plain; charset=utf-8' }).end(`${String(error)}\n`),
      );
    });
    output = new PrometheusOutput(server, await listenOn(server, host, port, '--metrics-port'));
    return output;
  }

  beginSession(info: SessionInfo): void {
    const infoGauge = this.metrics.get('info') as Gauge;
    infoGauge.reset();
    infoGauge.set({ profile: info.profileName, version: VERSION } satisfies Labels, 1);
    // Thresholds of an earlier capacity step must not linger under their old state.
    (this.metrics.get('thresholdStatus') as Gauge).reset();
  }

  onInterval(sample: IntervalSample): void {
    this.feed.feed(sample);
  }

  async close(): Promise<void> {
    await closeServer(this.server);
  }
}
