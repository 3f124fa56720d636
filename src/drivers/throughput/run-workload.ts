/**
 * Drives a workload in the profile's model. The closed model's module (autocannon and its
 * dependencies, costly to load: docs/benchmarks.md) is loaded only by runs that use it, and before the
 * run's clock starts (`prepareWorkloadModel`, from a scenario's `prepare`), never mid-run.
 */
import type { ThroughputSettings } from '../../contract/profile/profile.js';
import type { ScenarioContext } from '../../engine/scenario.js';
import { runOpenModel } from './open-model.js';
import type { Workload } from './workload.js';

type ClosedModelModule = typeof import('./closed-model.js');
let closedModel: Promise<ClosedModelModule> | undefined;

/** Loads what `settings.model` runs on (the closed model's module; the open model is always loaded); once per process. */
export async function prepareWorkloadModel(settings: ThroughputSettings & { enabled: boolean }): Promise<void> {
  if (settings.enabled && settings.model === 'closed') await loadClosedModel();
}

function loadClosedModel(): Promise<ClosedModelModule> {
  closedModel ??= import('./closed-model.js');
  return closedModel;
}

/** Runs `workload` until the run ends, open or closed as `settings.model` says. */
export async function runWorkload<M>(ctx: ScenarioContext, settings: ThroughputSettings, workload: Workload<M>): Promise<void> {
  if (settings.model !== 'closed') return runOpenModel(ctx, settings, workload);
  const { runClosedModel } = await loadClosedModel();
  return runClosedModel(ctx, settings, workload);
}
