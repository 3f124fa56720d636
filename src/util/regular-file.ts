/**
 * Input files are read only when they are regular files (docs/design.md §2.5): a FIFO nobody
 * writes to would block the open, a device never ends, a directory is no file. Opened
 * non-blocking and checked on the open handle, so the path cannot change between check and read.
 */
import { closeSync, constants, fstatSync, openSync, readSync, type Stats } from 'node:fs';
import { type FileHandle, open } from 'node:fs/promises';

/** O_NONBLOCK changes nothing for a regular file; it is absent on Windows, where no FIFO blocks an open. */
export const OPEN_NON_BLOCKING = constants.O_RDONLY | (constants.O_NONBLOCK ?? 0);

/** What a path that is not a regular file is, as a refusal names it. */
export function nonRegularKind(stats: Stats): string {
  if (stats.isDirectory()) return 'a directory';
  if (stats.isFIFO()) return 'a FIFO';
  if (stats.isCharacterDevice()) return 'a character device';
  if (stats.isBlockDevice()) return 'a block device';
  if (stats.isSocket()) return 'a socket';
  return 'something else';
}

/** A path that is not a regular file, refused before a byte is read. */
export class NotRegularFile extends Error {
  constructor(readonly kind: string) {
    super(`not a regular file but ${kind}`);
  }
}

/**
 * Throws unless `stats` is a regular file's. A directory fails as reading it would, with the
 * system's EISDIR, so that it is said like any file that cannot be read (docs/design.md §2.10);
 * a FIFO, a device or a socket, which no read would refuse, with NotRegularFile.
 */
export function assertRegularFile(stats: Stats, path: string): void {
  if (stats.isFile()) return;
  if (stats.isDirectory())
    throw Object.assign(new Error(`EISDIR: illegal operation on a directory, read '${path}'`), { code: 'EISDIR', syscall: 'read', path });
  throw new NotRegularFile(nonRegularKind(stats));
}

const CHUNK_BYTES = 64 * 1024;

/** A regular file larger than its reader's bound, refused unread (or once the bound was read, when it grew meanwhile). */
export class FileTooLarge extends Error {
  constructor(
    /** Its size, or null when it passed the bound only while it was read. */
    readonly size: number | null,
    readonly maxBytes: number,
  ) {
    super(`larger than ${maxBytes} bytes`);
  }
}

/**
 * The whole text of a regular file of at most `maxBytes`, read synchronously; throws
 * NotRegularFile, FileTooLarge, or the system's error. A file that grows while read cannot
 * hold more than the bound.
 */
export function readRegularFileSync(path: string, maxBytes: number): string {
  const fd = openSync(path, OPEN_NON_BLOCKING);
  try {
    const stats = fstatSync(fd);
    assertRegularFile(stats, path);
    if (stats.size > maxBytes) throw new FileTooLarge(stats.size, maxBytes);
    // One byte past the bound tells a file that grew while read from one that ends at it.
    const bytes = readHeadSync(fd, maxBytes + 1);
    if (bytes.length > maxBytes) throw new FileTooLarge(null, maxBytes);
    return bytes.toString('utf8');
  } finally {
    closeSync(fd);
  }
}

/**
 * Opens `path` only if it is a regular file (assertRegularFile) and hands the open handle and
 * its stats to `use`, closing it after. The one way coachbench opens a file it reads in part.
 */
export async function withRegularFile<T>(path: string, use: (handle: FileHandle, stats: Stats) => Promise<T>): Promise<T> {
  const handle = await open(path, OPEN_NON_BLOCKING);
  try {
    const stats = await handle.stat();
    assertRegularFile(stats, path);
    return await use(handle, stats);
  } finally {
    await handle.close().catch(() => undefined);
  }
}

/** One read of a file's head: `buffer` filled from the file's offset `position`. */
interface HeadRead {
  buffer: Buffer;
  position: number;
}

/**
 * The reads that take at most `limit` bytes from the start of a file, fewer when it ends
 * first: each read is answered with how many bytes it got, and the bytes are what the
 * generator returns. The one read loop of readHead and readHeadSync, which differ only in how
 * they make a read.
 */
function* headReads(limit: number): Generator<HeadRead, Buffer, number> {
  const chunks: Buffer[] = [];
  let total = 0;
  while (total < limit) {
    const buffer = Buffer.allocUnsafe(Math.min(CHUNK_BYTES, limit - total));
    const bytesRead = yield { buffer, position: total };
    if (bytesRead === 0) break;
    chunks.push(buffer.subarray(0, bytesRead));
    total += bytesRead;
  }
  return Buffer.concat(chunks, total);
}

/** readHead of a file descriptor, read synchronously. */
function readHeadSync(fd: number, maxBytes: number): Buffer {
  const reads = headReads(maxBytes);
  let read = reads.next();
  while (!read.done) read = reads.next(readSync(fd, read.value.buffer, 0, read.value.buffer.length, read.value.position));
  return read.value;
}

/** At most `maxBytes` from the start of an open file, fewer when it ends first: a file that grows while read cannot hold more. */
export async function readHead(handle: FileHandle, maxBytes: number): Promise<Buffer> {
  const reads = headReads(maxBytes);
  let read = reads.next();
  while (!read.done) read = reads.next((await handle.read(read.value.buffer, 0, read.value.buffer.length, read.value.position)).bytesRead);
  return read.value;
}
