/**
 * The synchronous reader of small input files (PEM files of --ca, --cert, --key, serve's
 * --tls-cert): a regular file is read; a FIFO, a device or a directory is refused on its open
 * handle, the FIFO without waiting for a writer (the open is non-blocking), the directory with
 * the system's EISDIR, as a read of it fails. Its reads and readHead's, for the JSON files, keep
 * to their bound alike.
 */
import { execFileSync } from 'node:child_process';
import { mkdtemp, open, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FileTooLarge, NotRegularFile, readHead, readRegularFileSync } from '../../src/util/regular-file.js';

let dir = '';
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'coachbench-regular-file-'));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

const kindOf = (path: string): string => {
  try {
    readRegularFileSync(path, 1024);
    return 'read';
  } catch (error) {
    return error instanceof NotRegularFile ? error.kind : String((error as NodeJS.ErrnoException).code);
  }
};

describe('readRegularFileSync', () => {
  it('reads a regular file', async () => {
    const path = join(dir, 'ca.pem');
    await writeFile(path, '-----BEGIN CERTIFICATE-----\n');
    expect(readRegularFileSync(path, 1024)).toBe('-----BEGIN CERTIFICATE-----\n');
  });

  it('refuses what is not a regular file, naming what it is, and says the system’s code of a directory or a missing one', () => {
    const fifo = join(dir, 'ca.fifo');
    execFileSync('mkfifo', [fifo]);
    expect([kindOf(fifo), kindOf('/dev/null'), kindOf(dir), kindOf(join(dir, 'missing.pem'))]).toEqual(['a FIFO', 'a character device', 'EISDIR', 'ENOENT']);
  });

  it('reads a file of exactly its bound, and refuses a larger one unread, naming its size', async () => {
    const path = join(dir, 'bound.pem');
    await writeFile(path, 'x'.repeat(100_000));
    expect(readRegularFileSync(path, 100_000)).toHaveLength(100_000);
    let refused: unknown;
    try {
      readRegularFileSync(path, 99_999);
    } catch (error) {
      refused = error;
    }
    expect(refused).toBeInstanceOf(FileTooLarge);
    expect(refused).toMatchObject({ size: 100_000, maxBytes: 99_999 });
  });

  it('refuses a file that holds more than its size said once the bound is read (a /proc file says 0 bytes)', () => {
    let refused: unknown;
    try {
      readRegularFileSync('/proc/self/status', 16);
    } catch (error) {
      refused = error;
    }
    expect(refused).toBeInstanceOf(FileTooLarge);
    expect(refused).toMatchObject({ size: null, maxBytes: 16 });
  });
});

describe('readHead', () => {
  it('reads up to its bound over several chunks, and a file that ends first whole', async () => {
    const path = join(dir, 'long.json');
    await writeFile(path, 'x'.repeat(200_000));
    const handle = await open(path, 'r');
    try {
      expect((await readHead(handle, 150_000)).length).toBe(150_000);
      expect((await readHead(handle, 300_000)).length).toBe(200_000);
    } finally {
      await handle.close();
    }
  });
});
