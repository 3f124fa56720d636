/**
 * Judges thresholds while the run goes on (docs/design.md §5.5): every sliding-window
 * threshold (`p99[5m] < 250`) over the last window at the end of each interval, and every
 * `abortOnFail` threshold, so that a bad five minutes inside a good hour fails the run, and
 * an abort rule stops the load the interval it fails instead of hours later.
 * Fed only the intervals after the profile's warm-up.
 */
import type { AbortRule } from '../contract/profile/profile.js';
import type { StageWindow } from '../contract/profile/stage-plan.js';
import type { AbortInfo, ThresholdResult } from '../contract/report.js';
import { readMetric } from './metric-catalog.js';
import { MetricSet } from './metric-set.js';
import type { MetricView } from './metric-view.js';
import { SlidingWindow } from './sliding-window.js';
import { compareWith, type ParsedThreshold, type ThresholdOp } from './thresholds.js';

export interface ThresholdMonitorOptions {
  thresholds: readonly ParsedThreshold[];
  abortOnFail: readonly AbortRule[];
  /** Summaries of a MetricSet (metricView with the run's context). */
  view: (set: MetricSet) => MetricView;
  /** Called once, the first time an abortOnFail threshold fails past its delayAbortEval. */
  onAbort: (info: AbortInfo) => void;
  /** The profile's named stages (docs/design.md §2.11): each keeps the sum of its intervals. */
  stages?: readonly StageWindow[];
}

/** A named stage and the intervals (after warm-up) whose middle falls inside it, summed. */
export interface StageTotal {
  window: StageWindow;
  set: MetricSet;
  intervals: number;
}

interface Judged {
  value: number;
  fromSec: number;
  toSec: number;
}

interface WindowTrack {
  threshold: ParsedThreshold;
  window: SlidingWindow;
  evaluated: number;
  worst: Judged | null;
  firstFailure: Judged | null;
}

const round = (sec: number): number => Math.round(sec * 1_000) / 1_000;

/** Whether `a` is further on the failing side of `op` than `b`. */
function worse(op: ThresholdOp, a: number, b: number): boolean {
  if (op === '<' || op === '<=') return a > b;
  if (op === '>' || op === '>=') return a < b;
  return false;
}

export class ThresholdMonitor {
  /** Every interval after warm-up, summed: what whole-run thresholds are judged on. */
  readonly total = new MetricSet();
  private readonly windows = new Map<number, SlidingWindow>();
  private readonly tracks: WindowTrack[] = [];
  private readonly delayOf = new Map<string, number>();
  private abortInfo: AbortInfo | null = null;
  private readonly stageTotals: StageTotal[];

  constructor(private readonly options: ThresholdMonitorOptions) {
    this.stageTotals = (options.stages ?? []).map((window) => ({ window, set: new MetricSet(), intervals: 0 }));
    for (const rule of options.abortOnFail) this.delayOf.set(rule.expression.trim(), rule.delayAbortEvalMs);
    for (const threshold of options.thresholds) {
      if (threshold.windowMs === null) continue;
      const lengthSec = threshold.windowMs / 1_000;
      let window = this.windows.get(lengthSec);
      if (!window) {
        window = new SlidingWindow(lengthSec);
        this.windows.set(lengthSec, window);
      }
      this.tracks.push({ threshold, window, evaluated: 0, worst: null, firstFailure: null });
    }
  }

  /** The abort decided so far, or null. */
  get aborted(): AbortInfo | null {
    return this.abortInfo;
  }

  /** One interval after warm-up (called in order; `interval` is not kept). */
  ingest(interval: MetricSet, startSec: number, endSec: number): void {
    this.total.add(interval);
    this.addToStages(interval, startSec, endSec);
    if (this.windows.size > 0) {
      const encoded = interval.encode();
      for (const window of this.windows.values()) window.push(interval, encoded, startSec, endSec);
    }
    const views = new Map<SlidingWindow, MetricView>();
    for (const track of this.tracks) {
      if (!track.window.full) continue;
      if (!views.has(track.window)) views.set(track.window, this.options.view(track.window.sum));
      this.judgeWindow(track, views.get(track.window) as MetricView, endSec);
    }
    this.judgeWholeRunAborts(endSec);
  }

  /** An interval belongs to the stage its middle falls in: edges jitter by milliseconds, stages last seconds. */
  private addToStages(interval: MetricSet, startSec: number, endSec: number): void {
    const middleMs = ((startSec + endSec) / 2) * 1_000;
    let touched = false;
    for (const stage of this.stageTotals) {
      if (middleMs < stage.window.startMs || middleMs >= stage.window.endMs) continue;
      stage.set.add(interval);
      stage.intervals += 1;
      touched = true;
    }
    if (touched) this.judgeStageAborts(endSec);
  }

