/**
 * docs/design.md §2.1: the synopsis is the contract and each command's --help lists every
 * flag. The two are compared flag by flag, both ways, so that a flag added to a command
 * without its line in the synopsis (or a synopsis flag the command lost) fails here.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ExitCode } from '../../src/util/errors.js';
import { runCli } from '../support/run-cli.js';

/** Each command of the §2.1 code block with the long flags its lines name (`--no-x` as `x`, `-H|--header` as `header`). */
function synopsis(): Map<string, Set<string>> {
  const design = readFileSync('docs/design.md', 'utf8');
  const section = design.slice(design.indexOf('### 2.1 Commands'), design.indexOf('### 2.2 run'));
  const block = /```\n([\s\S]*?)```/.exec(section)?.[1] ?? '';
  const commands = new Map<string, Set<string>>();
  let flags: Set<string> | undefined;
  for (const line of block.split('\n')) {
    const command = /^coachbench (\w+)/.exec(line)?.[1];
    if (command !== undefined) {
      flags = new Set();
      commands.set(command, flags);
    }
    for (const match of line.matchAll(/(?<![\w-])--([a-z][a-z0-9-]*)/g)) flags?.add((match[1] ?? '').replace(/^no-/, ''));
  }
  return commands;
}

/** The long flags of a command's --help, without yargs' own --help and --version. */
function helpFlags(help: string): Set<string> {
  const options = help.slice(help.indexOf('\nOptions:'), help.indexOf('\nExamples:'));
  const flags = [...options.matchAll(/^\s+(?:-\w, )?--([a-z][a-z0-9-]*)/gm)].map((match) => match[1] ?? '');
  return new Set(flags.filter((flag) => flag !== 'help' && flag !== 'version'));
}

const commands = synopsis();

describe('docs/design.md §2.1 synopsis against each command --help', () => {
  it('names every command coachbench --help lists', async () => {
    const help = await runCli(['--help']);
    const section = help.stdout.slice(help.stdout.indexOf('\nCommands:'), help.stdout.indexOf('\nOptions:'));
    const listed = [...section.matchAll(/^ {2}coachbench (\w+)/gm)].map((match) => match[1]);
    expect(listed.length).toBeGreaterThan(5);
    expect([...commands.keys()].sort()).toEqual([...listed].sort());
  });

  // `completion` is yargs' own command: its --help prints the script, and it has no flags.
  it.each([...commands.keys()].filter((command) => command !== 'completion'))('%s: the same flags, and examples at the end', async (command) => {
    const help = await runCli([command, '--help']);
    expect(help.code).toBe(ExitCode.ok);
    expect([...helpFlags(help.stdout)].sort()).toEqual([...(commands.get(command) ?? [])].sort());
    const examples = help.stdout.slice(help.stdout.indexOf('\nExamples:'));
    expect(examples.match(new RegExp(`^ {2}coachbench ${command}\\b`, 'gm'))?.length ?? 0, 'examples of the command itself').toBeGreaterThanOrEqual(1);
  });
});

describe('help wording against docs/design.md', () => {
  it("run --expect-keepalive gives §2.2's order of defaults and its floor", async () => {
    const help = (await runCli(['run', '--help'])).stdout.replace(/\s+/g, ' ');
    expect(help).toContain("at least 10ms (default: the profile's expectKeepAlive, else the embedded target's, else 15s)");
  });

  it('trend: the example of a looser level is looser than the default (§2.4: 5 %)', async () => {
    const help = (await runCli(['trend', '--help'])).stdout;
    expect(help).toMatch(/\[default: "5%"\]/);
    const levels = [...help.matchAll(/--significance (\d+)%/g)].map((match) => Number(match[1]));
    expect(levels.length).toBeGreaterThan(0);
    for (const level of levels) expect(level).toBeGreaterThan(5);
  });
});

/** A section of docs/design.md, from its heading to the next one of its level. */
function designSection(heading: string, next: string): string {
  const design = readFileSync('docs/design.md', 'utf8');
  return design.slice(design.indexOf(heading), design.indexOf(next));
}

/** Every .ts file under `dir`. */
function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith('.ts'))
    .map((entry) => join(entry.parentPath, entry.name));
}

describe('docs/design.md §2 against what the code reads', () => {
  it('§2.6 lists every COACHBENCH_ variable src/ reads from the environment', () => {
    const read = new Set<string>();
    for (const file of sources('src')) {
      for (const match of readFileSync(file, 'utf8').matchAll(/\benv\.(COACHBENCH_[A-Z_]+)/g)) read.add(match[1] ?? '');
    }
    expect(read.size).toBeGreaterThan(3);
    const table = designSection('### 2.6 Environment variables', '### 2.7 Secrets');
    const listed = new Set([...table.matchAll(/^\| `(COACHBENCH_[A-Z_]+)`/gm)].map((match) => match[1] ?? ''));
    expect([...read].filter((name) => !listed.has(name))).toEqual([]);
  });

  it('§2.2 names every built-in profile coachbench profiles lists', async () => {
    const listed = (await runCli(['profiles'])).stdout.match(/^\S+/gm) ?? [];
    expect(listed.length).toBeGreaterThan(3);
    const run = designSection('### 2.2 run', '### 2.3 serve');
    const named = /`--profile` is a built-in name \(([^;]+);/.exec(run.replace(/\s+/g, ' '))?.[1] ?? '';
    expect([...named.matchAll(/`([^`]+)`/g)].map((match) => match[1]).sort()).toEqual([...listed].sort());
  });
});

describe('the smoke run example', () => {
  it("says the same in coachbench --help and run --help: the profile's duration and the whole run's", async () => {
    const smoke = JSON.parse(readFileSync('profiles/smoke.json', 'utf8')) as { duration: string };
    const example = async (argv: string[]): Promise<string> => {
      const { stdout } = await runCli(argv);
      const examples = stdout.slice(stdout.indexOf('Examples:')).replace(/\s+/g, ' ');
      return /coachbench run (the smoke profile[^)]*\))/.exec(examples)?.[1] ?? '';
    };
    const top = await example(['--help']);
    expect(top).toBe(await example(['run', '--help']));
    expect(top).toContain(`${smoke.duration.replace(/s$/, ' s')} of load`);
    // The README's figure for the whole command, start and report included.
    expect(readFileSync('README.md', 'utf8')).toContain('`npx coachbench run` takes about 35 seconds');
    expect(top).toContain('about 35 s in all');
  });
});
