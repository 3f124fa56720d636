/**
 * The optional `report.capacity` block (a capacity search: an SLO metric measured at rising
 * load). Not part of the Report type yet, so it is read through a guard: a block of another
 * shape is ignored, never trusted.
 *
 * Shape read:
 * { metric: "chatStreams.eventLatencyMs.p99", unit?: "ms", loadUnit?: "streams",
 *   slo?: 250, maxSustainableLoad?: 4000,
 *   points: [{ load: 1000, value: 41.2, pass?: true }, ...] }
 */
import type { Report } from './report-types.js';

export interface CapacityPoint {
  load: number;
  /** The SLO metric at this load; null when the step produced no samples. */
  value: number | null;
  /** Whether the step met the SLO (derived from `slo` when absent). */
  pass: boolean | null;
}

export interface CapacityBlock {
  metric: string;
  unit: string;
  loadUnit: string;
  slo: number | null;
  maxSustainableLoad: number | null;
  points: CapacityPoint[];
}

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
const finite = (value: unknown): value is number => typeof value === 'number' && Number.isFinite(value);
const text = (value: unknown, fallback: string): string => (typeof value === 'string' && value.length <= 80 ? value : fallback);
const numberOrNull = (value: unknown): number | null => (finite(value) ? value : null);

function readPoint(raw: unknown, slo: number | null): CapacityPoint | null {
  if (!isRecord(raw) || !finite(raw['load'])) return null;
  const value = raw['value'];
  if (value !== null && !finite(value)) return null;
  const given = raw['pass'];
  const pass = typeof given === 'boolean' ? given : value !== null && slo !== null ? value <= slo : null;
  return { load: raw['load'], value, pass };
}

/** The capacity block when present and well-formed (at least one valid point); otherwise null. */
export function readCapacity(report: Report): CapacityBlock | null {
  const raw: unknown = (report as Report & { capacity?: unknown }).capacity;
  if (!isRecord(raw) || typeof raw['metric'] !== 'string' || !Array.isArray(raw['points'])) return null;
  const slo = numberOrNull(raw['slo']);
  const points: CapacityPoint[] = [];
  for (const entry of raw['points'] as unknown[]) {
    const point = readPoint(entry, slo);
    if (point === null) return null;
    points.push(point);
  }
  if (points.length === 0) return null;
  points.sort((a, b) => a.load - b.load);
  return {
    metric: text(raw['metric'], 'SLO metric'),
    unit: text(raw['unit'], ''),
    loadUnit: text(raw['loadUnit'], 'load'),
    slo,
    maxSustainableLoad: numberOrNull(raw['maxSustainableLoad']),
    points,
  };
}
