/**
 * `run --otlp URL`: pushes the exported metrics (src/metrics/exported-metrics.ts) to an
 * OpenTelemetry collector over OTLP/HTTP with JSON bodies, every OTEL_METRIC_EXPORT_INTERVAL
 * ms (10 s unless set), and once more at the end so the last numbers are sent. Instrument
 * names are the Prometheus names without `_total` (a collector's Prometheus exporter adds it
 * back), with unit `s` on the `_seconds` ones. The latency histograms carry exemplars of the
 * slowest traced requests (otlp-exemplars.ts), written into the JSON the SDK's transformer
 * makes, since the SDK records none (docs/design.md §2.12).
 */
import type { Attributes, Counter, Gauge, Histogram, Meter } from '@opentelemetry/api';
import { OTLPMetricExporterBase } from '@opentelemetry/exporter-metrics-otlp-http';
import { convertLegacyHttpOptions, createOtlpHttpExportDelegate } from '@opentelemetry/otlp-exporter-base/node-http';
import { type IExportMetricsServiceResponse, type ISerializer, JsonMetricsSerializer, MetricsExporterMetricsHelper } from '@opentelemetry/otlp-transformer';
import { MeterProvider, PeriodicExportingMetricReader, type PushMetricExporter, type ResourceMetrics } from '@opentelemetry/sdk-metrics';
import { EXPORTED, type ExportedKey, HISTOGRAM_SOURCES } from '../../metrics/exported-metrics.js';
import { VERSION } from '../../util/version.js';
import type { IntervalSample, LiveOutput, SessionInfo } from './live-output.js';
import { EXPORTED_KEYS, MetricFeed, type MetricWriter } from './metric-feed.js';
import { type JsonMetricsRequest, OtlpExemplars } from './otlp-exemplars.js';

/** The OpenTelemetry SDK's default is 60 s: too coarse to watch a run. */
const DEFAULT_EXPORT_INTERVAL_MS = 10_000;
/** ExportResultCode.SUCCESS of @opentelemetry/core. */
const EXPORT_SUCCESS = 0;
/** The exporter's component type in the SDK's own telemetry, as OTLPMetricExporter names it. */
const COMPONENT_TYPE = 'otlp_http_metric_exporter';

type Instrument = Counter | Gauge | Histogram;

/** The OpenTelemetry name of an exported metric. */
export const otlpName = (key: ExportedKey): string => EXPORTED[key].name.replace(/_total$/, '');

const bucketsOf = (key: ExportedKey): readonly number[] => HISTOGRAM_SOURCES.find((entry) => entry.key === key)?.buckets ?? [];
const BUCKETS_BY_NAME = new Map(EXPORTED_KEYS.map((key) => [otlpName(key), bucketsOf(key)]));

function makeInstrument(meter: Meter, key: ExportedKey): Instrument {
  const { kind, help } = EXPORTED[key];
  const options = { description: help, ...(otlpName(key).endsWith('_seconds') ? { unit: 's' } : {}) };
  if (kind === 'counter') return meter.createCounter(otlpName(key), options);
  if (kind === 'gauge') return meter.createGauge(otlpName(key), options);
  return meter.createHistogram(otlpName(key), { ...options, advice: { explicitBucketBoundaries: [...bucketsOf(key)] } });
}

/** The SDK's OTLP/JSON serializer, with the pending exemplars written into each request it makes. */
function serializerWith(exemplars: OtlpExemplars): ISerializer<ResourceMetrics, IExportMetricsServiceResponse> {
  return {
    serializeRequest: (metrics) => {
      const body = JsonMetricsSerializer.serializeRequest(metrics);
      if (body === undefined || exemplars.empty) return body;
      const request = JSON.parse(new TextDecoder().decode(body)) as JsonMetricsRequest;
      exemplars.attachTo(request);
      return new TextEncoder().encode(JSON.stringify(request));
    },
    deserializeResponse: (body) => JsonMetricsSerializer.deserializeResponse(body),
  };
}

