/**
 * Stages: a load shape as data (docs/design.md §2.11). A scenario's plan is a list of stages,
 * each a linear ramp from the value before it to its target over its duration (k6 `stages`,
 * `ramping-arrival-rate`); a zero duration is a step (a spike), "hold" keeps the value.
 * The value is a population of participants for chat streams and an arrival rate (req/s)
 * for photo upload and tag link. Pure: the driver, `coachbench plan`, the report's planned
 * shape and per-stage thresholds all read the same numbers from here.
 */
import { MAX_DURATION_MS, MAX_DURATION_TEXT } from '../../util/duration.js';
import { ConfigError } from '../../util/errors.js';

const DAY_MS = 86_400_000;

/** The scenarios that can have stages, and what their value means. */
export const STAGED_SCENARIOS = ['chatStreams', 'photoUpload', 'tagLink'] as const;
export type StagedScenario = (typeof STAGED_SCENARIOS)[number];

/** A stage as resolved: times from the run's start, in ms. */
export interface PlannedStage {
  /** As written, else `stage-N` (1-based) for display. */
  name: string;
  /** Named in the profile: only named stages are windows for thresholds and per-stage tables. */
  named: boolean;
  startMs: number;
  endMs: number;
  /** Value at startMs (the previous stage's end, or the scenario's start value). */
  from: number;
  /** Value at endMs. */
  to: number;
}

/** A stage as written in a profile, its duration already in ms. */
export interface StageSpec {
  durationMs: number;
  target: number | 'hold';
  name?: string | undefined;
}

/** Resolves written stages into a timeline starting at `startValue` (0 unless said otherwise). */
export function planStages(specs: readonly StageSpec[], where: string, startValue = 0): PlannedStage[] {
  if (specs.length === 0) throw new ConfigError(`${where}: stages must not be empty`);
  const stages: PlannedStage[] = [];
  let atMs = 0;
  let value = startValue;
  specs.forEach((spec, i) => {
    const to = spec.target === 'hold' ? value : spec.target;
    if (!Number.isFinite(to) || to < 0) throw new ConfigError(`${where}[${i}].target: must be a number >= 0 or "hold"`);
    if (!Number.isFinite(spec.durationMs) || spec.durationMs < 0) throw new ConfigError(`${where}[${i}].duration: must be 0 or more`);
    stages.push({ name: spec.name ?? `stage-${i + 1}`, named: spec.name !== undefined, startMs: atMs, endMs: atMs + spec.durationMs, from: value, to });
    atMs += spec.durationMs;
    value = to;
  });
  const total = stages.at(-1)!.endMs;
  if (total <= 0) throw new ConfigError(`${where}: the stages must last longer than 0s in all`);
  // Each stage is at most 7d, so their sum could not be bounded by the duration parser alone.
  if (total > MAX_DURATION_MS)
    throw new ConfigError(`${where}: the stages last ${+(total / DAY_MS).toFixed(2)}d in all, longer than the maximum, ${MAX_DURATION_TEXT}`);
  const names = new Set<string>();
  for (const stage of stages) {
    if (!stage.named) continue;
    if (names.has(stage.name)) throw new ConfigError(`${where}: stage name "${stage.name}" is used twice`);
    names.add(stage.name);
  }
  return stages;
}

/** The end of the last stage. */
export function stagesEndMs(stages: readonly PlannedStage[]): number {
  return stages.at(-1)?.endMs ?? 0;
}

/**
 * The planned value at `ms` after the start. At a step (a zero-length stage) the value is the
 * step's target from that instant on; after the last stage the last target holds.
 */
export function valueAt(stages: readonly PlannedStage[], ms: number): number {
  let value = stages[0]?.from ?? 0;
  for (const stage of stages) {
    if (ms < stage.startMs) return value;
    if (ms >= stage.endMs) {
      value = stage.to;
      continue;
    }
    return stage.from + ((stage.to - stage.from) * (ms - stage.startMs)) / (stage.endMs - stage.startMs);
  }
  return value;
}

/** One scenario's shape over the run. */
export interface ScenarioPlan {
  /** A built-in scenario, or a request kind as `requests.<name>` (docs/design.md §2.15). */
  scenario: StagedScenario | `requests.${string}`;
  /** What the values count. */
  unit: 'participants' | 'requests/s';
  stages: PlannedStage[];
  /** Written as stages in the profile (else the ramp-and-hold or constant rate as stages). */
  explicit: boolean;
}

