/**
 * `coachbench serve` (built bin/) in a process of its own, as a user starts it in front of
 * `run --target`: on a free port of 127.0.0.1, its URL read from the start-up line, its
 * fixtures file written where asked, stopped by its PID. For tests that put something real
 * (a proxy, nginx) between a run and the target.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { BIN } from './bin-helpers.js';

export interface ServeProcess {
  /** `http://127.0.0.1:PORT` or `https://...`. */
  url: string;
  /** The fixtures file it wrote. */
  fixtures: string;
  pid: number;
  stop: () => Promise<void>;
}

/** Starts `coachbench serve --port 0 --fixtures-out FILE ...args`; resolves once it prints its URL (15 s at most). */
export async function startServe(fixturesOut: string, args: readonly string[] = []): Promise<ServeProcess> {
  const child: ChildProcess = spawn(process.execPath, [BIN, 'serve', '--port', '0', '--fixtures-out', fixturesOut, ...args], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const collect = (chunk: Buffer): void => {
    output += chunk.toString();
  };
  child.stdout!.on('data', collect);
  child.stderr!.on('data', collect);
  const exited = once(child, 'exit');
  const deadline = setTimeout(() => child.kill('SIGKILL'), 15_000);
  const url = /https?:\/\/127\.0\.0\.1:\d+/;
  try {
    while (!url.test(output)) {
      if (child.exitCode !== null || child.signalCode !== null) throw new Error(`coachbench serve exited ${child.exitCode}: ${output.trim()}`);
      await Promise.race([once(child.stdout!, 'data'), exited]);
    }
  } finally {
    clearTimeout(deadline);
  }
  const pid = child.pid as number;
  return {
    url: url.exec(output)![0],
    fixtures: fixturesOut,
    pid,
    stop: async () => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      process.kill(pid, 'SIGTERM');
      await exited;
    },
  };
}
