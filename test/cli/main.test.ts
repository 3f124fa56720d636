/**
 * What main() makes of what a command throws (docs/design.md §2.9, §2.10): a ConfigError is
 * 2, a StartError 3, anything else a defect: 4, one line, the stack only with
 * COACHBENCH_DEBUG=1. Every line is safe for a terminal and free of registered secrets.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { type CliCommand, defineCommand } from '../../src/cli/cli-command.js';
import { directCommand } from '../../src/cli/main.js';
import { ConfigError, ExitCode, StartError } from '../../src/util/errors.js';
import { registerSecret } from '../../src/util/redact.js';
import { runCli } from '../support/run-cli.js';

/** A command that throws whatever the test hands it: the one way to reach a defect on purpose. */
function throwing(thrown: () => unknown): CliCommand[] {
  const command = defineCommand<Record<string, unknown>>({
    command: 'explode',
    describe: 'throws',
    builder: (yargs) => yargs as never,
    run: async () => {
      throw thrown();
    },
  });
  return [command as CliCommand];
}

const originalDebug = process.env.COACHBENCH_DEBUG;
afterEach(() => {
  if (originalDebug === undefined) delete process.env.COACHBENCH_DEBUG;
  else process.env.COACHBENCH_DEBUG = originalDebug;
});

describe('main: exit codes of what a command throws', () => {
  it('a ConfigError is a usage error: 2 and its message', async () => {
    const result = await runCli(
      ['explode'],
      throwing(() => new ConfigError('--x: wrong')),
    );
    expect(result).toEqual({ code: ExitCode.usage, stdout: '', stderr: 'coachbench: --x: wrong\n' });
  });

  it('a StartError is 3', async () => {
    const result = await runCli(
      ['explode'],
      throwing(() => new StartError('target http://127.0.0.1:9 is not reachable')),
    );
    expect(result.code).toBe(ExitCode.unreachable);
    expect(result.stderr).toBe('coachbench: target http://127.0.0.1:9 is not reachable\n');
  });

  it('anything else is an internal error: 4, one line, no stack', async () => {
    delete process.env.COACHBENCH_DEBUG;
    const result = await runCli(
      ['explode'],
      throwing(() => new TypeError("Cannot read properties of undefined (reading 'p99')\n    at nowhere")),
    );
    expect(result.code).toBe(ExitCode.internal);
    expect(result.stderr).toBe(
      "coachbench: internal error: Cannot read properties of undefined (reading 'p99'); please report it (COACHBENCH_DEBUG=1 adds the stack)\n",
    );
  });

  it('a thrown non-Error is an internal error too', async () => {
    const result = await runCli(
      ['explode'],
      throwing(() => 'a string'),
    );
    expect(result.code).toBe(ExitCode.internal);
    expect(result.stderr).toMatch(/^coachbench: internal error: a string; please report it/);
  });

  it('COACHBENCH_DEBUG=1 adds the stack after the line', async () => {
    process.env.COACHBENCH_DEBUG = '1';
    const result = await runCli(
      ['explode'],
      throwing(() => new RangeError('out of range')),
    );
    expect(result.code).toBe(ExitCode.internal);
    const [line, ...stack] = result.stderr.trimEnd().split('\n');
    expect(line).toBe('coachbench: internal error: out of range; please report it');
    expect(stack[0]).toBe('RangeError: out of range');
    expect(stack.some((frame) => /^\s+at /.test(frame))).toBe(true);
  });

  it('escapes control characters and masks registered secrets in the line', async () => {
    registerSecret('s3cr3t-key-123456');
    const result = await runCli(
      ['explode'],
      throwing(() => new ConfigError('bad \u001b[2Jvalue s3cr3t-key-123456')),
    );
    expect(result.stderr).toBe('coachbench: bad \\x1b[2Jvalue ***\n');
  });
});

describe("main: yargs' own output", () => {
  /** A command whose help text holds a terminal escape (an OSC that retitles the window). */
  const titled = [
    defineCommand<Record<string, unknown>>({
      command: 'titled',
      describe: 'says \u001b]0;owned\u0007 in its help',
      builder: (yargs) => yargs.option('mode', { type: 'string', describe: 'a \u009b2J mode' }) as never,
      run: async () => ExitCode.ok,
    }) as CliCommand,
  ];

  it('writes help through the printable path, escapes and all, to stdout', async () => {
    const result = await runCli(['titled', '--help'], titled);
    expect(result.code).toBe(ExitCode.ok);
    expect(result.stdout).toContain('says \\x1b]0;owned\\x07 in its help');
    expect(result.stdout).toContain('a \\x9b2J mode');
    for (const raw of ['\u001b', '\u0007', '\u009b']) expect(result.stdout).not.toContain(raw);
    expect(result.stderr).toBe('');
  });

  it('writes --version and the completion script the same way, once each', async () => {
    const version = await runCli(['--version'], titled);
    expect(version.stdout).toMatch(/^\d+\.\d+\.\d+\S*\n$/);
    const completion = await runCli(['completion'], titled);
    expect(completion.code).toBe(ExitCode.ok);
    expect(completion.stdout.match(/###-begin-coachbench-completions-###/g)).toHaveLength(1);
  });
});

describe('main: a command named first runs as the default command of a parser of its own', () => {
  let seen: Record<string, unknown> | null = null;
  const commands = [
    defineCommand<Record<string, unknown>>({
      command: 'open <file>',
      describe: 'opens a file',
      builder: (yargs) => yargs.positional('file', { type: 'string' }).option('mode', { type: 'string', describe: 'how' }) as never,
      run: async (args) => {
        seen = args;
        return ExitCode.ok;
      },
    }) as CliCommand,
    defineCommand<Record<string, unknown>>({
      command: 'other',
      describe: 'another',
      builder: (yargs) => yargs as never,
      run: async () => ExitCode.ok,
    }) as CliCommand,
  ];
  const named = (argv: string[]): string | undefined => directCommand(argv, commands)?.command;

  it('is chosen unless the line asks yargs for help, the version or a completion before any --', () => {
    expect(named(['open', 'a.json', '--mode', 'x'])).toBe('open <file>');
    expect(named(['open', 'a.json', '--', '--help'])).toBe('open <file>');
    for (const asks of [['--help'], ['-h'], ['-xh'], ['--help=true'], ['--no-help'], ['--version'], ['--get-yargs-completions', 'op']]) {
      expect(named(['open', 'a.json', ...asks]), asks.join(' ')).toBeUndefined();
    }
    expect(named(['nosuch'])).toBeUndefined();
    expect(named(['--help'])).toBeUndefined();
    expect(named([])).toBeUndefined();
  });

  it('gets its positionals and flags, and the same usage errors as through the full parser', async () => {
    seen = null;
    expect((await runCli(['open', 'a.json', '--mode', 'fast'], commands)).code).toBe(ExitCode.ok);
    expect(seen).toMatchObject({ file: 'a.json', mode: 'fast' });
    expect(await runCli(['open', 'a.json', '--bogus'], commands)).toEqual({
      code: ExitCode.usage,
      stdout: '',
      stderr: 'coachbench: Unknown argument: bogus (see coachbench open --help)\n',
    });
    expect((await runCli(['open'], commands)).stderr).toBe(
      'coachbench: Not enough non-option arguments: got 0, need at least 1 (see coachbench open --help)\n',
    );
    const help = await runCli(['open', '--help'], commands);
    expect(help.code).toBe(ExitCode.ok);
    expect(help.stdout).toContain('coachbench open <file>');
    expect(help.stdout).toContain('--mode');
  });
});