export interface RunPlan {
  durationMs: number;
  scenarios: ScenarioPlan[];
  /** Named windows (`{stage:NAME}`), from stages named in the profile. */
  windows: StageWindow[];
  /** How each open-model schedule places its arrivals; present only when one is Poisson (docs/design.md §6). */
  arrivals?: ArrivalsPlan;
}

/** The arrival process of every open-model schedule of a run, and the seed Poisson ones draw from. */
export interface ArrivalsPlan {
  seed: number;
  schedules: Array<{ workload: 'photoUpload' | 'tagLink' | 'chatMessages' | `requests.${string}`; process: 'uniform' | 'poisson' }>;
}

/** A named window of the run: what `{stage:NAME}` in a threshold refers to. */
export interface StageWindow {
  name: string;
  startMs: number;
  endMs: number;
}

/**
 * The run's named windows, in time order (unnamed stages are none). A name used by several
 * scenarios must mean the same window in each (a threshold on `{stage:peak}` could not otherwise say which it judges).
 */
export function stageWindows(plans: Partial<Record<StagedScenario | `requests.${string}`, readonly PlannedStage[]>>, where: string): StageWindow[] {
  const byName = new Map<string, StageWindow & { scenario: string }>();
  // The built-ins first, then the request kinds in the profile's order (docs/design.md §2.15).
  const kinds = Object.keys(plans).filter((scenario) => scenario.startsWith('requests.'));
  for (const scenario of [...STAGED_SCENARIOS, ...kinds] as const) {
    for (const stage of plans[scenario as StagedScenario] ?? []) {
      if (!stage.named) continue;
      const seen = byName.get(stage.name);
      if (!seen) {
        byName.set(stage.name, { name: stage.name, startMs: stage.startMs, endMs: stage.endMs, scenario });
      } else if (seen.startMs !== stage.startMs || seen.endMs !== stage.endMs) {
        throw new ConfigError(
          `${where}: stage "${stage.name}" is ${fmt(seen)} in ${seen.scenario} but ${fmt(stage)} in ${scenario}; a shared name must mean the same window`,
        );
      }
    }
  }
  return [...byName.values()].map(({ name, startMs, endMs }) => ({ name, startMs, endMs })).sort((a, b) => a.startMs - b.startMs || a.endMs - b.endMs);
}

function fmt(window: { startMs: number; endMs: number }): string {
  return `${window.startMs / 1_000}s..${window.endMs / 1_000}s`;
}

/** Every stage's values multiplied by `factor` (a shard's or worker's share of a rate). */
export function scaleStages(stages: readonly PlannedStage[], factor: number): PlannedStage[] {
  return stages.map((stage) => ({ ...stage, from: stage.from * factor, to: stage.to * factor }));
}

/**
 * `stages` with each value multiplied, from each step's `fromMs` on, by that step's `factor`
 * (1 before the first; steps sorted by time): a stage a step falls inside is split there, both
 * parts keeping its name.
 */
export function scaleStagesFrom(stages: readonly PlannedStage[], steps: readonly { fromMs: number; factor: number }[]): PlannedStage[] {
  const factorAt = (ms: number): number => steps.reduce((factor, step) => (ms >= step.fromMs ? step.factor : factor), 1);
  const out: PlannedStage[] = [];
  for (const stage of stages) {
    const cuts = steps.map((step) => step.fromMs).filter((ms) => ms > stage.startMs && ms < stage.endMs);
    const edges = [stage.startMs, ...cuts, stage.endMs];
    for (let i = 1; i < edges.length; i++) {
      const [a, b] = [edges[i - 1]!, edges[i]!];
      const at = (ms: number): number => stage.from + ((stage.to - stage.from) * (ms - stage.startMs)) / (stage.endMs - stage.startMs);
      const factor = factorAt(a);
      out.push({
        ...stage,
        startMs: a,
        endMs: b,
        from: (a === stage.startMs ? stage.from : at(a)) * factor,
        to: (b === stage.endMs ? stage.to : at(b)) * factor,
      });
    }
  }
  return out;
}

/** The highest value the plan reaches. */
export function peakOf(stages: readonly PlannedStage[]): number {
  return stages.reduce((peak, stage) => Math.max(peak, stage.from, stage.to), 0);
}
