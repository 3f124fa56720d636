/**
 * Every command that reads a file the user named says a file it cannot read the way a file
 * that cannot be written is said (docs/design.md §2.10): one line, `coachbench: FLAG PATH:
 * CODE, reason` (the path alone for a command's argument), exit 2, through bin/coachbench.js
 * (built dist/). A missing file and a directory in its place, for each reader; every run
 * fails on its input before any load (the --target runs name a port nothing is asked on).
 */
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runBin } from '../support/bin-helpers.js';
import { type Pem, testPki } from '../support/certificates.js';

const REPORT = 'docs/example-report/report.json';
const TARGET = ['--target', 'http://127.0.0.1:9'];
let dir = '';
let server: Pem;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'coachbench-unreadable-'));
  server = await (await testPki(dir)).server(['127.0.0.1']);
  await mkdir(join(dir, 'a-folder'));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

/** How each reader is given the file: the name the line starts with (null: the path alone), and the command. */
const READERS: Array<[string, string | null, (file: string) => string[]]> = [
  ['run --fixtures', '--fixtures', (file) => ['run', ...TARGET, '--fixtures', file]],
  ['run --ca', '--ca', (file) => ['run', '--ca', file]],
  ['run --key', '--key', (file) => ['run', '--cert', server.certFile, '--key', file]],
  ['run --cert', '--cert', (file) => ['run', '--cert', file, '--key', server.keyFile]],
  ['serve --tls-cert', '--tls-cert', (file) => ['serve', '--port', '0', '--tls-cert', file, '--tls-key', server.keyFile]],
  ['serve --tls-key', '--tls-key', (file) => ['serve', '--port', '0', '--tls-cert', server.certFile, '--tls-key', file]],
  [
    'serve --tls-client-ca',
    '--tls-client-ca',
    (file) => ['serve', '--port', '0', '--tls-cert', server.certFile, '--tls-key', server.keyFile, '--tls-client-ca', file],
  ],
  ['compare <candidate>', null, (file) => ['compare', REPORT, file]],
  ['compare <baseline>', null, (file) => ['compare', file, REPORT]],
  ['report <report>', null, (file) => ['report', file]],
  ['merge <shards..>', null, (file) => ['merge', REPORT, file, '--out', join(dir, 'merged')]],
];

/**
 * A profile is looked up as a file, else as a built-in name: a missing one keeps its own line
 * (`no such file or built-in profile`); a directory exists, and is read.
 */
const PROFILE_READERS: Array<[string, string, (file: string) => string[]]> = [
  ['run --profile', '--profile', (file) => ['run', '--profile', file]],
  ['plan <profile>', 'profile', (file) => ['plan', file]],
];

async function expectRefusal(argv: string[], name: string | null, file: string, reason: string): Promise<void> {
  const result = await runBin(argv, { deadlineMs: 30_000 });
  expect(result.killed, result.stderr).toBe(false);
  expect(result.code, result.stderr).toBe(2);
  expect(result.stderr).toBe(`coachbench: ${name === null ? '' : `${name} `}${file}: ${reason}\n`);
  expect(result.stdout).toBe('');
}

describe('a file that cannot be read: one line naming the flag, the path and the system error, exit 2', () => {
  it.each(READERS)(
    '%s, missing',
    async (_, name, argv) => {
      const file = join(dir, 'no-such-file');
      await expectRefusal(argv(file), name, file, 'ENOENT, no such file or directory');
    },
    40_000,
  );

  it.each([...READERS, ...PROFILE_READERS])(
    '%s, a directory',
    async (_, name, argv) => {
      const file = join(dir, 'a-folder');
      await expectRefusal(argv(file), name, file, 'EISDIR, illegal operation on a directory');
    },
    40_000,
  );
});
