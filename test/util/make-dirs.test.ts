/** makeDirs: `mkdir -p` that fails at once where Node's recursive mkdir loops (/proc). */
import { mkdtemp, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeDirs } from '../../src/util/make-dirs.js';

let work: string;
beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'coachbench-mkdirs-'));
});
afterAll(async () => {
  await rm(work, { recursive: true, force: true });
});

const codeOf = (promise: Promise<unknown>): Promise<string | undefined> =>
  promise.then(
    () => undefined,
    (error: unknown) => (error as NodeJS.ErrnoException).code,
  );

describe('makeDirs', () => {
  it('creates every missing folder and accepts an existing one', async () => {
    const path = join(work, 'a', 'b', 'c');
    await makeDirs(path);
    await makeDirs(path);
    expect((await stat(path)).isDirectory()).toBe(true);
  });

  it('fails at once under /proc, where mkdir({ recursive: true }) never returns', async () => {
    const started = performance.now();
    expect(await codeOf(makeDirs('/proc/coachbench-makedirs-test/x'))).toBe('ENOENT');
    expect(performance.now() - started).toBeLessThan(1_000);
  });

  it('fails with ENOTDIR when an ancestor is a file', async () => {
    await writeFile(join(work, 'file'), 'x');
    expect(await codeOf(makeDirs(join(work, 'file', 'sub', 'deeper')))).toBe('ENOTDIR');
    expect(await codeOf(makeDirs(join(work, 'file')))).toBe('ENOTDIR');
  });
});
