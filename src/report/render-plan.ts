/**
 * `coachbench plan` as text: every scenario's stages with their times and values, and the
 * share one shard applies when the run is split (docs/design.md §2.11).
 */
import type { RequestsSettings } from '../contract/profile/profile.js';
import type { ArrivalsPlan, RunPlan } from '../contract/profile/stage-plan.js';
import { formatDuration } from '../util/duration.js';

export interface PlanShare {
  /** e.g. "shard 0/2". */
  label: string;
  /** The share of a scenario's value at a point of the plan. */
  of: (scenario: string, value: number) => number;
  /** What the shard applies, in words: "the participants of ranks 1, 4, 7, … and 1/3 of every rate". */
  applies?: string;
}

const at = (ms: number): string => (ms === 0 ? '0s' : formatDuration(ms));
const round = (value: number): string => (Number.isInteger(value) ? String(value) : value.toFixed(2));

function row(cells: readonly string[], widths: readonly number[]): string {
  return cells
    .map((cell, i) => (i < 2 ? cell.padEnd(widths[i]!) : cell.padStart(widths[i]!)))
    .join('  ')
    .trimEnd();
}

const DESCRIBED = { uniform: 'uniform (evenly spaced)', poisson: 'poisson (exponential gaps)' } as const;
const WORKLOAD_NAMES = { photoUpload: 'photoUpload', tagLink: 'tagLink', chatMessages: 'chatStreams messages' } as const;

/**
 * The arrival process of the open-model schedules (plan.arrivals is there only when one is
 * Poisson); nothing when `openSchedules` says the profile has none (a closed model, no message rate).
 */
function arrivalsLine(plan: RunPlan, openSchedules?: ArrivalsPlan['schedules']): string | null {
  if (!plan.arrivals && openSchedules?.length === 0) return null;
  if (!plan.arrivals) return 'arrivals: uniform (evenly spaced) on every open-model schedule';
  const schedules = plan.arrivals.schedules.map(
    (schedule) =>
      `${schedule.workload.startsWith('requests.') ? schedule.workload : WORKLOAD_NAMES[schedule.workload as keyof typeof WORKLOAD_NAMES]} ${DESCRIBED[schedule.process]}`,
  );
  return `arrivals: ${schedules.join(', ')}; seed ${plan.arrivals.seed} (--seed)`;
}

/** `openSchedules`: the profile's open-model schedules (run-plan.ts arrivalsOf), so that a profile without any says nothing of arrivals. */
export function renderPlanText(plan: RunPlan, source: string, share?: PlanShare, openSchedules?: ArrivalsPlan['schedules']): string {
  const header = ['scenario', 'stage', 'start', 'end', 'from', 'to', ...(share ? [`${share.label} start`, `${share.label} end`] : [])];
  const rows = plan.scenarios.flatMap((scenario) =>
    scenario.stages.map((stage) => [
      scenario.scenario,
      stage.name,
      at(stage.startMs),
      at(stage.endMs),
      `${round(stage.from)}`,
      `${round(stage.to)}`,
      ...(share ? [round(share.of(scenario.scenario, stage.from)), round(share.of(scenario.scenario, stage.to))] : []),
    ]),
  );
  const widths = header.map((title, i) => Math.max(title.length, ...rows.map((cells) => cells[i]!.length)));
  const units = plan.scenarios.map((scenario) => `${scenario.scenario} in ${scenario.unit}`).join(', ');
  const lines = [
    `${source}: ${formatDuration(plan.durationMs)} in all; values are ${units || 'none (no scenario has a planned shape)'}`,
    ...(share?.applies ? [`${share.label} applies ${share.applies} (its columns below)`] : []),
    '',
    row(header, widths),
    ...rows.map((cells) => row(cells, widths)),
  ];
  const arrivals = arrivalsLine(plan, openSchedules);
  if (arrivals !== null) lines.push('', arrivals);
  if (plan.windows.length > 0) lines.push('', `named windows for thresholds ({stage:NAME}): ${plan.windows.map((window) => window.name).join(', ')}`);
  return `${lines.join('\n')}\n`;
}

/** The `requests` scenario's kinds (docs/design.md §2.15): each one's share of the mix (or own load), request, and credential. */
export function renderMixText(requests: RequestsSettings): string {
  const load = (kind: RequestsSettings['kinds'][number]): string =>
    kind.model === 'closed'
      ? `closed, ${kind.connections} connections`
      : `open, ${round(kind.ratePerSec)}${kind.rampToPerSec !== kind.ratePerSec ? `..${round(kind.rampToPerSec)}` : ''} req/s`;
  const rows = requests.kinds.map((kind) => [
    kind.name,
    kind.share === null ? 'own load' : `${round(kind.share * 100)}%`,
    load(kind),
    `${kind.method} ${kind.path}`,
    kind.credential,
  ]);
  const header = ['kind', 'share', 'load', 'request', 'credential'];
  const widths = header.map((title, i) => Math.max(title.length, ...rows.map((cells) => cells[i]!.length)));
  const pad = (cells: readonly string[]): string =>
    cells
      .map((cell, i) => cell.padEnd(widths[i]!))
      .join('  ')
      .trimEnd();
  const setup =
    requests.setup.length > 0
      ? [`setup: ${requests.setup.map((step) => `${step.method} ${step.path}`).join(', ')} (once per driver process, before the load)`]
      : [];
  return `${['request mix:', pad(header), ...rows.map(pad), ...setup].join('\n')}\n`;
}
