/**
 * load.achieved (docs/design.md §5.4): was the load the profile planned actually driven? A
 * run whose streams could not be held (a proxy that queues them, a target that refuses them)
 * or whose open-model rate fell short (slots dropped at maxInFlight) measured a lighter load than it
 * claims, however green its other checks. Pure: reads the time series, the driven plan and the
 * request counters.
 */
import { integrateStages } from '../../contract/profile/driven-plan.js';
import { type PlannedStage, type RunPlan, valueAt } from '../../contract/profile/stage-plan.js';
import type { CheckResult, TimeseriesPoint } from '../../contract/report.js';
import { formatNumber, type NumberStyle } from '../../util/en-us-number.js';
import { fail, passOnEvidence, skip } from './check-result.js';

/** The least share of the plan a healthy run achieves: reopen backoff, switches and open latency cost a little. */
export const MIN_ACHIEVED_SHARE = 0.95;
/**
 * Streams judged over less than this are held to SHORT_WINDOW_MIN_SHARE: one slow switch or
 * stall weighs more in a few seconds, while what the check is for reads far lower (healthy
 * short runs against a queueing proxy: docs/design.md §5.4).
 */
export const SHORT_WINDOW_MS = 10_000;
export const SHORT_WINDOW_MIN_SHARE = 0.9;

/** What one request scenario was asked to drive and drove. */
export interface RequestLoad {
  /** A built-in request scenario, or a request kind as `requests.<name>`. */
  scenario: 'photoUpload' | 'tagLink' | `requests.${string}`;
  model: 'open' | 'closed';
  /** Open model: slots planned (the schedule's, capped by the plan up to the run's end), started, started late (said, not short), dropped. */
  planned: number;
  started: number;
  late: number;
  dropped: number;
  /**
   * Closed model: connections asked for, and connection errors (each a connection lost and
   * opened again); `started` is then the requests completed (answered or failed).
   */
  connections: number;
  connectionErrors: Readonly<Record<string, number>>;
  /** Closed model: how long after the run's start (and its first second's grace) the connections opened. */
  lateStartMs?: number;
  /** Open model: of the late slots, those started more than RAMP_SETTLE_MS late: not the planned shape, so short. */
  overdue?: number;
  /** Open model: started requests that never reached the target (`net:*`, `timeout:connect`, `proxy:<nnn>`), by failure code. */
  unreached?: Readonly<Record<string, number>>;
}

export interface LoadInputs {
  /** The plan as driven (chat capped at the fixtures' participants, a shard's share). */
  plan: RunPlan;
  timeseries: readonly TimeseriesPoint[];
  warmupMs: number;
  /** How long the load ran: the plan's duration, or less when the run was stopped (the stop, before the drain after it). */
  runMs: number;
  /**
   * A stopped run: the end of the last interval every driver process closed before its stop
   * (0: none). Absent (a merge of shards): the last point that ended by `runMs`.
   */
  closedBeforeStopMs?: number;
  /** 2 when each participant holds a main stream beside its chat stream, else 1. */
  streamsPerParticipant: number;
  requests: readonly RequestLoad[];
  /** Said after the detail: what the judged plan leaves out (workers lost under a `continue` policy). */
  note?: string;
}

/** Stream-seconds held against planned over a window, and per stage where the plan has several. */
export interface StreamSecondsJudged {
  fromMs: number;
  toMs: number;
  held: number;
  planned: number;
  /** Mean streams held over the last judged interval, and planned at the window's end. */
  heldAtEnd: number;
  plannedAtEnd: number;
  stages: { name: string; held: number; planned: number }[];
}

/**
 * Time given to the opens of the first ramp to be answered before the streams are judged: the
 * last participants of a ramp ask for their streams at its end, and the first seconds of a run
 * also warm the driver and the target.
 */
export const RAMP_SETTLE_MS = 1_000;
/** The least of a run the streams are judged on: a shorter run is judged on its last second (on all of it when shorter still). */
export const MIN_JUDGED_MS = 1_000;

/**
 * The window the streams are judged on: from the end of the warm-up, and no earlier than
 * RAMP_SETTLE_MS after the initial ramp (rising from 0 to the end of the first stage that brings
 * anyone online), to the end of
 * the load (the plan's, or the run's when it was stopped). Every stage after that is judged.
 * A run too short for that is judged on its last MIN_JUDGED_MS, never skipped.
 */
