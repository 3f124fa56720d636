/** Parsing of compare's limits: `10%`, `0.1`, `metric=25%` overrides, and `ms=5` floors. */

import type { MetricUnit } from '../../metrics/metric-catalog.js';
import { ConfigError } from '../../util/errors.js';
import { ABSOLUTE_FLOORS, assertMetricKey } from './compare.js';

/**
 * `10%` → 0.1, `0.25` → 0.25. A bare number above 1 is refused (is `10` ten percent or
 * ten times?): write `10%` or `0.1`.
 */
export function parseRegressionLimit(text: string, where: string): number {
  const match = /^\s*(\d+(?:\.\d+)?|\.\d+)\s*(%)?\s*$/.exec(text);
  if (!match) throw new ConfigError(`${where}: "${text}" is not a limit (write e.g. 10% or 0.1)`);
  const value = Number(match[1]);
  if (match[2] === '%') return value / 100;
  if (value > 1) throw new ConfigError(`${where}: "${text}" is ambiguous; write ${value}% or ${value / 100}`);
  return value;
}

/** `chatStreams.eventLatencyMs.p99=25%` entries → { metric: fraction }; the metric must exist. */
export function parseMetricLimits(entries: readonly string[], where: string): Record<string, number> {
  const limits: Record<string, number> = {};
  for (const entry of entries) {
    const at = entry.lastIndexOf('=');
    if (at <= 0) throw new ConfigError(`${where}: "${entry}" must be METRIC=LIMIT, e.g. chatStreams.eventLatencyMs.p99=25%`);
    const metric = entry.slice(0, at).trim();
    assertMetricKey(metric, where);
    limits[metric] = parseRegressionLimit(entry.slice(at + 1), `${where} ${metric}`);
  }
  return limits;
}

/** `ms=5` entries → { ms: 5 }: raised absolute floors by unit (see docs/reports.md). */
export function parseFloors(entries: readonly string[], where: string): Partial<Record<MetricUnit, number>> {
  const floors: Partial<Record<MetricUnit, number>> = {};
  const units = Object.keys(ABSOLUTE_FLOORS) as MetricUnit[];
  for (const entry of entries) {
    const match = /^\s*([A-Za-z]+)\s*=\s*(\d+(?:\.\d+)?)\s*$/.exec(entry);
    const unit = match?.[1] as MetricUnit | undefined;
    if (!match || unit === undefined || !units.includes(unit)) {
      throw new ConfigError(`${where}: "${entry}" must be UNIT=NUMBER with UNIT one of ${units.join(', ')} (e.g. ms=5)`);
    }
    floors[unit] = Number(match[2]);
  }
  return floors;
}
