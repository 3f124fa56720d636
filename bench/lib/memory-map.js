// Where a process's resident memory lives, from /proc: the kernel's own split (anonymous vs
// file-backed vs shared) and, from smaps, the anonymous memory by kind of mapping. Used by the
// soak benchmark to tell allocator arenas, V8's heap and mapped code apart when RSS climbs.
import { readFileSync } from 'node:fs';

const KiB = 1024;

/** RssAnon, RssFile and RssShmem from /proc/PID/status, bytes. */
export function rssSplit(pid) {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const field = (name) => Number(new RegExp(`${name}:\\s+(\\d+) kB`).exec(status)?.[1] ?? NaN) * KiB;
  return { anonBytes: field('RssAnon'), fileBytes: field('RssFile'), shmemBytes: field('RssShmem') };
}

/** glibc reserves each thread arena as one 64 MiB region (HEAP_MAX_SIZE on 64-bit). */
const ARENA_RESERVATION = 64 * 1024 * KiB;

/**
 * Resident bytes of /proc/PID/smaps by kind: `brk` (the main malloc arena, "[heap]"), `arenas`
 * (anonymous mappings that start on a 64 MiB boundary: glibc's per-thread arenas), `stacks`,
 * `file` (the node binary, libraries, anything mapped from a file) and `otherAnon` (the rest of
 * anonymous memory: V8's heap pages, large malloc blocks served by mmap, WASM). `largestAnon`
 * lists the five largest anonymous mappings so one that grows can be followed between samples.
 */
export function smapsByKind(pid) {
  const text = readFileSync(`/proc/${pid}/smaps`, 'utf8');
  const kinds = { brk: 0, arenas: 0, stacks: 0, file: 0, otherAnon: 0 };
  const anon = [];
  let current = null;
  const close = () => {
    if (!current) return;
    kinds[current.kind] += current.rss;
    if (current.kind !== 'file') anon.push({ start: current.start, sizeKiB: current.size / KiB, rssKiB: current.rss / KiB, kind: current.kind });
  };
  for (const line of text.split('\n')) {
    const header = /^([0-9a-f]+)-([0-9a-f]+) \S+ \S+ \S+ (\d+)\s*(.*)$/.exec(line);
    if (header) {
      close();
      const start = Number.parseInt(header[1], 16);
      const end = Number.parseInt(header[2], 16);
      const inode = header[3];
      const name = header[4];
      let kind = 'otherAnon';
      if (name === '[heap]') kind = 'brk';
      else if (name.startsWith('[stack')) kind = 'stacks';
      else if (inode !== '0' || name.startsWith('/')) kind = 'file';
      // A thread arena's heap is mapped on a 64 MiB boundary (its rw part first, the PROT_NONE
      // rest after it): an anonymous mapping starting there is an arena, a heuristic that a
      // V8 page could match only by chance.
      else if (start % ARENA_RESERVATION === 0) kind = 'arenas';
      current = { start: header[1], size: end - start, rss: 0, kind };
      continue;
    }
    const rss = /^Rss:\s+(\d+) kB/.exec(line);
    if (rss && current) current.rss = Number(rss[1]) * KiB;
  }
  close();
  anon.sort((a, b) => b.rssKiB - a.rssKiB);
  return { ...kinds, largestAnon: anon.slice(0, 5) };
}
