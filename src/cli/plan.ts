/** `coachbench plan PROFILE`: the load a profile will apply, stage by stage, without running it. */

import { loadProfile } from '../contract/profile/load-profile.js';
import { runPlanOf } from '../contract/profile/run-plan.js';
import { checkShardFits, populationShare } from '../orchestration/profile-share.js';
import { parseShard } from '../orchestration/run-config.js';
import { renderPlanText } from '../report/render-plan.js';
import { printableJson, terminalText } from '../util/printable.js';
import { defineCommand } from './cli-command.js';
import { textOption } from './flag-values.js';

interface PlanFlags {
  profile: string;
  json?: boolean;
  shard?: string;
}

export const planCommand = defineCommand<PlanFlags>({
  command: 'plan <profile>',
  describe: "print a profile's planned load over time (stages per scenario) without running it",
  builder: (yargs) =>
    yargs
      .positional('profile', { type: 'string', describe: 'built-in profile name or profile file' })
      .option('json', { type: 'boolean', describe: 'print the plan as JSON (the same object as report.json "plan")' })
      .option('shard', textOption('--shard', { describe: 'also show what shard I of N applies (e.g. 0/4)' }))
      .example('$0 plan release', 'the release profile: ramp, peak, spike and ramp-down, stage by stage')
      .example('$0 plan my-profile.jsonc --shard 1/4', 'what the second of four shards will apply')
      .example('$0 plan release --json | jq .windows', 'the stage names thresholds can use') as never,
  run: async (flags) => {
    const profile = await loadProfile(flags.profile);
    const plan = runPlanOf(profile);
    const shard = flags.shard === undefined ? null : checkShardFits(parseShard(flags.shard), profile, null);
    if (flags.json) {
      process.stdout.write(`${printableJson(plan)}\n`);
      return 0;
    }
    const share = shard && {
      label: `shard ${shard.index}/${shard.count}`,
      of: (scenario: string, value: number): number => (scenario === 'chatStreams' ? populationShare(value, shard.index, shard.count) : value / shard.count),
    };
    process.stdout.write(terminalText(renderPlanText(plan, profile.source, share ?? undefined)));
    return 0;
  },
});
