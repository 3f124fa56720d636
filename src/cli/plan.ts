/** `coachbench plan PROFILE`: the load a profile will apply, stage by stage, without running it. */

import { type PlanFlags, runPlan } from '../orchestration/commands/plan.js';
import { defineCommand } from './cli-command.js';
import { textOption } from './flag-values.js';

export const planCommand = defineCommand<PlanFlags>({
  command: 'plan <profile>',
  describe: "print a profile's planned load over time (stages per scenario) without running it",
  builder: (yargs) =>
    yargs
      .positional('profile', { type: 'string', describe: 'built-in profile name or profile file' })
      .option('json', { type: 'boolean', describe: 'print the plan as JSON (the same object as report.json "plan")' })
      .option('shard', textOption('--shard', { describe: 'also show what shard I of N applies (e.g. 0/4); with --json, under "shard"' }))
      .example('$0 plan release', 'the release profile: ramp, peak, spike and ramp-down, stage by stage')
      .example('$0 plan my-profile.jsonc --shard 1/4', 'what the second of four shards will apply')
      .example('$0 plan release --json | jq .windows', 'the stage names thresholds can use')
      .example('$0 plan release --json --shard 0/4 | jq .shard', 'the first of four shards: its index, count and share of every stage') as never,
  run: runPlan,
});
