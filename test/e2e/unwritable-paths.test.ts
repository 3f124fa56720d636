/**
 * Every command that writes a file the user named says a path that cannot take it the same
 * way (docs/design.md §2.10): one line, `coachbench: FLAG PATH: CODE, reason`, exit 2, through
 * bin/coachbench.js (built dist/). `serve` fails before it prints its serving line.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runBin } from '../support/bin-helpers.js';

const REPORT = 'docs/example-report/report.json';
let dir = '';
/** A file in a folder that does not exist: no command creates the parents of a file it was named. */
const missing = (name: string): string => join(dir, 'no-such-folder', name);

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'coachbench-unwritable-'));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

describe('a path that cannot take its file: one line naming the flag, the path and the system error, exit 2', () => {
  it.each<[string, (file: string) => string[]]>([
    ['--fixtures-out', (file) => ['serve', '--port', '0', '--fixtures-out', file]],
    ['--tls-cert-out', (file) => ['serve', '--port', '0', '--tls', 'self-signed', '--tls-cert-out', file]],
    ['--log-traces', (file) => ['serve', '--port', '0', '--log-traces', file]],
    ['--markdown', (file) => ['compare', REPORT, REPORT, '--markdown', file]],
    ['--html', (file) => ['report', REPORT, '--html', file]],
  ])(
    '%s',
    async (flag, argv) => {
      const file = missing(`out-${flag.slice(2)}`);
      const result = await runBin(argv(file), { deadlineMs: 30_000 });
      expect(result.killed, result.stderr).toBe(false);
      expect(result.code, result.stderr).toBe(2);
      expect(result.stderr).toBe(`coachbench: ${flag} ${file}: ENOENT, no such file or directory\n`);
      expect(result.stdout).toBe('');
    },
    40_000,
  );
});
