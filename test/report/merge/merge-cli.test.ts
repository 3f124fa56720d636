/**
 * `coachbench merge` end to end through bin/coachbench.js (built dist/): the report folder,
 * exit 0/1 by the merged verdict (1 also when a shard was cut short), exit 2 with one line for
 * files that cannot merge.
 */
import { access, mkdir, readFile, writeFile } from 'node:fs/promises';
import { hostname } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Report } from '../../../src/contract/report.js';
import { RUN_LOCK_FILE } from '../../../src/orchestration/run-folder-lock.js';
import { besidesClosingLines, runBin } from '../../support/bin-helpers.js';
import { mountSmallDisk } from '../../support/failing-filesystems.js';
import { readRunReport } from '../../support/run-report.js';
import { type ShardBench, shardBench } from '../../support/shard-runs.js';

const exists = (path: string): Promise<boolean> =>
  access(path).then(
    () => true,
    () => false,
  );

let bench: ShardBench;
let shard0: string;
let shard1: string;
let notJson: string;

beforeAll(async () => {
  bench = await shardBench();
  const target = await bench.target();
  const runs = await Promise.all([bench.shard(target.url, 0, 2), bench.shard(target.url, 1, 2)]);
  [shard0, shard1] = runs.map((r) => r.path) as [string, string];
  notJson = join(bench.dir, 'not-json.json');
  await writeFile(notJson, '{"schemaVersion": "1.0.0",');
});
afterAll(() => bench.close());

