/**
 * OTLP exemplars (docs/metrics.md "Exemplars", docs/design.md §2.12): the trace and span
 * ids of each interval's slowest traced requests, kept per histogram series and bucket until
 * the next export, then written into that export's OTLP/JSON histogram data points. The
 * OpenTelemetry JS SDK records no exemplars (its aggregators and OTLP transformer have none),
 * so they are added to the JSON the SDK's transformer writes, in the OTLP/JSON shape of
 * opentelemetry-proto `Exemplar`: time, value, hex `traceId` and `spanId`. The time is the
 * request's own (when it completed, kept with the slowest), as the SDK's reservoirs take the
 * measurement's time: offered at the interval's end, it would postdate the request.
 */
import type { Labels } from './metric-feed.js';

/** One exemplar as OTLP/JSON writes it. */
export interface OtlpExemplar {
  timeUnixNano: string;
  asDouble: number;
  /** 32 hex digits: OTLP/JSON writes trace and span ids in hex, not base64. */
  traceId: string;
  /** 16 hex digits, the traceparent's parent id; absent where the slowest kept none. */
  spanId?: string;
}

interface JsonKeyValue {
  key: string;
  value: { stringValue?: string };
}
interface JsonHistogramPoint {
  attributes?: JsonKeyValue[];
  exemplars?: OtlpExemplar[];
}
/** The part of an OTLP/JSON ExportMetricsServiceRequest exemplars go into. */
export interface JsonMetricsRequest {
  resourceMetrics?: Array<{ scopeMetrics?: Array<{ metrics?: Array<{ name: string; histogram?: { dataPoints?: JsonHistogramPoint[] } }> }> }>;
}

/** A series' identity: its attributes in key order, so labels and OTLP attributes compare equal. */
const seriesKey = (entries: Array<[string, string]>): string => JSON.stringify(entries.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));

/** The explicit bucket (OTLP: `bounds[i-1] < value <= bounds[i]`, the last unbounded) `value` falls in. */
function bucketOf(bounds: readonly number[], value: number): number {
  const at = bounds.findIndex((bound) => value <= bound);
  return at === -1 ? bounds.length : at;
}

/**
 * Exemplars waiting for the next export. Like the SDK specification's aligned-histogram
 * reservoir and prom-client, a bucket keeps its latest: offered fastest first, the slowest
 * of the latest interval to reach a bucket is the one sent.
 */
export class OtlpExemplars {
  /** Metric name, then series, then bucket index. */
  private readonly pending = new Map<string, Map<string, Map<number, OtlpExemplar>>>();

  constructor(private readonly boundsOf: (metricName: string) => readonly number[]) {}

  /** `slow.atMs`, when the request completed, is the exemplar's time; `nowMs` stands in where none was kept. */
  offer(
    metricName: string,
    labels: Labels,
    valueSec: number,
    slow: { traceId: string; spanId?: string | undefined; atMs?: number | undefined },
    nowMs = Date.now(),
  ): void {
    let series = this.pending.get(metricName);
    if (!series) {
      series = new Map();
      this.pending.set(metricName, series);
    }
    const key = seriesKey(Object.entries(labels));
    let buckets = series.get(key);
    if (!buckets) {
      buckets = new Map();
      series.set(key, buckets);
    }
    buckets.set(bucketOf(this.boundsOf(metricName), valueSec), {
      timeUnixNano: `${BigInt(Math.round(slow.atMs ?? nowMs)) * 1_000_000n}`,
      asDouble: valueSec,
      traceId: slow.traceId,
      ...(slow.spanId === undefined ? {} : { spanId: slow.spanId }),
    });
  }

  get empty(): boolean {
    return this.pending.size === 0;
  }

  /**
   * Writes the pending exemplars into the histogram data points of `request` whose series
   * they belong to, then forgets them all: an export carries the exemplars of the intervals
   * since the one before (an OTLP cumulative point's exemplars are recent measurements).
   */
  attachTo(request: JsonMetricsRequest): void {
    for (const resource of request.resourceMetrics ?? []) {
      for (const scope of resource.scopeMetrics ?? []) {
        for (const metric of scope.metrics ?? []) {
          const series = this.pending.get(metric.name);
          if (series === undefined || metric.histogram === undefined) continue;
          for (const point of metric.histogram.dataPoints ?? []) {
            const key = seriesKey((point.attributes ?? []).map(({ key, value }) => [key, value.stringValue ?? '']));
            const buckets = series.get(key);
            if (buckets === undefined) continue;
            point.exemplars = [...buckets.entries()].sort(([a], [b]) => a - b).map(([, exemplar]) => exemplar);
          }
        }
      }
    }
    this.pending.clear();
  }
}