  /** Every named stage with what it saw (the report's per-stage tables). */
  stages(): readonly StageTotal[] {
    return this.stageTotals;
  }

  /** A stage threshold over its stage so far: a stage that has already failed need not wait for its end to stop the load. */
  private judgeStageAborts(endSec: number): void {
    if (this.abortInfo !== null) return;
    for (const threshold of this.options.thresholds) {
      if (threshold.stage === null || !this.delayOf.has(threshold.expression)) continue;
      const stage = this.stageTotals.find((total) => total.window.name === threshold.stage);
      if (!stage || stage.intervals === 0) continue;
      const value = readMetric(this.options.view(stage.set), threshold.metric);
      const window = { fromSec: stage.window.startMs / 1_000, toSec: round(endSec) };
      if (value !== null && !compareWith(value, threshold.op, threshold.limit)) this.maybeAbort(threshold, value, window, endSec);
    }
  }

  /** A run that ended before a window filled is judged once over what it has. */
  finish(): void {
    for (const track of this.tracks) {
      if (track.evaluated === 0 && !track.window.empty) this.judgeWindow(track, this.options.view(track.window.sum), track.window.toSec);
    }
  }

  /** The result of every sliding-window and stage threshold, by expression. */
  windowResults(): Map<string, ThresholdResult> {
    const results = new Map<string, ThresholdResult>();
    for (const threshold of this.options.thresholds) {
      if (threshold.stage !== null) results.set(threshold.expression, judgeStage(threshold, this.stageTotals, this.options.view));
    }
    for (const { threshold, evaluated, worst, firstFailure } of this.tracks) {
      const shown = firstFailure ?? worst;
      results.set(threshold.expression, {
        expression: threshold.expression,
        // No window with data fails, as a metric absent from the whole run does.
        status: firstFailure === null && worst !== null ? 'pass' : 'fail',
        observed: shown?.value ?? null,
        window: { fromSec: shown?.fromSec ?? 0, toSec: shown?.toSec ?? 0, evaluated },
      });
    }
    return results;
  }

  private judgeWindow(track: WindowTrack, view: MetricView, endSec: number): void {
    track.evaluated += 1;
    const value = readMetric(view, track.threshold.metric);
    // An empty window (no message delivered in it) is no evidence either way.
    if (value === null) return;
    const judged = { value, fromSec: round(track.window.fromSec), toSec: round(track.window.toSec) };
    const held = compareWith(value, track.threshold.op, track.threshold.limit);
    if (!held && track.firstFailure === null) track.firstFailure = judged;
    if (track.worst === null || worse(track.threshold.op, value, track.worst.value)) track.worst = judged;
    if (!held) this.maybeAbort(track.threshold, value, { fromSec: judged.fromSec, toSec: judged.toSec }, endSec);
  }

  private judgeWholeRunAborts(endSec: number): void {
    if (this.abortInfo !== null) return;
    let view: MetricView | null = null;
    for (const threshold of this.options.thresholds) {
      if (threshold.windowMs !== null || threshold.stage !== null || !this.delayOf.has(threshold.expression)) continue;
      view ??= this.options.view(this.total);
      const value = readMetric(view, threshold.metric);
      if (value !== null && !compareWith(value, threshold.op, threshold.limit)) this.maybeAbort(threshold, value, null, endSec);
    }
  }

  private maybeAbort(threshold: ParsedThreshold, observed: number, window: AbortInfo['window'], endSec: number): void {
    const delayMs = this.delayOf.get(threshold.expression);
    if (this.abortInfo !== null || delayMs === undefined || endSec * 1_000 < delayMs) return;
    this.abortInfo = { expression: threshold.expression, atSec: round(endSec), observed, window };
    this.options.onAbort(this.abortInfo);
  }
}

/**
 * A stage threshold over its whole stage. A stage with no interval after the warm-up (a step,
 * or one inside the warm-up) is no evidence: it fails with observed null, as an absent metric does.
 */
export function judgeStage(threshold: ParsedThreshold, stages: readonly StageTotal[], view: (set: MetricSet) => MetricView): ThresholdResult {
  const stage = stages.find((total) => total.window.name === threshold.stage);
  const value = stage && stage.intervals > 0 ? readMetric(view(stage.set), threshold.metric) : null;
  const status = value !== null && compareWith(value, threshold.op, threshold.limit) ? 'pass' : 'fail';
  const result: ThresholdResult = { expression: threshold.expression, status, observed: value };
  // The stage's span and how many intervals it judged, in the shape a sliding window reports.
  if (stage) result.window = { fromSec: stage.window.startMs / 1_000, toSec: stage.window.endMs / 1_000, evaluated: stage.intervals };
  return result;
}
