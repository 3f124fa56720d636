/**
 * The optional `report.capacity` block (a capacity search: SLO metrics measured at rising
 * load). Renderers read it through this guard: a report.json from disk or from another
 * version may carry a block of another shape, which is then ignored rather than trusted.
 */

import type { CapacityResult, CapacityStep, Report } from '../contract/report.js';
import { type ParsedThreshold, parseThreshold } from '../metrics/thresholds.js';

const STOP_REASONS: readonly CapacityResult['stoppedBecause'][] = ['max', 'slo', 'saturated', 'interrupted'];

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
const isFiniteNumber = (value: unknown): value is number => typeof value === 'number' && Number.isFinite(value);
const isNumberOrNull = (value: unknown): boolean => value === null || isFiniteNumber(value);
const isStrings = (value: unknown): value is string[] => Array.isArray(value) && value.every((item) => typeof item === 'string');

function isStep(value: unknown): value is CapacityStep {
  return (
    isRecord(value) &&
    isFiniteNumber(value.load) &&
    typeof value.pass === 'boolean' &&
    isRecord(value.values) &&
    Object.values(value.values).every(isNumberOrNull) &&
    isStrings(value.failedChecks) &&
    typeof value.reportDir === 'string'
  );
}

/** Whether a value has the CapacityResult shape (with at least one step). */
export function isCapacityResult(value: unknown): value is CapacityResult {
  return (
    isRecord(value) &&
    typeof value.variable === 'string' &&
    typeof value.loadUnit === 'string' &&
    isStrings(value.slos) &&
    Array.isArray(value.steps) &&
    value.steps.length > 0 &&
    value.steps.every(isStep) &&
    isNumberOrNull(value.maxSustainableLoad) &&
    isNumberOrNull(value.firstFailingLoad) &&
    STOP_REASONS.includes(value.stoppedBecause as CapacityResult['stoppedBecause'])
  );
}

/** The capacity block when present and well-formed, steps sorted by load; otherwise null. */
export function readCapacity(report: Report): CapacityResult | null {
  const raw: unknown = report.capacity;
  if (!isCapacityResult(raw)) return null;
  return { ...raw, steps: [...raw.steps].sort((a, b) => a.load - b.load) };
}

/** An SLO expression parsed for its metric's unit and limit; null when it does not parse here. */
export function parseSlo(expression: string): ParsedThreshold | null {
  try {
    return parseThreshold(expression, 'capacity.slos');
  } catch {
    return null;
  }
}

/** Why the search stopped, for a reader. */
export function stopReason(reason: CapacityResult['stoppedBecause']): string {
  switch (reason) {
    case 'max':
      return 'it reached the maximum load of the search';
    case 'slo':
      return 'an SLO broke';
    case 'saturated':
      return 'the driver saturated (its numbers past that point would describe itself)';
    case 'interrupted':
      return 'it was interrupted';
  }
}
