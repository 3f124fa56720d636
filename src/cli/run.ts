/** `coachbench run`: the main job. With no flags, the smoke profile against the embedded target. */

import { executeRun } from '../orchestration/execute-run.js';
import { describeOutcome } from '../orchestration/outcome-line.js';
import { type RunFlags, resolveRunConfig } from '../orchestration/run-config.js';
import { defineCommand } from './cli-command.js';

export const runCommand = defineCommand<RunFlags>({
  command: 'run',
  describe: 'run a profile against a target (default: the smoke profile against the embedded reference target)',
  builder: (yargs) =>
    yargs
      .option('profile', { alias: 'p', type: 'string', describe: 'built-in profile name or profile file', default: 'smoke' })
      .option('target', { alias: 't', type: 'string', describe: 'target base URL (default: COACHBENCH_TARGET, else the embedded target)' })
      .option('fixtures', { alias: 'f', type: 'string', describe: 'fixtures file: participants, sessions, tokens (required with --target)' })
      .option('duration', { alias: 'd', type: 'string', describe: 'override the profile duration (e.g. 30s, 10m, 2h)' })
      .option('out', { alias: 'o', type: 'string', describe: 'report folder (default: reports/<profile>-<UTC stamp>)' })
      .option('workers', { alias: 'w', type: 'string', describe: 'driver processes on this machine: N or auto' })
      .option('shard', { type: 'string', describe: 'run shard I of N (0-based, e.g. 0/4); merge the reports with coachbench merge' })
      .option('expect-keepalive', { type: 'string', describe: "KEEP_ALIVE interval to hold streams to (default: the embedded target's, else 15s)" })
      .option('threshold', { type: 'string', array: true, describe: 'threshold expression, repeatable (e.g. "chatStreams.eventLatencyMs.p99 < 250")' })
      .option('quiet', { alias: 'q', type: 'boolean', describe: 'no progress output' }) as never,
  run: async (flags) => {
    const config = await resolveRunConfig(flags, process.env);
    const outcome = await executeRun(config);
    if (!config.quiet) process.stderr.write(`${describeOutcome(outcome)}\n`);
    return outcome.exitCode;
  },
});