export function judgedWindow(stages: readonly PlannedStage[], warmupMs: number, runMs: number, planMs: number): { fromMs: number; toMs: number } {
  const toMs = Math.max(0, Math.min(runMs, planMs));
  // The initial ramp: from a start at 0 to the end of the first stage that brings anyone online (a step included).
  const rampIndex = stages[0]?.from === 0 ? stages.findIndex((stage) => stage.to > 0) : -1;
  // A stage split in parts (a driver worker lost inside it: scaleStagesFrom) ends with its last part.
  let rampEndMs = rampIndex >= 0 ? stages[rampIndex]!.endMs : null;
  for (let i = rampIndex + 1; rampIndex >= 0 && i < stages.length && stages[i]!.name === stages[rampIndex]!.name && stages[i]!.startMs === rampEndMs; i++) {
    rampEndMs = stages[i]!.endMs;
  }
  const fromMs = Math.max(warmupMs, rampEndMs !== null ? rampEndMs + RAMP_SETTLE_MS : 0);
  return { fromMs: Math.max(0, Math.min(fromMs, toMs - MIN_JUDGED_MS)), toMs };
}

/** Interval edges jitter by a few ms; an interval starting this close before the window is inside it. */
const EDGE_MS = 50;
/** The time series' points hold their times to the ms (timeseries.ts). */
const ROUNDING_MS = 1;

/**
 * Where a stopped run's streams are judged to: the end of the last interval closed by the stop
 * (docs/design.md §5.4, a stopped run). The interval the stop fell in holds the load before it
 * and the drain after it, streams closing, in one count that cannot be told apart. `closedMs`:
 * that end, as the driver processes noted it (0: none closed, the run is judged to the stop);
 * without it (a merge of shards), the last point ended by the stop. A run that was not stopped: its `runMs`.
 */
export function stoppedLoadEndMs(points: readonly TimeseriesPoint[], runMs: number, planMs: number, closedMs?: number): number {
  // The plan's own end timer can fire a millisecond early (recorder.ts): that run was not stopped.
  if (!(runMs < planMs - EDGE_MS)) return runMs;
  if (closedMs === 0) return runMs;
  // That interval's end as its point has it (the series rounds to the ms): the window then ends
  // exactly where the point does, and no sliver of the next point, the drain's, is judged after it.
  const byMs = (closedMs ?? runMs) + ROUNDING_MS;
  let endMs = 0;
  for (const point of points) if (point.intervalSec > 0 && point.tSec * 1_000 <= byMs) endMs = Math.max(endMs, point.tSec * 1_000);
  return endMs > 0 ? endMs : runMs;
}

/**
 * The points judged: those starting inside the window (an interval that straddles its start
 * holds the ramp's or the warm-up's seconds, which proration would spread over the judged part),
 * or the last one overlapping it when none starts inside (a run too short for more).
 */
function pointsIn(points: readonly TimeseriesPoint[], window: { fromMs: number; toMs: number }): TimeseriesPoint[] {
  const overlapping = points.filter((p) => p.intervalSec > 0 && p.tSec * 1_000 > window.fromMs && (p.tSec - p.intervalSec) * 1_000 < window.toMs);
  const inside = overlapping.filter((p) => (p.tSec - p.intervalSec) * 1_000 >= window.fromMs - EDGE_MS);
  return inside.length > 0 ? inside : overlapping.slice(-1);
}

/**
 * Time-weighted streams held (the judged points' stream-seconds, the last prorated to its part
 * before the window's end) against the plan integrated over exactly the same time, so an
 * interval missing from the series costs neither side. Null when no point counts stream-seconds
 * (a report older than the counter).
 */