/**
 * What OTLPMetricExporter builds (the same options, OTEL_EXPORTER_OTLP_* variables, retries
 * and JSON content type), with the exemplar-writing serializer in place of its own.
 */
function otlpExporter(url: string, exemplars: OtlpExemplars): OTLPMetricExporterBase {
  const options = convertLegacyHttpOptions({ url }, 'METRICS', 'v1/metrics', { 'Content-Type': 'application/json' });
  return new OTLPMetricExporterBase(createOtlpHttpExportDelegate(options, serializerWith(exemplars), COMPONENT_TYPE, MetricsExporterMetricsHelper, undefined));
}

/** The OTLP exporter, saying once when an export fails (the SDK would only log it to its own diag). */
function reportingExporter(inner: OTLPMetricExporterBase, warn: (text: string) => void): PushMetricExporter {
  let warned = false;
  return {
    export: (metrics: ResourceMetrics, done) =>
      inner.export(metrics, (result) => {
        if (result.code !== EXPORT_SUCCESS && !warned) {
          warned = true;
          warn(`OTLP export failed (${result.error?.message ?? 'no reason given'}); later exports are still tried, and their failures not repeated`);
        }
        done(result);
      }),
    forceFlush: () => inner.forceFlush(),
    shutdown: () => inner.shutdown(),
    selectAggregationTemporality: (type) => inner.selectAggregationTemporality(type),
  };
}

/** How often to push: OTEL_METRIC_EXPORT_INTERVAL (ms, the OpenTelemetry variable) or 10 s. */
export function exportIntervalMs(env: NodeJS.ProcessEnv): number {
  const value = Number(env.OTEL_METRIC_EXPORT_INTERVAL);
  return Number.isFinite(value) && value >= 100 ? value : DEFAULT_EXPORT_INTERVAL_MS;
}

export class OtlpOutput implements LiveOutput {
  readonly name = 'the OTLP push';
  private readonly provider: MeterProvider;
  private readonly instruments = new Map<ExportedKey, Instrument>();
  private readonly feed: MetricFeed;
  private readonly exemplars = new OtlpExemplars((name) => BUCKETS_BY_NAME.get(name) ?? []);

  constructor(url: string, warn: (text: string) => void, env: NodeJS.ProcessEnv = process.env) {
    const exporter = reportingExporter(otlpExporter(url, this.exemplars), warn);
    this.provider = new MeterProvider({
      readers: [new PeriodicExportingMetricReader({ exporter, exportIntervalMillis: exportIntervalMs(env) })],
    });
    const meter = this.provider.getMeter('coachbench', VERSION);
    for (const key of EXPORTED_KEYS) this.instruments.set(key, makeInstrument(meter, key));
    const writer: MetricWriter = {
      add: (key, labels, value) => (this.instruments.get(key) as Counter).add(value, labels),
      set: (key, labels, value) => (this.instruments.get(key) as Gauge).record(value, labels),
      observe: (key, labels, valueSec, count) => {
        const histogram = this.instruments.get(key) as Histogram;
        for (let i = 0; i < count; i++) histogram.record(valueSec, labels);
      },
      exemplar: (key, labels, valueSec, slow) => this.exemplars.offer(otlpName(key), labels, valueSec, slow),
    };
    this.feed = new MetricFeed(writer);
  }

  beginSession(info: SessionInfo): void {
    (this.instruments.get('info') as Gauge).record(1, { profile: info.profileName, version: VERSION } satisfies Attributes);
  }

  onInterval(sample: IntervalSample): void {
    this.feed.feed(sample);
  }

  /** Pushes what is pending, then stops; a collector that is down is already said by the exporter's warning. */
  async close(): Promise<void> {
    await this.provider.forceFlush().catch(() => undefined);
    await this.provider.shutdown().catch(() => undefined);
  }
}
