/**
 * `run --metrics-port`: serves `/metrics` in the Prometheus text format with prom-client,
 * from the merged interval stream (names: src/metrics/exported-metrics.ts, docs/metrics.md).
 * Counters grow by each interval's counts; gauges hold the last interval; histograms take
 * each interval's HDR buckets. A capacity search keeps one endpoint whose counters run on
 * across its steps.
 */
import type { Server } from 'node:http';
import { Counter, Gauge, Histogram, type OpenMetricsContentType, Registry, type RegistryContentType } from 'prom-client';
import { EXPORTED, type ExportedKey, HISTOGRAM_SOURCES } from '../../metrics/exported-metrics.js';
import { VERSION } from '../../util/version.js';
import { closeServer, listenOn, liveServer } from './listen.js';
import type { IntervalSample, LiveOutput, SessionInfo } from './live-output.js';
import { EXPORTED_KEYS, type Labels, MetricFeed, type MetricWriter } from './metric-feed.js';

type AnyMetric = Counter | Gauge | Histogram;

function makeMetric(key: ExportedKey, registry: Registry<OpenMetricsContentType>): AnyMetric {
  const { name, kind, help, labels } = EXPORTED[key];
  const common = { name, help, labelNames: [...labels], registers: [registry] };
  if (kind === 'counter') return new Counter(common);
  if (kind === 'gauge') return new Gauge(common);
  const buckets = HISTOGRAM_SOURCES.find((entry) => entry.key === key)?.buckets ?? [];
  return new Histogram({ ...common, buckets: [...buckets], enableExemplars: true });
}

/** The prom-client 15 Histogram member that sets a bucket's exemplar without observing again. */
interface ExemplarSetter {
  updateExemplar(labels: Labels, value: number, exemplarLabels: Labels): void;
}

/** prom-client's typings give Registry no constructor argument; the type is set before any metric joins. */
function openMetricsRegistry(): Registry<OpenMetricsContentType> {
  const registry = new Registry<OpenMetricsContentType>();
  registry.setContentType(Registry.OPENMETRICS_CONTENT_TYPE);
  return registry;
}

/** What a scraper that asks for OpenMetrics (Prometheus does, exemplar storage or not) sends in Accept. */
export function wantsOpenMetrics(accept: string | undefined): boolean {
  return accept !== undefined && /application\/openmetrics-text/i.test(accept);
}

export class PrometheusOutput implements LiveOutput {
  readonly name = 'the Prometheus endpoint';
  // OpenMetrics, as prom-client requires of a registry whose histograms keep exemplars; each scrape renders in the format it asks for.
  readonly registry = openMetricsRegistry();
  private readonly metrics = new Map<ExportedKey, AnyMetric>();
  private readonly feed: MetricFeed;
  /** Renders one at a time: a render switches the registry's format for its duration. */
  private rendering: Promise<unknown> = Promise.resolve();

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
      // prom-client stamps an exemplar with the time it is set (the interval's end) and takes no other.
      exemplar: (key, labels, valueSec, { traceId, spanId }) => {
        // Its bucket was observed just before, in the same interval: the series exists.
        const ids: Labels = spanId === undefined ? { trace_id: traceId } : { trace_id: traceId, span_id: spanId };
        (this.metrics.get(key) as unknown as ExemplarSetter).updateExemplar(labels, valueSec, ids);
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
      const openMetrics = wantsOpenMetrics(request.headers.accept);
      output.render(openMetrics).then(
        (text) => response.writeHead(200, { 'content-type': openMetrics ? Registry.OPENMETRICS_CONTENT_TYPE : Registry.PROMETHEUS_CONTENT_TYPE }).end(text),
        (error: unknown) => response.writeHead(500, { 'content-type': 'text/plain; charset=utf-8' }).end(`${String(error)}\n`),
      );
    });
    output = new PrometheusOutput(server, await listenOn(server, host, port, '--metrics-port'));
    return output;
  }

  /**
   * The metrics as text: OpenMetrics (with exemplars, docs/metrics.md "Exemplars") when the
   * scraper asks for it, else the Prometheus text format (which has no exemplars). prom-client
   * renames counters (drops `_total`) while rendering OpenMetrics; the names are put back, so
   * the next Prometheus-format scrape keeps them.
   */
  render(openMetrics: boolean): Promise<string> {
    // The declared type binds a registry to one format; this one switches for a render.
    const registry = this.registry as unknown as Registry<RegistryContentType>;
    const next = this.rendering.then(async () => {
      const names = registry.getMetricsAsArray().map((metric) => [metric, metric.name] as const);
      registry.setContentType(openMetrics ? Registry.OPENMETRICS_CONTENT_TYPE : Registry.PROMETHEUS_CONTENT_TYPE);
      try {
        return await registry.metrics();
      } finally {
        for (const [metric, name] of names) (metric as { name: string }).name = name;
        registry.setContentType(Registry.OPENMETRICS_CONTENT_TYPE);
      }
    });
    this.rendering = next.catch(() => undefined);
    return next;
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