export function judgeStreamSeconds(
  points: readonly TimeseriesPoint[],
  stages: readonly PlannedStage[],
  streamsPerParticipant: number,
  window: { fromMs: number; toMs: number },
): StreamSecondsJudged | null {
  if (!points.some((point) => point.streamSeconds !== undefined)) return null;
  const names = [...new Set(stages.map((stage) => stage.name))];
  const byStage = new Map(names.map((name) => [name, { name, held: 0, planned: 0 }]));
  const judgedPoints = pointsIn(points, window);
  const firstMs = judgedPoints[0] ? (judgedPoints[0].tSec - judgedPoints[0].intervalSec) * 1_000 : window.fromMs;
  const judged: StreamSecondsJudged = { fromMs: Math.max(0, firstMs), toMs: window.toMs, held: 0, planned: 0, heldAtEnd: 0, plannedAtEnd: 0, stages: [] };
  // Points of processes merged side by side (shards by `coachbench merge`) take the longest of
  // their intervals, so neighbours can overlap: each second is judged once, from where the previous point ended.
  let judgedUntilMs = 0;
  let last: { fromMs: number; toMs: number } | null = null;
  for (const point of judgedPoints) {
    const endMs = point.tSec * 1_000;
    const a = Math.max(0, endMs - point.intervalSec * 1_000, judgedUntilMs);
    const b = Math.min(endMs, window.toMs);
    if (!(b > a)) continue;
    judgedUntilMs = b;
    const peak = point.streamsOpen + point.mainStreamsOpen;
    // The last interval runs on past the end of the load while the streams close (the drain,
    // the settle): what it held counts up to its peak over the part inside the window, not
    // spread evenly over its whole length.
    const cut = endMs > window.toMs;
    const heldPerMs = cut ? Math.min(point.streamSeconds ?? 0, (peak * (b - a)) / 1_000) / (b - a) : (point.streamSeconds ?? 0) / (point.intervalSec * 1_000);
    judged.held += heldPerMs * (b - a);
    judged.planned += integrateStages(stages, a, b) * streamsPerParticipant;
    // The mean over the last interval, never above its peak (a sweep's worth of held time can land in the next interval).
    judged.heldAtEnd = Math.min(heldPerMs * 1_000, peak);
    last = { fromMs: a, toMs: b };
    for (const stage of stages) {
      const from = Math.max(a, stage.startMs);
      const to = Math.min(b, stage.endMs);
      if (!(to > from)) continue;
      const entry = byStage.get(stage.name)!;
      entry.held += heldPerMs * (to - from);
      entry.planned += integrateStages(stages, from, to) * streamsPerParticipant;
    }
  }
  // Planned over the same last interval as heldAtEnd, its mean: a plan that changes inside it
  // (a ramp down, a dead worker's share left out from its last interval) is read as the
  // streams were, not at its last instant against the interval's mean.
  judged.plannedAtEnd =
    (last === null ? valueAt(stages, window.toMs - 1e-6) : integrateStages(stages, last.fromMs, last.toMs) / ((last.toMs - last.fromMs) / 1_000)) *
    streamsPerParticipant;
  judged.stages = [...byStage.values()].filter((stage) => stage.planned > 0);
  return judged;
}

const pct = (share: number): string => `${Math.round(share * 1_000) / 10} %`;
const WHOLE: NumberStyle = { maxFractionDigits: 0, minFractionDigits: 0, grouping: true };
/** As `toLocaleString('en-US')` writes it, without starting ICU (util/en-us-number.ts). */
const whole = (n: number): string => formatNumber(Math.round(n), WHOLE);
const sec = (ms: number): string => `${Math.round(ms / 100) / 10} s`;

interface Part {
  /** Achieved share of the plan, 0..1 (or more). */
  share: number;
  /** The least share that passes. */
  bound: number;
  /** What was planned and achieved, and where a shortfall was. */
  text: string;
}

function streamPart(judged: StreamSecondsJudged): Part {
  const share = judged.held / judged.planned;
  const worst = judged.stages.length > 1 ? judged.stages.reduce((w, s) => (s.held / s.planned < w.held / w.planned ? s : w)) : null;
  const bound = judged.toMs - judged.fromMs < SHORT_WINDOW_MS ? SHORT_WINDOW_MIN_SHARE : MIN_ACHIEVED_SHARE;
  const where = worst && share < bound ? `, least in stage ${worst.name} (${pct(worst.held / worst.planned)})` : '';
  return {
    share,
    bound,
    text:
      `held ${pct(share)} of planned stream-seconds (${whole(judged.held)} of ${whole(judged.planned)} from ${sec(judged.fromMs)} to ${sec(judged.toMs)}${where}); ` +
      `${whole(judged.heldAtEnd)} of ${whole(judged.plannedAtEnd)} streams at the end`,
  };
}

