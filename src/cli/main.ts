/**
 * yargs wiring for every command. Returns an exit code (docs/design.md §2.9);
 * bin/coachbench.js is the one place that calls process.exit. Usage errors print one line
 * and return 2; an unexpected exception prints one line and returns 4.
 */
import yargs, { type Argv } from 'yargs';
import { ConfigError, ExitCode } from '../util/errors.js';
import { escapeInvisible, printable, terminalText } from '../util/printable.js';
import { redact } from '../util/redact.js';
import { VERSION } from '../util/version.js';
import type { CliCommand } from './cli-command.js';
import { compareCommand } from './compare.js';
import { mergeCommand } from './merge.js';
import { planCommand } from './plan.js';
import { profilesCommand } from './profiles.js';
import { reportCommand } from './report.js';
import { runCommand, SMOKE_RUN_EXAMPLE } from './run.js';
import { serveCommand } from './serve.js';
import { trendCommand } from './trend.js';

// For bin/coachbench.js, which has only this module of the bundle to call.
export { tolerateClosedOutput } from '../util/closed-output.js';

// Commands keep their own typed args; the list only needs the common shape.
const COMMANDS = [
  runCommand,
  serveCommand,
  reportCommand,
  compareCommand,
  trendCommand,
  mergeCommand,
  profilesCommand,
  planCommand,
] as unknown as readonly CliCommand[];

/** Codes an error may carry (ConfigError 2, StartError 3, ...); anything else thrown is a defect (4). */
const EXPECTED_FAILURE_CODES: ReadonlySet<number> = new Set(Object.values(ExitCode).filter((code) => code !== ExitCode.ok && code !== ExitCode.internal));

/** Formats any thrown value as the one line a user sees: first line only, secrets masked, invisible characters escaped. */
export function describeError(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return escapeInvisible(redact(message.split('\n')[0] ?? message));
}

/** The line (and, with COACHBENCH_DEBUG=1, the stack) for an exception nobody expected: a coachbench defect. */
export function describeInternalError(error: unknown): string {
  const line = `coachbench: internal error: ${describeError(error)}; please report it`;
  if (process.env.COACHBENCH_DEBUG !== '1') return `${line} (COACHBENCH_DEBUG=1 adds the stack)`;
  const stack = error instanceof Error && error.stack ? terminalText(redact(error.stack)) : '';
  return `${line}\n${stack}`;
}

/**
 * A usage error as one line. yargs' own wording gets the command's help as a pointer;
 * a flag value refused in flag-values.ts already starts with the flag and says what it wants.
 */
function usageLine(message: string, argv: readonly string[], commands: readonly CliCommand[]): string {
  const first = argv[0] ?? '';
  if (message.startsWith('Did you mean')) return `unknown command "${first}"; ${message.charAt(0).toLowerCase()}${message.slice(1)}`;
  if (message.startsWith('--')) return message;
  // A flag before any command: yargs says only "name a command" (or misreads what follows), never naming the flag.
  if (first.startsWith('-')) return `${printable(first)}: a flag before the command; name the command first, then its flags (see coachbench --help)`;
  const known = commands.some((command) => command.command.split(' ')[0] === first);
  return `${message} (see coachbench ${known ? `${first} ` : ''}--help)`;
}

/** A flag that makes yargs answer by itself (help, version, shell completion): such a command line takes the full parser. */
const ANSWERED_BY_YARGS = /^(--(no-)?(help|version)(=.*)?|-[A-Za-z]*h[A-Za-z]*|--get-yargs-completions.*)$/;

const COMPLETION = 'completion';
const COMPLETION_DESCRIBE = 'print a bash/zsh completion script (coachbench completion >> ~/.bashrc)';

/** A flag asking for help: `--help`, `-h`, or `-h` among other short flags. */
const ASKS_HELP = /^(--help(=.*)?|-[A-Za-z]*h[A-Za-z]*)$/;

/**
 * `completion --help`: yargs answers its completion command with the script before it looks
 * at --help, so for help the command is declared as an ordinary one, which yargs describes.
 */
function asksCompletionHelp(argv: readonly string[]): boolean {
  const end = argv.indexOf('--');
  return argv[0] === COMPLETION && (end === -1 ? argv : argv.slice(0, end)).some((arg) => ASKS_HELP.test(arg));
}

