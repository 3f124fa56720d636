/**
 * The planned load as chart lines (docs/design.md §2.11), drawn under the achieved open
 * streams and request rate so a reader sees where the run fell behind its plan.
 */
import type { RunPlan, ScenarioPlan } from '../../contract/profile/stage-plan.js';
import { valueAt } from '../../contract/profile/stage-plan.js';
import type { LineSeries } from '../svg/line-chart.js';

/** The sum of the plans at every corner of any of them: exact for piecewise-linear shapes, steps drawn upright. */
function plannedLine(name: string, plans: readonly ScenarioPlan[], durationMs: number): LineSeries | null {
  if (plans.length === 0) return null;
  const corners = [...new Set([0, durationMs, ...plans.flatMap((plan) => plan.stages.flatMap((stage) => [stage.startMs, stage.endMs]))])]
    .filter((ms) => ms <= durationMs)
    .sort((a, b) => a - b);
  const sum = (ms: number): number => plans.reduce((total, plan) => total + valueAt(plan.stages, ms), 0);
  const points: Array<readonly [number, number]> = [];
  for (const ms of corners) {
    // Just before a step its old value, at it the new one: the line rises or falls upright.
    const before = ms > 0 ? sum(ms - 1e-6) : sum(0);
    if (Math.abs(before - sum(ms)) > 1e-9) points.push([ms / 1_000, before]);
    points.push([ms / 1_000, sum(ms)]);
  }
  return { name, points };
}

/** The name of the planned population's line, in the report's charts and the live dashboard's. */
export const PLANNED_PARTICIPANTS = 'planned (participants)';

export function plannedStreams(plan: RunPlan | undefined): LineSeries | null {
  const chat = plan?.scenarios.filter((scenario) => scenario.scenario === 'chatStreams') ?? [];
  return plannedLine(PLANNED_PARTICIPANTS, chat, plan?.durationMs ?? 0);
}

export function plannedRequestRate(plan: RunPlan | undefined): LineSeries | null {
  const rates = plan?.scenarios.filter((scenario) => scenario.unit === 'requests/s') ?? [];
  return plannedLine('planned requests/s', rates, plan?.durationMs ?? 0);
}
