/**
 * bench/peers.js writes the docs table and the README quote only from the latest results
 * (bench/results/peers.json): a run with `--out FILE` is an experiment beside them, and must
 * leave both as they are. Runs a real, one-second closed workload of the floor client alone
 * against `coachbench serve`, from a copy of the checkout's bench/ with its own docs and README,
 * so neither the checkout's results nor its docs can be touched.
 */
import { spawn } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const ONE_FLOOR_RUN = ['--only', 'closed', '--tools', 'floor', '--reps', '1', '--seconds', '1', '--no-pin'];
/** Ample for a one-second run and the target's start on a loaded machine. */
const RUN_WITHIN_MS = 60_000;
const TEST_MS = RUN_WITHIN_MS + 10_000;

let copy = '';
const docsOf = (root: string): string => `${readFileSync(join(root, 'docs', 'benchmarks.md'), 'utf8')}${readFileSync(join(root, 'README.md'), 'utf8')}`;

beforeAll(() => {
  copy = mkdtempSync(join(tmpdir(), 'peers-out-'));
  cpSync(join(ROOT, 'bench'), join(copy, 'bench'), { recursive: true, filter: (source) => !source.startsWith(join(ROOT, 'bench', 'results')) });
  mkdirSync(join(copy, 'bench', 'results'));
  mkdirSync(join(copy, 'docs'));
  cpSync(join(ROOT, 'docs', 'benchmarks.md'), join(copy, 'docs', 'benchmarks.md'));
  cpSync(join(ROOT, 'README.md'), join(copy, 'README.md'));
  cpSync(join(ROOT, 'package.json'), join(copy, 'package.json'));
  for (const linked of ['dist', 'bin', 'node_modules', 'profiles', 'schemas']) symlinkSync(join(ROOT, linked), join(copy, linked));
});

/** `node bench/peers.js ...args` in the copy; past RUN_WITHIN_MS its process group (the target it started too) is killed by PID. */
function peers(args: string[]): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [join(copy, 'bench', 'peers.js'), ...args], { cwd: copy, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    const keep = (chunk: Buffer): void => {
      output += String(chunk);
    };
    child.stdout.on('data', keep);
    child.stderr.on('data', keep);
    const timer = setTimeout(() => {
      if (child.pid !== undefined) process.kill(-child.pid, 'SIGKILL');
      reject(new Error(`bench/peers.js ${args.join(' ')} still ran after ${RUN_WITHIN_MS} ms:\n${output}`));
    }, RUN_WITHIN_MS);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, output });
    });
  });
}

describe('bench/peers.js and the docs it quotes', () => {
  it('leaves the docs table and the README quote alone with --out', { timeout: TEST_MS }, async () => {
    const before = docsOf(copy);
    const out = join(copy, 'experiment.json');
    const run = await peers([...ONE_FLOOR_RUN, '--out', out]);
    expect(run.code, run.output).toBe(0);
    expect(JSON.parse(readFileSync(out, 'utf8')).workloads.closed.rows[0].tool).toBe('floor');
    expect(docsOf(copy) === before, 'docs/benchmarks.md and README.md unchanged').toBe(true);
    expect(existsSync(join(copy, 'bench', 'results', 'peers.json'))).toBe(false);
  });

  it('looks for no peer when no workload chosen runs them, whatever --tools names', { timeout: TEST_MS }, async () => {
    const out = join(copy, 'streams-only.json');
    const run = await peers(['--only', 'streams', '--tools', 'floor,wrk', '--reps', '1', '--streams', '20', '--stream-seconds', '1', '--no-pin', '--out', out]);
    expect(run.code, run.output).toBe(0);
    const looked = JSON.parse(readFileSync(out, 'utf8')).peers as Record<string, { version: string | null; reason: string | null }>;
    expect(Object.keys(looked).sort()).toEqual(['artillery', 'h2load', 'hey', 'locust', 'wrk']);
    for (const [name, peer] of Object.entries(looked)) {
      expect(peer.version, name).toBeNull();
      expect(peer.reason, name).toBe('not looked for: no workload of this measurement runs the peers (--only)');
    }
  });

  it('writes both from the latest results without it', { timeout: TEST_MS }, async () => {
    const before = docsOf(copy);
    const run = await peers(ONE_FLOOR_RUN);
    expect(run.code, run.output).toBe(0);
    expect(existsSync(join(copy, 'bench', 'results', 'peers.json'))).toBe(true);
    expect(docsOf(copy) === before, 'docs/benchmarks.md and README.md rewritten').toBe(false);
  });
});
