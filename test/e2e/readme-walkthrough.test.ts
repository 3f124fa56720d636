/**
 * The README's walk-through against a real target passes as written (issue 26): the two
 * commands between its `walkthrough` markers run here, `npx coachbench` as bin/, the port a
 * free one and the fixtures file in a temp folder; nothing else of them is changed.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import { mkdtemp, readdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { BIN, runBin } from '../support/bin-helpers.js';
import { freePort } from '../support/free-port.js';
import { readRunReport } from '../support/run-report.js';

const README = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');
const block = /<!-- walkthrough:start -->\n```sh\n([\s\S]*?)```\n<!-- walkthrough:end -->/.exec(README)?.[1] ?? '';
const [serveLine = '', runLine = ''] = block.trim().split('\n');

/** A README line as argv for bin/: `npx coachbench` dropped, the port and fixtures path replaced. */
const argv = (line: string, port: number, fixtures: string): string[] =>
  line
    .replace(/^npx coachbench /, '')
    .replaceAll('7080', String(port))
    .replaceAll('/tmp/f.json', fixtures)
    .split(/\s+/);

let serve: ChildProcess | undefined;
afterAll(async () => {
  if (serve === undefined || serve.exitCode !== null) return;
  const exited = once(serve, 'exit');
  serve.kill('SIGTERM');
  await exited;
});

describe('README walk-through against a real target', () => {
  it('has the two commands', () => {
    expect(serveLine).toMatch(/^npx coachbench serve .*--port 7080 .*--fixtures-out \/tmp\/f\.json/);
    expect(runLine).toMatch(/^npx coachbench run --target http:\/\/127\.0\.0\.1:7080 .*--fixtures \/tmp\/f\.json/);
  });

  it('passes as written', { timeout: 90_000 }, async () => {
    const dir = await mkdtemp(join(tmpdir(), 'coachbench-walkthrough-'));
    const fixtures = join(dir, 'f.json');
    const port = await freePort();
    serve = spawn(process.execPath, [BIN, ...argv(serveLine, port, fixtures)], { stdio: ['ignore', 'pipe', 'inherit'] });
    let started = '';
    serve.stdout!.on('data', (chunk: Buffer) => {
      started += chunk.toString();
    });
    while (!started.includes(`127.0.0.1:${port}`)) await once(serve.stdout!, 'data');

    // The run writes its report folder under reports/ of its working directory, as a user's would.
    const { code, stderr } = await runBin(argv(runLine, port, fixtures), { cwd: dir, deadlineMs: 80_000 });
    expect(code, stderr).toBe(0);
    const [folder] = await readdir(join(dir, 'reports'));
    const report = await readRunReport(join(dir, 'reports', folder as string));
    expect(report.verdict).toBe('pass');
    expect(report.target.embedded).toBe(false);
  });
});
