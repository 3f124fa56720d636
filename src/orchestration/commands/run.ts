/** The work of `coachbench run` (src/cli/run.ts declares its flags). */
import { terminalText } from '../../util/printable.js';
import { executeRun } from '../execute-run.js';
import { describeOutcome } from '../outcome-line.js';
import { type RunFlags, resolveRunConfig } from '../run-config.js';

export type { RunFlags } from '../run-config.js';

export async function runRun(flags: RunFlags): Promise<number> {
  const config = await resolveRunConfig(flags, process.env);
  const outcome = await executeRun(config);
  // Even with --quiet, which silences the progress only (docs/design.md §2.2): the verdict, what
  // failed and where the report is are the one record a CI log keeps of the run.
  process.stderr.write(terminalText(`${describeOutcome(outcome)}\n`));
  return outcome.exitCode;
}
