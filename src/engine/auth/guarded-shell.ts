/**
 * A shell command that cannot outlive this process (docs/design.md §2.8), SIGKILL included,
 * when no code of ours runs at its end. The command runs under a small Node guard that leads
 * a process group of its own (the command and whatever it starts are in it) and holds the
 * read end of a pipe whose only write end is ours: when this process ends, however it ends,
 * the kernel closes that end, the guard reads end-of-file and kills its whole group. Ending
 * the group from here (a timeout, a stop) is a kill of the guard's PID as a group.
 */
import { type ChildProcessByStdio, spawn } from 'node:child_process';
import type { Readable, Writable } from 'node:stream';

// CommonJS, run with `node -e`: argv[1] is the command. The guard's own stdout and stderr are
// the command's (inherited), and it passes on how the command ended: its code, or its signal.
const GUARD = `
const { spawn } = require('node:child_process');
const killGroup = () => { try { process.kill(-process.pid, 'SIGKILL'); } catch {} };
process.stdin.on('end', killGroup).on('error', killGroup).resume();
const child = spawn(process.argv[1], { shell: true, stdio: ['ignore', 'inherit', 'inherit'] });
child.on('error', (error) => { process.stderr.write('could not start: ' + (error.code || error.message) + '\\n'); process.exit(127); });
child.on('exit', (code, signal) => {
  process.stdin.destroy();
  process.exitCode = signal === null ? code : 128 + (require('node:os').constants.signals[signal] || 0);
  if (signal !== null) process.kill(process.pid, signal);
});
`;

/** Runs `command` in a shell under the guard; stdin is the guard's pipe, never the command's. */
export function spawnGuardedShell(command: string, env: NodeJS.ProcessEnv = process.env): ChildProcessByStdio<Writable, Readable, Readable> {
  const child = spawn(process.execPath, ['-e', GUARD, command], { detached: true, env, stdio: ['pipe', 'pipe', 'pipe'] });
  // Nothing is ever written to the guard: its pipe only has to stay open while we live.
  child.stdin.on('error', () => undefined);
  return child;
}
