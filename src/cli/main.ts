/**
 * yargs wiring for every command. Returns an exit code; bin/coachbench.js is the one
 * place that calls process.exit. Usage errors print one line and return 2.
 */
import yargs, { type Argv } from 'yargs';
import { ConfigError, ExitCode } from '../util/errors.js';
import { redact } from '../util/redact.js';
import { VERSION } from '../util/version.js';
import type { CliCommand } from './cli-command.js';
import { compareCommand } from './compare.js';
import { mergeCommand } from './merge.js';
import { profilesCommand } from './profiles.js';
import { reportCommand } from './report.js';
import { runCommand } from './run.js';
import { serveCommand } from './serve.js';

// Commands keep their own typed args; the list only needs the common shape.
const COMMANDS = [runCommand, serveCommand, reportCommand, compareCommand, mergeCommand, profilesCommand] as unknown as CliCommand[];

/** Formats any thrown value as the one line a user sees. Never a stack trace. */
export function describeError(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return redact(message.split('\n')[0] ?? message);
}

export async function main(argv: string[]): Promise<number> {
  let exitCode: number = ExitCode.ok;
  let parser: Argv = yargs(argv)
    .scriptName('coachbench')
    .version(VERSION)
    .strict()
    .recommendCommands()
    .wrap(Math.min(110, process.stdout.columns || 100))
    .help()
    .alias('h', 'help')
    .fail((message, error) => {
      // Throwing stops yargs here: without it, a command would still run after a usage error.
      if (message) throw new ConfigError(`${message} (see coachbench --help)`);
      throw error;
    });
  for (const command of COMMANDS) {
    parser = parser.command(command.command, command.describe, command.builder, async (args) => {
      exitCode = await command.run(args as Record<string, unknown>);
    });
  }
  // `coachbench` alone runs the smoke profile against the embedded target.
  const effectiveArgv = argv.length === 0 ? ['run'] : argv;
  try {
    await parser.demandCommand(1, 'name a command: run, serve, report, compare, merge, profiles').parseAsync(effectiveArgv);
  } catch (error) {
    const code = (error as { exitCode?: number }).exitCode;
    if (typeof code === 'number') {
      process.stderr.write(`coachbench: ${describeError(error)}\n`);
      return code;
    }
    // Not a usage or start error: a bug. Still one line, unless asked for the stack.
    const stack = process.env.COACHBENCH_DEBUG ? `\n${redact((error as Error).stack ?? '')}` : ' (COACHBENCH_DEBUG=1 shows the stack)';
    process.stderr.write(`coachbench: internal error: ${describeError(error)}${stack}\n`);
    return ExitCode.unreachable;
  }
  return exitCode;
}
