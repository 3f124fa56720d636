/**
 * The plan as a report's processes could drive it (docs/design.md §2.11): the chat population
 * capped at the participants the fixtures file holds (the driver cannot bring more online),
 * and a shard's share of every scenario. report.json `plan`, the planned line of the charts,
 * the progress line and load.achieved all read this, so they say what was driven.
 */
import { dealtPopulationShare } from '../../util/dealt-share.js';
import { type PlannedStage, type RunPlan, type ScenarioPlan, valueAt } from './stage-plan.js';

/**
 * The stages with every value held at `cap` or below. A stage that crosses the cap is split
 * where it does (both parts keep its name): a linear ramp to 300 capped at 200 rises to 200 at
 * two thirds of its time and holds, as the driver's population does.
 */
export function capStages(stages: readonly PlannedStage[], cap: number): PlannedStage[] {
  const out: PlannedStage[] = [];
  for (const stage of stages) {
    const { from, to, startMs, endMs } = stage;
    if (from <= cap && to <= cap) {
      out.push(stage);
      continue;
    }
    if (from >= cap && to >= cap) {
      out.push({ ...stage, from: cap, to: cap });
      continue;
    }
    // Crosses the cap once, rising or falling.
    const crossMs = startMs + ((cap - from) / (to - from)) * (endMs - startMs);
    out.push({ ...stage, endMs: crossMs, from: Math.min(from, cap), to: cap });
    out.push({ ...stage, startMs: crossMs, from: cap, to: Math.min(to, cap) });
  }
  return out;
}

export interface DrivenShare {
  /** Participants the whole run can hold (the profile's, or fewer when the fixtures file has fewer); null: no cap. */
  participants: number | null;
  /** The shard this report is, or null for a whole run (also a merged one). */
  shard: { index: number; count: number } | null;
}

/**
 * What shard `index` of `count` drives of a scenario's planned value (docs/design.md §2.11):
 * of a population, the participants of its ranks (rank mod count), whole, as its driver holds
 * them; of a rate, 1/count. `plan --shard` shows these figures and a shard's report.json
 * `plan` holds them, and the shards' shares sum to the whole run's value.
 */
export function shardValue(unit: ScenarioPlan['unit'], value: number, shard: { index: number; count: number }): number {
  return unit === 'participants' ? dealtPopulationShare(value, shard.index, shard.count) : value / shard.count;
}

/**
 * The run's plan as driven: chat capped at `participants`, then the shard's share of every
 * value (shardValue: the participants of its ranks, 1/N of every rate).
 */
export function drivenPlan(plan: RunPlan, share: DrivenShare): RunPlan {
  const { shard } = share;
  const scenarios = plan.scenarios.map((scenario) => {
    let stages = scenario.stages;
    if (scenario.unit === 'participants' && share.participants !== null) stages = capStages(stages, share.participants);
    if (shard !== null && shard.count > 1)
      stages = stages.map((stage) => ({ ...stage, from: shardValue(scenario.unit, stage.from, shard), to: shardValue(scenario.unit, stage.to, shard) }));
    return stages === scenario.stages ? scenario : { ...scenario, stages };
  });
  return { ...plan, scenarios };
}

/** The chat population planned at `ms` into the run (0 when chat streams are off). */
export function plannedParticipantsAt(plan: RunPlan, ms: number): number {
  const chat = plan.scenarios.find((scenario) => scenario.unit === 'participants');
  return chat ? valueAt(chat.stages, ms) : 0;
}

/** The integral of piecewise-linear `stages` from `fromMs` to `toMs`, in value × seconds (participant-seconds, or requests). */
export function integrateStages(stages: readonly PlannedStage[], fromMs: number, toMs: number): number {
  if (!(toMs > fromMs)) return 0;
  // Corners of the shape inside the window: between two, the value is linear (trapezoids are exact).
  const corners = [fromMs, toMs, ...stages.flatMap((stage) => [stage.startMs, stage.endMs])].filter((ms) => ms >= fromMs && ms <= toMs).sort((a, b) => a - b);
  let sum = 0;
  for (let i = 1; i < corners.length; i++) {
    const a = corners[i - 1]!;
    const b = corners[i]!;
    if (b <= a) continue;
    // Just inside each end, so a step (a zero-length stage) at a corner counts on the side it belongs to.
    const span = b - a;
    const va = valueAt(stages, a + span * 1e-9);
    const vb = valueAt(stages, b - span * 1e-9);
    sum += ((va + vb) / 2) * (span / 1_000);
  }
  return sum;
}
