/**
 * A switch (a boolean flag) given more than once is taken, the last one winning, as git, curl
 * and k6 take theirs (docs/design.md §2.1): `--json --no-json`, `--trace --no-trace`, `-q -q`.
 * A flag with a value given twice stays a usage error (test/cli/usage.test.ts).
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { night, nights, writeNights } from '../support/report-history.js';
import { runCli } from '../support/run-cli.js';

let dir = '';
let history = '';
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'coachbench-switches-'));
  history = join(dir, 'nightly');
  // A regression, and a report of another profile that trend skips: -q leaves out the skip and the change points.
  await writeNights(history, [...nights(9, 8), night(30, { profile: 'smoke' })]);
});
afterAll(() => rm(dir, { recursive: true, force: true }));

describe('a switch given twice: the last one wins', () => {
  it('plan --json --no-json prints the table; --no-json --json the JSON', async () => {
    const table = await runCli(['plan', 'smoke', '--json', '--no-json']);
    expect(table.code).toBe(0);
    expect(table.stdout).toMatch(/^profiles\/smoke\.json: 30s in all/);
    const json = await runCli(['plan', 'smoke', '--no-json', '--json']);
    expect(json.code).toBe(0);
    expect(JSON.parse(json.stdout).durationMs).toBe(30_000);
  });

  it('run --trace --no-trace sends no traceparent; --no-trace --trace sends them', async () => {
    // Both refused before anything starts, each by the rule of the switch that came last.
    const off = await runCli(['run', '--trace-sample', '2', '--trace', '--no-trace']);
    expect(off.code).toBe(2);
    expect(off.stderr).toBe('coachbench: --trace-sample: cannot be used with --no-trace\n');
    const on = await runCli(['run', '--trace-sample', '2', '--no-trace', '--trace']);
    expect(on.code).toBe(2);
    expect(on.stderr).toBe('coachbench: --trace-sample: "2" is not a number from 0 to 1\n');
  });

  it('trend -q -q is -q; -q --no-quiet prints every line', async () => {
    const once = await runCli(['trend', history, '--profile', 'nightly', '--out', join(dir, 'once'), '-q']);
    const twice = await runCli(['trend', history, '--profile', 'nightly', '--out', join(dir, 'once'), '-q', '-q']);
    expect(twice.code).toBe(0);
    expect(twice.stderr).toBe('');
    expect(twice.stdout).toBe(once.stdout);
    const loud = await runCli(['trend', history, '--profile', 'nightly', '--out', join(dir, 'once'), '-q', '--no-quiet']);
    expect(loud.code).toBe(0);
    expect(loud.stdout).toMatch(/^ {2}skipped \S+nightly-030\/report\.json/m);
    expect(once.stdout).not.toContain('skipped');
  });
});
