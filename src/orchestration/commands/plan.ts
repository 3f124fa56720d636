/** The work of `coachbench plan` (src/cli/plan.ts declares its flags). */
import { loadProfile } from '../../contract/profile/load-profile.js';
import { arrivalsOf, runPlanOf } from '../../contract/profile/run-plan.js';
import { renderMixText, renderPlanText } from '../../report/render-plan.js';
import { ExitCode } from '../../util/errors.js';
import { printableJson, terminalText } from '../../util/printable.js';
import { checkShardFits, populationShare } from '../profile-share.js';
import { parseShard, refuseShardedSearch } from '../run-config.js';

export interface PlanFlags {
  profile: string;
  json?: boolean;
  shard?: string;
}

export async function runPlan(flags: PlanFlags): Promise<number> {
  // plan takes its profile as an argument, not as --profile: an error names what was typed.
  const profile = await loadProfile(flags.profile, 'profile');
  const plan = runPlanOf(profile);
  const shard = flags.shard === undefined ? null : checkShardFits(parseShard(flags.shard), profile, null);
  // No shard of a capacity search runs (`run --shard` refuses it): no shard plan to show either.
  if (shard !== null) refuseShardedSearch(profile);
  if (flags.json) {
    process.stdout.write(`${printableJson(plan)}\n`);
    return ExitCode.ok;
  }
  const share = shard && {
    label: `shard ${shard.index}/${shard.count}`,
    of: (scenario: string, value: number): number => (scenario === 'chatStreams' ? populationShare(value, shard.index, shard.count) : value / shard.count),
  };
  process.stdout.write(terminalText(renderPlanText(plan, profile.source, share ?? undefined, arrivalsOf(profile).schedules)));
  if (profile.requests) process.stdout.write(terminalText(`\n${renderMixText(profile.requests)}`));
  return ExitCode.ok;
}
