/**
 * A shell command that cannot outlive this process (docs/design.md §2.8), SIGKILL included,
 * when no code of ours runs at its end. The command runs under a small shell guard that leads
 * a process group of its own (the command and whatever it starts are in it) and holds the
 * read end of a pipe whose only write end is ours: when this process ends, however it ends,
 * the kernel closes that end, the guard's watcher reads end-of-file and kills the whole group.
 * Ending the group from here (a timeout, a stop) is a kill of the guard's PID as a group.
 */
import { type ChildProcessByStdio, spawn } from 'node:child_process';
import type { Readable, Writable } from 'node:stream';

// POSIX sh, `$1` the command. The guard's stdin is our pipe: kept as fd 3 for the watcher (an
// explicit redirection, since a background job's stdin is otherwise /dev/null), the command
// gets /dev/null. The watcher is a background job of the guard, in its group; it is killed
// when the command ends, so that end-of-file then kills nothing. The guard exits as the
// command did (a signal as 128 + its number, as a shell says it).
const GUARD = `exec 3<&0 </dev/null
{ cat <&3 >/dev/null 2>&1; kill -KILL 0; } &
watcher=$!
exec 3<&-
/bin/sh -c "$1"
status=$?
kill "$watcher" 2>/dev/null
exit "$status"`;

/** Runs `command` in a shell under the guard; stdin is the guard's pipe, never the command's. */
export function spawnGuardedShell(command: string, env: NodeJS.ProcessEnv = process.env): ChildProcessByStdio<Writable, Readable, Readable> {
  const child = spawn('/bin/sh', ['-c', GUARD, 'coachbench-token-guard', command], { detached: true, env, stdio: ['pipe', 'pipe', 'pipe'] });
  // Nothing is ever written to the guard: its pipe only has to stay open while we live.
  child.stdin.on('error', () => undefined);
  return child;
}