/**
 * The command `argv` names first, when nothing in it asks yargs for help, the version or a
 * completion. After running a command, yargs renders that command's whole help text, printed
 * or not, unless it is the parser's default command: most of the CLI's share of a run's start
 * (docs/benchmarks.md, "A run's fixed cost"). Such a command is parsed as the one, default
 * command of a parser of its own, with the same flags, checks and messages.
 */
export function directCommand(argv: readonly string[], commands: readonly CliCommand[]): CliCommand | undefined {
  const rest = argv.slice(1);
  const end = rest.indexOf('--');
  if ((end === -1 ? rest : rest.slice(0, end)).some((arg) => ANSWERED_BY_YARGS.test(arg))) return undefined;
  return commands.find((command) => command.command.split(' ')[0] === argv[0]);
}

function buildParser(argv: readonly string[], commands: readonly CliCommand[], setExitCode: (code: number) => void, direct: CliCommand | undefined): Argv {
  let parser: Argv = yargs(direct ? argv.slice(1) : [...argv])
    .scriptName('coachbench')
    .usage('$0 <command> [options]\n\nLoad tests and stream soaks for the Participant Coaching Service API.')
    .version(VERSION)
    .strict()
    .recommendCommands()
    // --help, --version and completion return through main() like everything else.
    .exitProcess(false)
    .wrap(Math.min(110, process.stdout.columns || 100))
    .help()
    .alias('h', 'help')
    .fail((message, error) => {
      // Throwing stops yargs here: without it, a command would still run after a usage error.
      if (error instanceof ConfigError) throw error;
      if (message) throw new ConfigError(usageLine(message, argv, commands));
      throw error;
    });
  const handler = (command: CliCommand) => async (args: Record<string, unknown>) => {
    setExitCode(await command.run(args));
  };
  // `run ...` as `$0 ...`: the same positionals, flags and handler, as the parser's default command.
  if (direct) return parser.command(direct.command.replace(/^\S+/, '$0'), direct.describe, direct.builder, handler(direct));
  for (const command of commands) parser = parser.command(command.command, command.describe, command.builder, handler(command));
  parser = asksCompletionHelp(argv) ? parser.command(COMPLETION, COMPLETION_DESCRIBE) : parser.completion(COMPLETION, COMPLETION_DESCRIBE);
  return parser
    .example('$0 run', SMOKE_RUN_EXAMPLE)
    .example('$0 run -p release -t https://staging.example.com -f fixtures.json', 'a 20-minute gate against a real service')
    .example('$0 compare baseline/report.json candidate/report.json', 'exit 1 when a metric regressed')
    .demandCommand(1, 'name a command');
}

/** Runs the command line `argv` (without node and the script) and returns the exit code. */
export async function main(argv: string[], commands: readonly CliCommand[] = COMMANDS): Promise<number> {
  let exitCode: number = ExitCode.ok;
  const direct = directCommand(argv, commands);
  const parser = buildParser(
    argv,
    commands,
    (code) => {
      exitCode = code;
    },
    direct,
  );
  if (argv.length === 0) {
    // A usage error like any other, but the whole help says more than one line could.
    process.stderr.write(terminalText(`${await parser.getHelp()}\n\ncoachbench: name a command (coachbench run runs the smoke profile)\n`));
    return ExitCode.usage;
  }
  // yargs' own output (help, --version, the completion script) comes back here rather than
  // through console.log, to leave by the one printable path as everything else does.
  let yargsOutput = '';
  const keepOutput = (_error: unknown, _parsed: unknown, output: string): void => {
    yargsOutput = output;
  };
  try {
    await parser.parseAsync(direct ? argv.slice(1) : [...argv], {}, keepOutput);
  } catch (error) {
    const code = (error as { exitCode?: unknown }).exitCode;
    if (typeof code === 'number' && EXPECTED_FAILURE_CODES.has(code)) {
      process.stderr.write(terminalText(`coachbench: ${describeError(error)}\n`));
      return code;
    }
    process.stderr.write(terminalText(`${describeInternalError(error)}\n`));
    return ExitCode.internal;
  }
  if (yargsOutput !== '') process.stdout.write(terminalText(`${yargsOutput}\n`));
  return exitCode;
}
