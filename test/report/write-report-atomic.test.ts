/**
 * Report files are written atomically on real filesystems: a write that fails (a full tmpfs,
 * ENOSPC; a locked folder, EPERM/EACCES) leaves the previous file whole and no temp file
 * behind, and says which file failed and why.
 */
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { main } from '../../src/cli/main.js';
import { ReportWriteError, writeFileAtomic, writeReportFiles } from '../../src/report/write-report.js';
import { folderLock, mountSmallDisk, type SmallDisk } from '../support/failing-filesystems.js';
import { makeReport } from '../support/make-report.js';
import { readRunReport } from '../support/run-report.js';

const lock = folderLock();
let work: string;
let disk: SmallDisk | null;
const locked: string[] = [];

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'coachbench-atomic-'));
  disk = await mountSmallDisk(256 * 1024);
});
afterAll(async () => {
  for (const dir of locked) lock.unlock(dir);
  await disk?.unmount();
  await rm(work, { recursive: true, force: true });
});

const thrown = (promise: Promise<unknown>): Promise<unknown> =>
  promise.then(
    () => null,
    (error: unknown) => error,
  );

describe('writeFileAtomic', () => {
  it('replaces a file whole', async () => {
    const path = join(work, 'whole.txt');
    await writeFile(path, 'old');
    await writeFileAtomic(path, 'new content');
    expect(await readFile(path, 'utf8')).toBe('new content');
    expect(await readdir(work)).toEqual(['whole.txt']);
  });

  it(`keeps the old file and leaves no temp file when the folder is locked (${lock.how})`, async () => {
    const dir = join(work, 'locked');
    await mkdir(dir);
    await writeFile(join(dir, 'report.json'), '{"old":true}');
    lock.lock(dir);
    locked.push(dir);
    const error = await thrown(writeFileAtomic(join(dir, 'report.json'), '{"new":true}'));
    expect((error as NodeJS.ErrnoException).code).toBe(lock.code);
    expect(await readFile(join(dir, 'report.json'), 'utf8')).toBe('{"old":true}');
    expect(await readdir(dir)).toEqual(['report.json']);
  });
});

describe.runIf(process.getuid?.() === 0)('on a full disk (a tmpfs mounted for the test)', () => {
  it('keeps the old file whole and removes the temp file', async () => {
    if (disk === null) throw new Error('root, but a tmpfs could not be mounted: mount -t tmpfs failed');
    const path = join(disk.dir, 'report.html');
    await writeFile(path, '<html>old</html>');
    await disk.fill(8 * 1024);
    const error = await thrown(writeFileAtomic(path, 'x'.repeat(64 * 1024)));
    expect((error as NodeJS.ErrnoException).code).toBe('ENOSPC');
    expect(await readFile(path, 'utf8')).toBe('<html>old</html>');
    expect((await readdir(disk.dir)).filter((name) => name.endsWith('.tmp'))).toEqual([]);
  });

  it('writeReportFiles names the file that did not fit; the files before it are whole', async () => {
    if (disk === null) throw new Error('root, but a tmpfs could not be mounted: mount -t tmpfs failed');
    await disk.clear();
    const dir = join(disk.dir, 'run');
    const report = makeReport();
    // report.json (~34 KiB for this report) fits in 64 KiB, report.html (~66 KiB) does not.
    await disk.fill(64 * 1024);
    const error = await thrown(writeReportFiles(dir, report));
    expect(error).toBeInstanceOf(ReportWriteError);
    expect((error as ReportWriteError).code).toBe('ENOSPC');
    expect((error as ReportWriteError).path).toBe(join(dir, 'report.html'));
    expect((error as ReportWriteError).message).toBe(`${join(dir, 'report.html')}: ENOSPC, no space left on device`);
    expect(await readdir(dir)).toEqual(['report.json']);
    expect(await readRunReport(dir)).toEqual(JSON.parse(JSON.stringify(report)));
  });
});

describe('writeReportFiles', () => {
  it('says which folder could not be made when its parent is a file', async () => {
    await writeFile(join(work, 'plain-file'), 'x');
    const error = await thrown(writeReportFiles(join(work, 'plain-file', 'run'), makeReport()));
    expect(error).toBeInstanceOf(ReportWriteError);
    expect((error as ReportWriteError).code).toBe('ENOTDIR');
  });
});

describe('coachbench report into a folder that cannot take the file', () => {
  it(`exits 2 with one line naming the flag and the file (${lock.how})`, async () => {
    const dir = join(work, 'views-locked');
    await mkdir(dir);
    const reportPath = join(work, 'views-report.json');
    await writeFile(reportPath, JSON.stringify(makeReport()));
    lock.lock(dir);
    locked.push(dir);
    let stderr = '';
    vi.spyOn(process.stdout, 'write').mockImplementation(() => true);
    vi.spyOn(process.stderr, 'write').mockImplementation((chunk: string | Uint8Array) => {
      stderr += String(chunk);
      return true;
    });
    let code: number;
    try {
      code = await main(['report', reportPath, '--html', join(dir, 'view.html')]);
    } finally {
      vi.restoreAllMocks();
    }
    expect(code).toBe(2);
    // Named by its flag, as every command names a file the user gave that it cannot write (docs/design.md §2.10).
    expect(stderr).toBe(
      `coachbench: --html ${join(dir, 'view.html')}: ${lock.code}, ${lock.code === 'EPERM' ? 'operation not permitted' : 'permission denied'}\n`,
    );
    expect(await readdir(dir)).toEqual([]);
  });
});
