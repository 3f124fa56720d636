/**
 * `run` re-executes itself with the driver's young generation capped (bin/young-generation.js):
 * the same process (PID), its worker processes too, and never over a size the user chose.
 */
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { DRIVER_SEMI_SPACE_MIB, relaunchArgv } from '../../bin/young-generation.js';
import { BIN, childPids, commandLine, once, runBin, runIsUnderWay } from '../support/bin-helpers.js';
import { profileFile, quickProfile, TIMING_SLACK } from '../support/profiles.js';

const CAP = `--max-semi-space-size=${DRIVER_SEMI_SPACE_MIB}`;
/** The young generation starts at the cap rather than growing to it. */
const START = `--min-semi-space-size=${DRIVER_SEMI_SPACE_MIB}`;

interface Seen {
  code: number | null;
  /** The command line of the spawned PID, and of its children, read once the run printed progress. */
  own: string[];
  children: string[][];
}

/** Runs `coachbench run ...args`; once progress shows, reads the command lines of its PID and its children. */
async function runAndLook(args: string[], env: Record<string, string> = {}): Promise<Seen> {
  let seen: Omit<Seen, 'code'> | null = null;
  const look = (pid: number): void => {
    seen = { own: commandLine(pid), children: childPids(pid).map(commandLine) };
  };
  const result = await runBin(['run', ...args], { env, onStderr: once(runIsUnderWay, look) });
  if (seen === null) throw new Error(`no progress line seen; stderr:\n${result.stderr}`);
  return { code: result.code, ...(seen as Omit<Seen, 'code'>) };
}

let profilePath: string;
let dir: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'coachbench-young-gen-'));
  // Runs about the command line, not timing: the slack keeps a loaded machine from failing their checks.
  profilePath = await profileFile(dir, 'quick', quickProfile({ duration: '2s', ...TIMING_SLACK }));
});

describe('the driver runs with its young generation capped', () => {
  it('re-executes run in the same process with the cap, and its worker processes inherit it', async () => {
    const seen = await runAndLook(['--profile', profilePath, '--out', join(dir, 'workers'), '--workers', '2']);
    expect(seen.code).toBe(0);
    expect(seen.own).toContain(CAP);
    expect(seen.own).toContain(START);
    expect(seen.own.slice(seen.own.indexOf(BIN))).toEqual([BIN, 'run', '--profile', profilePath, '--out', join(dir, 'workers'), '--workers', '2']);
    const workers = seen.children.filter((argv) => argv.some((arg) => arg.includes('worker')));
    expect(workers).toHaveLength(2);
    for (const argv of workers) expect(argv).toEqual(expect.arrayContaining([CAP, START]));
  });

  it('leaves a size the user chose in NODE_OPTIONS alone', async () => {
    const seen = await runAndLook(['--profile', profilePath, '--out', join(dir, 'chosen')], { NODE_OPTIONS: '--max-semi-space-size=16' });
    expect(seen.code).toBe(0);
    expect(seen.own).not.toContain(CAP);
    expect(seen.own).not.toContain(START);
    expect(seen.own.slice(-6)).toEqual([BIN, 'run', '--profile', profilePath, '--out', join(dir, 'chosen')]);
  });
});

describe('relaunchArgv', () => {
  const proc = (argv: string[], execArgv: string[] = [], env: NodeJS.ProcessEnv = {}) => ({
    argv: ['node', '/x/bin/coachbench.js', ...argv],
    execArgv,
    execPath: '/usr/bin/node',
    env,
  });

  it('puts the cap before node options already given, for run alone', () => {
    expect(relaunchArgv(proc(['run', '-p', 'smoke'], ['--enable-source-maps']))).toEqual([
      '/usr/bin/node',
      CAP,
      START,
      '--enable-source-maps',
      '/x/bin/coachbench.js',
      'run',
      '-p',
      'smoke',
    ]);
    expect(relaunchArgv(proc(['--quiet', 'run']))).not.toBeNull();
    for (const other of [['serve'], ['compare', 'a', 'b'], ['--version'], []]) expect(relaunchArgv(proc(other))).toBeNull();
  });

  it('never twice, and never over a choice in node options or NODE_OPTIONS', () => {
    expect(relaunchArgv(proc(['run'], [CAP]))).toBeNull();
    expect(relaunchArgv(proc(['run'], ['--max-semi-space-size', '32']))).toBeNull();
    expect(relaunchArgv(proc(['run'], [], { NODE_OPTIONS: '--inspect --max-semi-space-size=2' }))).toBeNull();
    expect(relaunchArgv(proc(['run'], [], { NODE_OPTIONS: '--enable-source-maps' }))).not.toBeNull();
  });
});
