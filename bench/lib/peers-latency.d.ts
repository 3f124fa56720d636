// Types of peers-latency.js for its tests and peers-readme.ts (Node runs the .js as it is).
export interface ErrorPercentiles {
  p50: number;
  p99: number;
  p999: number;
}
export interface LatencyRow {
  repetition?: number;
  client: string;
  streams: number;
  requests: number;
  errorVsNginxMs: ErrorPercentiles | null;
  errorVsRulerMs: ErrorPercentiles | null;
}
export interface LatencyMedian {
  client: string;
  streams: number;
  rounds: number;
  requests: number;
  errorVsNginxMs: ErrorPercentiles | null;
  errorVsNginxP99RangeMs: [number, number] | null;
  errorVsRulerMs: ErrorPercentiles | null;
}
export function latencyMedians(rows: readonly LatencyRow[]): LatencyMedian[];
export function bestFloor(latency: readonly LatencyMedian[], streams: number): LatencyMedian | null;