/** `spanMs`: how long the load ran (the plan's end, or the stop). */
function requestPart(load: RequestLoad, spanMs: number): Part | null {
  if (load.model === 'open') {
    if (!(load.planned > 0)) return null;
    // A late slot still arrived: its delay is in the latency (timed from its intended start)
    // and in generator.behind, so it is said here but not counted short.
    const started = Math.min(load.started, load.planned);
    // Neither started nor dropped: due before the schedule began (a scenario slow to get ready) or at the stop.
    const neverStarted = Math.floor(load.planned - started - load.dropped);
    // Started, but refused at the connection or answered by a proxy: load the target never received.
    const failed = Object.values(load.unreached ?? {}).reduce((a, b) => a + b, 0);
    // Started more than the grace late: owed while the scenario was not ready (or the driver stalled), sent as a burst.
    const overdue = load.overdue ?? 0;
    const reached = Math.max(0, started - failed - overdue);
    const codes = Object.entries(load.unreached ?? {})
      .sort((a, b) => b[1] - a[1])
      .map(([code, n]) => `${code}: ${whole(n)}`)
      .join(', ');
    return {
      share: reached / load.planned,
      bound: MIN_ACHIEVED_SHARE,
      text:
        `${load.scenario} started ${pct(started / load.planned)} of ${whole(load.planned)} planned arrivals (${whole(load.dropped)} dropped at maxInFlight; ${whole(load.late)} started late)` +
        (neverStarted > 0 ? `; ${whole(neverStarted)} never started (due before its schedule began, or as the run stopped)` : '') +
        (overdue > 0 ? `; ${whole(overdue)} started more than ${sec(RAMP_SETTLE_MS)} late, not on the planned schedule` : '') +
        (failed > 0 ? `; ${whole(failed)} never reached the target (${codes})` : '') +
        (failed + overdue > 0 ? `: ${pct(reached / load.planned)} reached it on schedule` : ''),
    };
  }
  if (!(load.connections > 0)) return null;
  const errors = Object.values(load.connectionErrors).reduce((a, b) => a + b, 0);
  const kinds = Object.entries(load.connectionErrors)
    .sort((a, b) => b[1] - a[1])
    .map(([code, n]) => `${code}: ${n}`)
    .join(', ');
  if (errors > 0) {
    return {
      share: 0,
      bound: MIN_ACHIEVED_SHARE,
      text: `${load.scenario} could not hold its ${load.connections} closed-model connections: ${errors} connection errors (${kinds})`,
    };
  }
  // Connections held but nothing completed on them (every request still waiting when the run
  // ended) is no load driven: the target, or an intermediary in front of it, answered nothing.
  if (!(load.started > 0)) {
    return {
      share: 0,
      bound: MIN_ACHIEVED_SHARE,
      text: `${load.scenario} completed no request on its ${load.connections} closed-model connections (none answered or failed by the end of the run)`,
    };
  }
  // Connections opened late (a slow setup) held the load for only the rest of the run: what the plan asked past the grace is short.
  const span = spanMs - RAMP_SETTLE_MS;
  const lateMs = load.lateStartMs ?? 0;
  const share = lateMs > 0 && span > 0 ? Math.max(0, 1 - lateMs / span) : 1;
  const late = share < 1 ? `, opened ${sec(lateMs + RAMP_SETTLE_MS)} into the run: held for ${pct(share)} of it past its first second` : '';
  return {
    share,
    bound: MIN_ACHIEVED_SHARE,
    text: `${load.scenario} held its ${load.connections} closed-model connections (${whole(load.started)} requests completed${late})`,
  };
}

/** The check: fails when any part of the load fell below its bound (MIN_ACHIEVED_SHARE, or less for a short window); observed is the least share, in %. */
export function loadAchieved(inputs: LoadInputs): CheckResult {
  const parts: Part[] = [];
  const notes: string[] = [];
  const chat = inputs.plan.scenarios.find((scenario) => scenario.unit === 'participants');
  if (chat) {
    const loadEndMs = stoppedLoadEndMs(inputs.timeseries, inputs.runMs, inputs.plan.durationMs, inputs.closedBeforeStopMs);
    const window = judgedWindow(chat.stages, inputs.warmupMs, loadEndMs, inputs.plan.durationMs);
    const judged = judgeStreamSeconds(inputs.timeseries, chat.stages, inputs.streamsPerParticipant, window);
    if (judged === null) notes.push('streams not judged: the report predates stream-second counting');
    else if (judged.planned > 0) parts.push(streamPart(judged));
  }
  for (const load of inputs.requests) {
    const part = requestPart(load, Math.min(inputs.runMs, inputs.plan.durationMs));
    if (part) parts.push(part);
  }
  if (parts.length === 0) return skip('load.achieved', notes[0] ?? 'nothing was planned: no participant, no open-model arrival, no closed-model connection');
  if (inputs.note) parts[parts.length - 1]!.text += ` (${inputs.note})`;
  const least = Math.min(...parts.map((part) => part.share));
  const observed = Math.round(least * 1_000) / 10;
  const short = parts.filter((part) => part.share < part.bound);
  if (short.length > 0) {
    const bounds = [...new Set(short.map((part) => pct(part.bound)))].join(' or ');
    return fail('load.achieved', observed, `${short.map((part) => part.text).join('; ')} (at least ${bounds} is required)`);
  }
  return passOnEvidence('load.achieved', Math.max(observed, 0.1), parts.map((part) => part.text).join('; '), 'nothing was planned');
}
