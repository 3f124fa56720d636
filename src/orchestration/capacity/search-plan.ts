/**
 * Pure planning for a capacity search: which load to try next, given the results so far.
 * Step up geometrically from `start` until an SLO breaks (or `max`), then bisect between
 * the last load that held and the first that broke, `refineSteps` times.
 */

import { SEARCH_VARIABLE_MAXIMA } from '../../contract/profile/profile-limits.js';
import { parseThresholds } from '../../metrics/thresholds.js';
import { MAX_DURATION_MS, MAX_DURATION_TEXT, parseDuration } from '../../util/duration.js';
import { ConfigError, ProblemList } from '../../util/errors.js';

/** Profile fields a search can vary, with the unit shown on the curve's load axis. */
export const SEARCH_VARIABLES = {
  'chatStreams.participants': 'participants',
  'chatStreams.messageRatePerSec': 'messages/s',
  'photoUpload.ratePerSec': 'uploads/s',
  'tagLink.ratePerSec': 'requests/s',
} as const;
export type SearchVariable = keyof typeof SEARCH_VARIABLES;

export interface SearchSettings {
  variable: SearchVariable;
  start: number;
  factor: number;
  max: number;
  stepDurationMs: number;
  refineSteps: number;
  /** Threshold expressions that define "the load held". */
  slos: string[];
}

export interface StepResult {
  load: number;
  pass: boolean;
}

/** Validates a profile's `search` block, collecting every problem. */
export function parseSearch(raw: Record<string, unknown>, where: string): SearchSettings {
  const problems = new ProblemList();
  const num = (key: string, fallback: number | undefined, min: number): number => {
    const value = raw[key] ?? fallback;
    if (typeof value !== 'number' || !Number.isFinite(value) || value < min) {
      problems.add(`${where}.search.${key}`, `must be a number >= ${min}`);
      return min;
    }
    return value;
  };
  const variable = raw.variable;
  if (typeof variable !== 'string' || !(variable in SEARCH_VARIABLES)) {
    problems.add(`${where}.search.variable`, `must be one of ${Object.keys(SEARCH_VARIABLES).join(', ')}`);
  }
  const slos = raw.slos;
  if (!Array.isArray(slos) || slos.length === 0 || !slos.every((s) => typeof s === 'string')) {
    problems.add(`${where}.search.slos`, 'must be a non-empty array of threshold expressions');
  }
  const settings: SearchSettings = {
    variable: variable as SearchVariable,
    start: num('start', undefined, 1),
    factor: num('factor', 2, 1.05),
    max: num('max', undefined, 1),
    stepDurationMs: parseDuration((raw.stepDuration as string | number | undefined) ?? '30s', `${where}.search.stepDuration`),
    refineSteps: Math.floor(num('refineSteps', 2, 0)),
    slos: (slos as string[]) ?? [],
  };
  problems.throwIfAny('invalid capacity search');
  if (settings.max < settings.start) throw new ConfigError(`${where}.search.max: must be at least start`);
  checkBounds(settings, where);
  parseThresholds(settings.slos, `${where}.search.slos`);
  return settings;
}

/** The most steps a search can take: the geometric climb from start to max, then the refinements. */
function maxSteps(settings: SearchSettings): number {
  return 1 + Math.ceil(Math.log(settings.max / settings.start) / Math.log(settings.factor)) + settings.refineSteps;
}

/** A search may not set its variable beyond the profile's own maximum, nor run longer than any run may (docs/design.md §2.5). */
function checkBounds(settings: SearchSettings, where: string): void {
  const limit = SEARCH_VARIABLE_MAXIMA[settings.variable];
  if (settings.max > limit) throw new ConfigError(`${where}.search.max: ${settings.max} is more than ${settings.variable} may be (${limit})`);
  const longestMs = maxSteps(settings) * settings.stepDurationMs;
  if (longestMs > MAX_DURATION_MS) {
    throw new ConfigError(
      `${where}.search: up to ${maxSteps(settings)} steps of ${settings.stepDurationMs / 1_000}s could last longer than the maximum, ${MAX_DURATION_TEXT}; shorten stepDuration or narrow start..max`,
    );
  }
}

/** Participants are whole; rates keep one decimal. */
const roundLoad = (variable: SearchVariable, load: number): number => (variable === 'chatStreams.participants' ? Math.round(load) : Math.round(load * 10) / 10);

/** The next load to try, or null when the search is done. */
export function nextLoad(settings: SearchSettings, steps: readonly StepResult[]): number | null {
  if (steps.length === 0) return settings.start;
  const passed = steps.filter((s) => s.pass).map((s) => s.load);
  const failed = steps.filter((s) => !s.pass).map((s) => s.load);
  const good = passed.length > 0 ? Math.max(...passed) : null;
  const bad = failed.length > 0 ? Math.min(...failed) : null;
  if (bad === null) {
    if (good === null || good >= settings.max) return null;
    return roundLoad(settings.variable, Math.min(settings.max, good * settings.factor));
  }
  if (good === null) return null; // Even the starting load broke an SLO.
  const refined = steps.length - stepsBeforeFirstFailure(steps);
  if (refined >= settings.refineSteps) return null;
  const mid = roundLoad(settings.variable, (good + bad) / 2);
  return mid <= good || mid >= bad ? null : mid;
}

/** How many steps ran up to and including the first failing one (the geometric phase). */
function stepsBeforeFirstFailure(steps: readonly StepResult[]): number {
  const index = steps.findIndex((s) => !s.pass);
  return index < 0 ? steps.length : index + 1;
}

/** The largest load that held every SLO, below the smallest that broke one. */
export function knee(steps: readonly StepResult[]): number | null {
  const bad = Math.min(...steps.filter((s) => !s.pass).map((s) => s.load), Infinity);
  const held = steps.filter((s) => s.pass && s.load < bad).map((s) => s.load);
  return held.length > 0 ? Math.max(...held) : null;
}
