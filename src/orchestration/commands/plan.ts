/** The work of `coachbench plan` (src/cli/plan.ts declares its flags). */
import { drivenPlan, shardValue } from '../../contract/profile/driven-plan.js';
import { loadProfile } from '../../contract/profile/load-profile.js';
import { arrivalsOf, runPlanOf } from '../../contract/profile/run-plan.js';
import type { RunPlan, ScenarioPlan } from '../../contract/profile/stage-plan.js';
import type { ShardInfo } from '../../contract/report.js';
import { type PlanShare, renderMixText, renderPlanText } from '../../report/render-plan.js';
import { ExitCode } from '../../util/errors.js';
import { printableJson, terminalText } from '../../util/printable.js';
import { checkShardFits } from '../profile-share.js';
import { parseShard, refuseShardedSearch } from '../run-config.js';

export interface PlanFlags {
  profile: string;
  json?: boolean;
  shard?: string;
}

/** `plan --json --shard I/N`: the whole run's plan, and under `shard` which shard this is and its share of every stage. */
interface ShardedPlan extends RunPlan {
  shard: ShardInfo & { scenarios: ScenarioPlan[] };
}

/**
 * What shard `shard` applies of a value: the participants of its ranks, 1/N of a rate
 * (docs/design.md §2.11), the figures the shard's report.json `plan` holds (shardValue).
 */
function shareOf(shard: ShardInfo, plan: RunPlan): PlanShare {
  const { index, count } = shard;
  const applies = [
    ...(plan.scenarios.some((scenario) => scenario.unit === 'participants')
      ? [`the participants of ranks ${index}, ${index + count}, ${index + 2 * count}, …`]
      : []),
    ...(plan.scenarios.some((scenario) => scenario.unit === 'requests/s') ? [`1/${count} of every rate`] : []),
  ];
  return {
    label: `shard ${index}/${count}`,
    of: (scenario, value) => shardValue(plan.scenarios.find((s) => s.scenario === scenario)?.unit ?? 'requests/s', value, shard),
    ...(applies.length > 0 ? { applies: applies.join(' and ') } : {}),
  };
}

/** The shard's scenarios are its report's `plan` of them, with nothing capping the population (no fixtures file is read here). */
function shardedPlan(plan: RunPlan, shard: ShardInfo): ShardedPlan {
  const { scenarios } = drivenPlan(plan, { participants: null, shard });
  return { ...plan, shard: { index: shard.index, count: shard.count, scenarios } };
}

export async function runPlan(flags: PlanFlags): Promise<number> {
  // plan takes its profile as an argument, not as --profile: an error names what was typed.
  const profile = await loadProfile(flags.profile, 'profile');
  const plan = runPlanOf(profile);
  const shard = flags.shard === undefined ? null : checkShardFits(parseShard(flags.shard), profile, null);
  // No shard of a capacity search runs (`run --shard` refuses it): no shard plan to show either.
  if (shard !== null) refuseShardedSearch(profile);
  if (flags.json) {
    process.stdout.write(`${printableJson(shard ? shardedPlan(plan, shard) : plan)}\n`);
    return ExitCode.ok;
  }
  process.stdout.write(terminalText(renderPlanText(plan, profile.source, shard ? shareOf(shard, plan) : undefined, arrivalsOf(profile).schedules)));
  if (profile.requests) process.stdout.write(terminalText(`\n${renderMixText(profile.requests)}`));
  return ExitCode.ok;
}
