/**
 * The resolved timeline of a whole run: every scenario's shape as stages, also for profiles
 * written without stages (their ramp-and-hold or constant rate is the same shape in stage
 * form), so `coachbench plan`, the report's planned shape and the drivers read one answer.
 * A profile read back from an older report has no `stages` at all: `!= null` treats that as none.
 */
import type { Profile } from './profile.js';
import { type ArrivalsPlan, type PlannedStage, type RunPlan, type ScenarioPlan, stageWindows } from './stage-plan.js';

/** Whether the profile shapes any load with stages (then `--duration` is refused). */
export function hasStages(profile: Profile): boolean {
  const kinds = profile.requests?.kinds ?? [];
  return (
    profile.chatStreams.stages != null || profile.photoUpload.stages != null || profile.tagLink.stages != null || kinds.some((kind) => kind.stages != null)
  );
}

/** Chat participants without stages: ramp at rampPerSec to `participants`, then hold to the end. */
export function legacyPopulation(participants: number, rampPerSec: number, durationMs: number): PlannedStage[] {
  const rampMs = Math.min(durationMs, (participants / rampPerSec) * 1_000);
  const reached = (participants * rampMs) / ((participants / rampPerSec) * 1_000);
  const stages: PlannedStage[] = [{ name: 'ramp', named: false, startMs: 0, endMs: rampMs, from: 0, to: reached }];
  if (rampMs < durationMs) stages.push({ name: 'hold', named: false, startMs: rampMs, endMs: durationMs, from: reached, to: reached });
  return stages;
}

function populationPlan(profile: Profile): ScenarioPlan | null {
  const chat = profile.chatStreams;
  if (!chat.enabled) return null;
  const stages = chat.stages ?? legacyPopulation(chat.participants, chat.rampPerSec, profile.durationMs);
  return { scenario: 'chatStreams', unit: 'participants', stages, explicit: chat.stages != null };
}

function ratePlan(profile: Profile, scenario: 'photoUpload' | 'tagLink'): ScenarioPlan | null {
  const settings = profile[scenario];
  if (!settings.enabled || settings.model !== 'open') return null;
  const stages = settings.stages ?? [
    { name: 'rate', named: false, startMs: 0, endMs: profile.durationMs, from: settings.ratePerSec, to: settings.rampToPerSec },
  ];
  return { scenario, unit: 'requests/s', stages, explicit: settings.stages != null };
}

/** Each open-model request kind's rate as stages, keyed `requests.<name>` (docs/design.md §2.15). */
function kindPlans(profile: Profile): ScenarioPlan[] {
  return (profile.requests?.kinds ?? []).flatMap((kind): ScenarioPlan[] => {
    if (!kind.enabled || kind.model !== 'open') return [];
    const stages = kind.stages ?? [{ name: 'rate', named: false, startMs: 0, endMs: profile.durationMs, from: kind.ratePerSec, to: kind.rampToPerSec }];
    return [{ scenario: `requests.${kind.name}`, unit: 'requests/s', stages, explicit: kind.stages != null }];
  });
}

/**
 * The arrival process of each open-model schedule that runs (uploads and tags in the open
 * model, injected messages at a rate above 0). A profile read back from an older report has
 * no `arrivals`: uniform.
 */
export function arrivalsOf(profile: Profile): ArrivalsPlan {
  const schedules: ArrivalsPlan['schedules'] = [];
  for (const workload of ['photoUpload', 'tagLink'] as const) {
    const settings = profile[workload];
    if (settings.enabled && settings.model === 'open') schedules.push({ workload, process: settings.arrivals ?? 'uniform' });
  }
  for (const kind of profile.requests?.kinds ?? []) {
    if (kind.enabled && kind.model === 'open') schedules.push({ workload: `requests.${kind.name}`, process: kind.arrivals ?? 'uniform' });
  }
  const chat = profile.chatStreams;
  if (chat.enabled && chat.messageRatePerSec > 0) schedules.push({ workload: 'chatMessages', process: chat.messageArrivals ?? 'uniform' });
  return { seed: profile.seed ?? 1, schedules };
}

export function runPlanOf(profile: Profile): RunPlan {
  const scenarios = [populationPlan(profile), ratePlan(profile, 'photoUpload'), ratePlan(profile, 'tagLink'), ...kindPlans(profile)].filter(
    (plan): plan is ScenarioPlan => plan !== null,
  );
  // Named windows come from every scenario's stages, a request kind's (the mix's, or its own load's) included.
  const byScenario = Object.fromEntries(scenarios.map((plan) => [plan.scenario, plan.stages]));
  const arrivals = arrivalsOf(profile);
  const poisson = arrivals.schedules.some((schedule) => schedule.process === 'poisson');
  return { durationMs: profile.durationMs, scenarios, windows: stageWindows(byScenario, profile.source), ...(poisson ? { arrivals } : {}) };
}
