/**
 * One metric's history → its segments and significant change points.
 *
 * 1. E-divisive means (e-divisive.ts) proposes change points, each significant by its own
 *    permutation test at the stated level, with at least `minSegment` runs on either side.
 * 2. Each proposal must also survive the noise model compare uses: the confidence interval
 *    of the shift between the neighbouring segments (Welch, each segment's variance at
 *    least its runs' own HDR sampling variance) excludes zero; the shift reaches the unit's
 *    absolute floor and the generator's own event-loop delay; and, where a model exists,
 *    the two segments' pooled samples differ (HDR percentile intervals, error proportions).
 *    The weakest failing proposal is dropped and the rest judged again.
 * 3. The newest runs after the last change may be too few for a permutation test to reach
 *    the level at all (the newest run alone is never a segment; 2 of 9 runs can at best
 *    reach p = 2/36). They are judged against the rest of their segment with the same
 *    interval test, a prediction interval for one run: beyond it, they are a provisional
 *    change point ("begins a regression"), within it a noisy night. Nothing but size tells
 *    so few runs from noise, so they are held to NEWEST_RUN_LEVEL when that is stricter.
 */
import type { MetricDirection, MetricUnit } from '../../metrics/metric-catalog.js';
import { ABSOLUTE_FLOORS } from '../compare/compare.js';
import { eDivisive, type Split } from './e-divisive.js';
import type { RunNoise } from './trend-metrics.js';
import type { ChangePoint, ShiftKind, TrendDrift, TrendRun, TrendSegment, TrendSeries, TrendSettings } from './trend-model.js';
import { drift, mean, median, sampleVariance, tQuantile } from './trend-stats.js';

/** One run's value of the metric. */
export interface Observation {
  run: TrendRun;
  value: number;
  /** The run's own sampling noise (HDR, binomial, Poisson), when there is a model. */
  noise: RunNoise | null;
  /** The generator's event-loop delay at the metric's percentile (0 when not a latency). */
  schedulingDelay: number;
}

export interface SeriesModel {
  metric: string;
  title: string;
  unit: MetricUnit;
  direction: MetricDirection;
  threshold: TrendSeries['threshold'];
  /** The runs that have the metric, in start order. */
  observations: readonly Observation[];
  /** Run indexes without the metric. */
  missing: number[];
  /** Whether two groups of observations (indexes into `observations`) differ beyond sampling noise; undefined: no model. */
  groupsDiffer?: (before: readonly number[], after: readonly number[]) => boolean | undefined;
}

/** The level a single newest run is judged at, unless the stated level is stricter: a 99 % prediction interval. */
export const NEWEST_RUN_LEVEL = 0.01;

const range = (from: number, to: number): number[] => Array.from({ length: to - from }, (_, i) => from + i);

/** n choose k, as a float (only compared against a level). */
function choose(n: number, k: number): number {
  let result = 1;
  for (let i = 1; i <= k; i += 1) result = (result * (n - k + i)) / i;
  return result;
}

/**
 * The newest runs of the last segment that form a change too recent for the permutation
 * test (its smallest p for k runs after n − k is 2 / C(n, k)): the longest such tail whose
 * shift holds, or null.
 */
function recentChange(model: SeriesModel, settings: TrendSettings, lastStart: number): ChangePoint | null {
  const end = model.observations.length;
  const length = end - lastStart;
  for (let k = Math.min(length - settings.minSegment, length); k >= 1; k -= 1) {
    if (k >= settings.minSegment && 2 / choose(length, k) <= settings.significance) continue;
    const change = judgeShift(model, settings, range(lastStart, end - k), range(end - k, end), null);
    if (change !== null) return change;
  }
  return null;
}

function seedOf(metric: string, base: number): number {
  let hash = base >>> 0;
  for (const char of metric) hash = Math.imul(hash ^ char.charCodeAt(0), 0x01000193) >>> 0;
  return hash;
}

function kindOf(direction: MetricDirection, shift: number): ShiftKind {
  if (direction === 'info') return 'change';
  return (direction === 'lower' ? shift > 0 : shift < 0) ? 'regression' : 'improvement';
}

const round = (value: number): number => Number(value.toPrecision(6));

