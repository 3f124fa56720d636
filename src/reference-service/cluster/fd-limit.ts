/** The process's open-file limit, which bounds the streams one process can hold. */
import { readFileSync } from 'node:fs';

/** The soft "Max open files" limit from /proc/self/limits (Linux), or null when unknown. */
export function openFileLimit(): number | null {
  try {
    const line = readFileSync('/proc/self/limits', 'utf8')
      .split('\n')
      .find((l) => l.startsWith('Max open files'));
    const soft = line ? /^Max open files\s+(\d+)/.exec(line)?.[1] : undefined;
    return soft === undefined ? null : Number(soft);
  } catch {
    return null;
  }
}
