/**
 * The `requests` scenario (docs/design.md §2.15): the profile's named request kinds, each
 * driven as a workload of its own (open or closed model, its share of the mix's load or its
 * own) and judged by its own expectations, after the setup requests. Kinds run side by side;
 * each counts under `requests.<name>.` exactly as photo upload counts under `photoUpload.`.
 */
import type { RequestKindSettings } from '../../contract/profile/profile.js';
import { runNotFatal, type Scenario, type ScenarioContext } from '../../engine/scenario.js';
import { recordEvidence } from '../../metrics/checks/evidence.js';
import { kindSkippedName } from '../../metrics/checks/requests-check.js';
import { requestKindKey } from '../../metrics/names.js';
import { splitApiBase } from '../api-base.js';
import { prepareWorkloadModel, runWorkload } from '../throughput/run-workload.js';
import type { Workload } from '../throughput/workload.js';
import { type BuildContext, requestBuilder } from './request-builder.js';
import { expectationJudge, type KindInspection, recordKindEvidence } from './request-expectations.js';
import { runSetup } from './setup-requests.js';

/** Samples key of the scenario's own problems (setup, a kind that cannot run). */
export const REQUESTS_SAMPLES = 'requests';

/** The first of a kind's Poisson random streams (arrival-pacer.ts): above the built-in workloads' keys. */
const KIND_ARRIVAL_KEY = 1_000;

/** One kind as a workload: request `seq` from its templates, judged by its expectations. */
export function kindWorkload(kind: RequestKindSettings, index: number, build: BuildContext): Workload<number> {
  const next = requestBuilder(kind, build);
  const inspect = expectationJudge(kind.expect, `requests.kinds[${index}].expect.schema`);
  const label = `${kind.name} (${kind.method} ${kind.path})`;
  return {
    scenario: requestKindKey(kind.name),
    arrivalKey: KIND_ARRIVAL_KEY + index,
    next: (seq) => ({ spec: next(seq), memo: seq }),
    inspect,
    judge(metrics, _seq, inspection) {
      recordKindEvidence(metrics, kind.name, label, inspection as KindInspection);
      return [];
    },
    label: () => label,
  };
}

async function runKinds(ctx: ScenarioContext, runTag: string): Promise<void> {
  const settings = ctx.profile.requests;
  if (!settings || ctx.fixtures.participants.length === 0) return;
  const kinds = settings.kinds.filter((kind) => kind.enabled);
  if (kinds.length === 0) return;
  let captured = new Map<string, string>();
  if (settings.setup.length > 0) {
    const setup = await runSetup(ctx, settings.setup, runTag, Math.max(...kinds.map((kind) => kind.timeoutMs)));
    if (!setup.ok) {
      // Nothing the kinds would send means anything without the setup's values: the check says why.
      recordEvidence(ctx.metrics, 'requests.expectations', `setup failed, no kind ran: ${setup.reason}`);
      ctx.metrics.sample(REQUESTS_SAMPLES, `setup failed, no kind ran: ${setup.reason}`);
      return;
    }
    captured = setup.captured;
  }
  const { basePath } = splitApiBase(ctx.apiBase);
  await Promise.all(
    settings.kinds.map(async (kind, index) => {
      if (!kind.enabled) return;
      if (kind.credential === 'coach' && !ctx.fixtures.coachToken) {
        ctx.metrics.inc(kindSkippedName(kind.name));
        ctx.metrics.sample(REQUESTS_SAMPLES, `${kind.name}: needs a coach token (fixtures "coachToken" or COACHBENCH_COACH_TOKEN); none given, kind skipped`);
        return;
      }
      const workload = kindWorkload(kind, index, { basePath, fixtures: ctx.fixtures, captured, runTag, name: kind.name });
      await runWorkload(ctx, kind, workload);
    }),
  );
}

/** The scenario; runs only when the profile has a `requests` section. */
export function requestsScenario(runTag: string): Scenario {
  return {
    name: 'requests',
    prepare: async (profile) => {
      for (const kind of profile.requests?.kinds ?? []) await prepareWorkloadModel(kind);
    },
    run: async (ctx) => {
      if (!ctx.profile.requests || ctx.signal.aborted) return;
      await runNotFatal(ctx, REQUESTS_SAMPLES, 'scenario', () => runKinds(ctx, runTag));
    },
  };
}