/** Judges the shift between two groups of observations; null when it is not beyond noise. */
function judgeShift(model: SeriesModel, stated: TrendSettings, before: number[], after: number[], pValue: number | null): ChangePoint | null {
  const settings = pValue === null ? { ...stated, significance: Math.min(stated.significance, NEWEST_RUN_LEVEL) } : stated;
  const obs = model.observations;
  const valuesOf = (group: number[]): number[] => group.map((i) => (obs[i] as Observation).value);
  const runNoise = (group: number[]): number => mean(group.map((i) => (obs[i] as Observation).noise?.variance ?? 0));
  const b = valuesOf(before);
  const a = valuesOf(after);
  const meanBefore = mean(b);
  const meanAfter = mean(a);
  const shift = meanAfter - meanBefore;
  // Run-to-run spread, but never less than what one run's own sampling noise explains.
  let varBefore = Math.max(sampleVariance(b), runNoise(before));
  let varAfter = Math.max(sampleVariance(a), runNoise(after));
  // One run has no spread of its own: it is judged by its neighbours' (a prediction interval).
  if (a.length === 1) varAfter = Math.max(varAfter, varBefore);
  if (b.length === 1) varBefore = Math.max(varBefore, varAfter);
  const dfBefore = b.length > 1 ? b.length - 1 : Math.max(1, a.length - 1);
  const dfAfter = a.length > 1 ? a.length - 1 : Math.max(1, b.length - 1);
  const termBefore = varBefore / b.length;
  const termAfter = varAfter / a.length;
  const se = Math.sqrt(termBefore + termAfter);
  const df = se === 0 ? Number.POSITIVE_INFINITY : (termBefore + termAfter) ** 2 / (termBefore ** 2 / dfBefore + termAfter ** 2 / dfAfter);
  const half = se === 0 ? 0 : tQuantile(1 - settings.significance / 2, df) * se;
  const interval = { lo: shift - half, hi: shift + half };
  const delays = [...before, ...after].map((i) => (obs[i] as Observation).schedulingDelay);
  const floor = Math.max(ABSOLUTE_FLOORS[model.unit], settings.floors[model.unit] ?? 0, median(delays));
  const differs = model.groupsDiffer?.(before, after);
  if (!(interval.lo > 0 || interval.hi < 0) || Math.abs(shift) < floor || differs === false) return null;
  const confidence = 1 - settings.significance;
  const percent = `${round(confidence * 100)} %`;
  const first = (obs[after[0] as number] as Observation).run;
  const evidence = [
    pValue === null
      ? `the newest ${a.length === 1 ? 'run lies' : `${a.length} runs lie`} beyond the ${percent} ${a.length === 1 ? 'prediction ' : ''}interval of the ${b.length} runs before; too few runs after it yet for the permutation test`
      : `E-divisive permutation test: p = ${round(pValue)} (level ${settings.significance})`,
    `the ${percent} interval of the shift excludes 0`,
    `the shift reaches the floor of ${round(floor)} (${model.unit})`,
  ];
  if (differs === true) evidence.push('the pooled samples of the runs before and after differ beyond sampling noise');
  return {
    metric: model.metric,
    unit: model.unit,
    kind: kindOf(model.direction, shift),
    run: first.index,
    runId: first.runId,
    startedAt: first.startedAt,
    labels: first.labels,
    before: round(meanBefore),
    after: round(meanAfter),
    shift: round(shift),
    relative: meanBefore !== 0 ? round(shift / Math.abs(meanBefore)) : null,
    interval: { lo: round(interval.lo), hi: round(interval.hi) },
    confidence,
    pValue: pValue === null ? null : round(pValue),
    provisional: pValue === null,
    runsBefore: b.length,
    runsAfter: a.length,
    evidence,
  };
}

/** Judges every proposed split against its neighbouring segments; drops the weakest failure until all hold. */
function confirmedChanges(model: SeriesModel, settings: TrendSettings, proposals: Split[]): ChangePoint[] {
  let kept = [...proposals];
  for (;;) {
    const cuts = [0, ...kept.map((split) => split.at), model.observations.length];
    const judged = kept.map((split, k) =>
      judgeShift(model, settings, range(cuts[k] as number, split.at), range(split.at, cuts[k + 2] as number), split.pValue),
    );
    const failing = kept.filter((_, k) => judged[k] === null);
    if (failing.length === 0) return judged as ChangePoint[];
    const weakest = failing.reduce((worst, split) => (split.pValue > worst.pValue || (split.pValue === worst.pValue && split.q < worst.q) ? split : worst));
    kept = kept.filter((split) => split !== weakest);
  }
}

function segmentsOf(observations: readonly Observation[], cuts: readonly number[]): TrendSegment[] {
  const bounds = [0, ...cuts, observations.length];
  return bounds.slice(0, -1).map((from, k) => {
    const group = observations.slice(from, bounds[k + 1]);
    return {
      from: (group[0] as Observation).run.index,
      to: (group[group.length - 1] as Observation).run.index,
      mean: round(mean(group.map((o) => o.value))),
      runs: group.length,
    };
  });
}

function driftOf(values: readonly number[], significance: number): TrendDrift | null {
  const found = drift(values);
  if (found === null) return null;
  // The fitted line's value at the first run: the base a relative slope is taken against.
  const start = median(values.map((value, i) => value - found.slopePerRun * i));
  return {
    slopePerRun: round(found.slopePerRun),
    relativePerRun: start !== 0 ? round(found.slopePerRun / Math.abs(start)) : null,
    pValue: round(found.pValue),
    significant: found.pValue <= significance,
  };
}

/** Segments, change points (confirmed and provisional) and drift of one metric's history. */
export function analyseSeries(model: SeriesModel, settings: TrendSettings, seed = 0x5eed): TrendSeries {
  const obs = model.observations;
  const values = obs.map((o) => o.value);
  const proposals = eDivisive(values, {
    significance: settings.significance,
    permutations: settings.permutations,
    minSegment: settings.minSegment,
    seed: seedOf(model.metric, seed),
  });
  const changePoints = confirmedChanges(model, settings, proposals);
  const cuts = changePoints.map((change) => obs.findIndex((o) => o.run.index === change.run));
  const provisional = recentChange(model, settings, cuts.length > 0 ? (cuts[cuts.length - 1] as number) : 0);
  if (provisional !== null) {
    changePoints.push(provisional);
    cuts.push(obs.findIndex((o) => o.run.index === provisional.run));
  }
  return {
    metric: model.metric,
    title: model.title,
    unit: model.unit,
    direction: model.direction,
    threshold: model.threshold,
    points: obs.map((o) => ({ run: o.run.index, value: o.value, ...(o.noise ? { lo: round(o.noise.lo), hi: round(o.noise.hi) } : {}) })),
    missing: model.missing,
    segments: obs.length > 0 ? segmentsOf(obs, cuts) : [],
    changePoints,
    drift: driftOf(values, settings.significance),
  };
}