describe('coachbench merge (e2e)', () => {
  it('writes the merged report folder and exits 0 when every shard is there and passes', async () => {
    const out = join(bench.dir, 'merged');
    const result = await runBin(['merge', shard1, shard0, '--out', out]);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toMatch(/merged 2 shard reports/);
    expect(result.stderr).toMatch(/^PASS: /m);
    for (const file of ['report.json', 'report.html', 'junit.xml', 'summary.md']) expect(await exists(join(out, file)), file).toBe(true);
    const report = await readRunReport(out);
    expect(report.verdict).toBe('pass');
    expect(report.shard).toBeNull();
    expect(report.mergedFrom).toEqual([shard0, shard1]);
    const [a, b] = await Promise.all([readRunReport(dirname(shard0)), readRunReport(dirname(shard1))]);
    expect(report.scenarios.chatStreams!.opened).toBe(a.scenarios.chatStreams!.opened + b.scenarios.chatStreams!.opened);
  });

  it('--quiet drops only the informative line: the verdict and where the report went still print (docs/design.md §2.2)', async () => {
    const out = join(bench.dir, 'merged-quiet');
    const result = await runBin(['merge', shard0, shard1, '--out', out, '--quiet']);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toMatch(/^PASS: /);
    expect(result.stderr).toContain(`report: ${join(out, 'report.json')}\n`);
    expect(besidesClosingLines(result.stderr)).toBe('');
  });

  it('-q keeps a warning: a missing shard is said before the verdict', async () => {
    const out = join(bench.dir, 'partial-quiet');
    const result = await runBin(['merge', shard0, '--out', out, '-q']);
    expect(result.code).toBe(1);
    expect(besidesClosingLines(result.stderr)).toMatch(/^ {2}! partial merge: 1 of 2 shards \(missing 1\/2\)[^\n]*\n$/);
    expect(result.stderr).toMatch(/^FAIL: /m);
  });

  // A tmpfs needs root and mount (this team's machine; the container CI), as in test/orchestration/disk-full.test.ts.
  it.runIf(process.getuid?.() === 0)(
    'exits 2 with the shared wording when --out cannot take the report: the flag, the folder, the file, the system error',
    async () => {
      // A real full disk: the folder is made and proved writable (an empty file), the lock fits, report.json does not.
      const disk = await mountSmallDisk(1024 * 1024);
      if (disk === null) throw new Error('root, but a tmpfs could not be mounted: mount -t tmpfs failed');
      try {
        const out = join(disk.dir, 'merged');
        await disk.fill(8 * 1024);
        const result = await runBin(['merge', shard0, shard1, '--out', out]);
        expect(result.code, result.stderr).toBe(2);
        expect(result.stderr).toBe(`coachbench: --out ${out}: cannot write report.json: ENOSPC, no space left on device\n`);
      } finally {
        await disk.unmount();
      }
    },
  );

  it('refuses (exit 2) an --out a live run is writing, leaving that folder as it was', async () => {
    const out = join(bench.dir, 'in-use');
    await mkdir(out, { recursive: true });
    // This test process stands in for the run: a live PID on this host.
    await writeFile(join(out, RUN_LOCK_FILE), `${process.pid}\n${hostname()}\n`);
    const result = await runBin(['merge', shard0, shard1, '--out', out]);
    expect(result.code, result.stderr).toBe(2);
    expect(result.stderr.trim()).toBe(
      `coachbench: --out ${out}: in use by another coachbench run (PID ${process.pid}); give another --out, or delete ${join(out, RUN_LOCK_FILE)} if no run is using the folder`,
    );
    expect(await exists(join(out, 'report.json'))).toBe(false);
  });

  it('exits 1 with the report written when a shard is missing', async () => {
    const out = join(bench.dir, 'partial');
    const result = await runBin(['merge', shard0, '--out', out]);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/! partial merge: 1 of 2 shards \(missing 1\/2\)/);
    expect(result.stderr).toMatch(/^FAIL: /m);
    expect((await readRunReport(out)).verdict).toBe('fail');
  });

  it('exits 1 (incomplete, not 130: merge itself was not interrupted) with the report written when a shard was interrupted', async () => {
    const cut = JSON.parse(await readFile(shard1, 'utf8')) as Report;
    cut.interrupted = true;
    const cutPath = join(bench.dir, 'cut', 'report.json');
    await mkdir(dirname(cutPath), { recursive: true });
    await writeFile(cutPath, JSON.stringify(cut));
    const out = join(bench.dir, 'interrupted');
    const result = await runBin(['merge', shard0, cutPath, '--out', out]);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/\[shard 1\/2\] was interrupted/);
    expect((await readRunReport(out)).interrupted).toBe(true);
  });

  it.each<[string, () => string[], RegExp]>([
    ['the same shard twice', () => [shard0, shard0], /cannot merge: .*shard 0\/2 overlaps/],
    ['a file that is not JSON', () => [shard0, notJson], /not-json\.json:\d+:\d+: not valid JSON/],
    ['a missing file', () => [shard0, join(bench.dir, 'nope.json')], /nope\.json: ENOENT, no such file or directory/],
    ['a fixtures file instead of a report', () => [shard0, bench.fixturesPath], /fixtures\.json: not a valid coachbench report/],
  ])('exits 2 with one line for %s, writing nothing', async (_name, files, message) => {
    const out = join(bench.dir, `refused-${Math.random().toString(36).slice(2)}`);
    const result = await runBin(['merge', ...files(), '--out', out]);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(message);
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
    expect(await exists(out)).toBe(false);
  });

  it.each<[string, () => string[], RegExp]>([
    ['no --out', () => ['merge', shard0, shard1], /Missing required argument: out/],
    ['no shard files', () => ['merge', '--out', join(bench.dir, 'x')], /Not enough non-option arguments/],
    [
      '--out a shard folder',
      () => ['merge', shard0, shard1, '--out', dirname(shard1)],
      /--out .* holds the shard report .*; write the merged report to another folder/,
    ],
    ['--out under /proc', () => ['merge', shard0, shard1, '--out', '/proc/coachbench-merge'], /--out \/proc\/coachbench-merge: .*kernel filesystem/],
    ['--out an existing file', () => ['merge', shard0, shard1, '--out', bench.fixturesPath], /--out .*fixtures\.json: exists and is not a folder/],
  ])('exits 2 for %s', async (_name, args, message) => {
    const result = await runBin(args());
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(message);
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
  });
});
