/**
 * `coachbench serve` (built bin/) in a process of its own, on a free port of 127.0.0.1, with
 * its fixtures file written: a target for tests that put something real (a proxy) between a
 * run and the target. Stopped by its PID.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { join } from 'node:path';

const BIN = new URL('../../bin/coachbench.js', import.meta.url).pathname;

export interface ServeProcess {
  /** http://127.0.0.1:PORT */
  url: string;
  fixtures: string;
  pid: number;
  close(): Promise<void>;
}

/** Starts `serve --port 0 --fixtures-out DIR/fixtures.json` with `flags`; resolves once it printed its URL. */
export async function startServeProcess(dir: string, flags: readonly string[]): Promise<ServeProcess> {
  const fixtures = join(dir, 'fixtures.json');
  const child: ChildProcess = spawn(process.execPath, [BIN, 'serve', '--port', '0', '--fixtures-out', fixtures, ...flags], {
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
  try {
    while (!/http:\/\/127\.0\.0\.1:\d+/.test(output)) {
      if (child.exitCode !== null || child.signalCode !== null) throw new Error(`coachbench serve exited: ${output}`);
      await Promise.race([once(child.stdout!, 'data'), exited]);
    }
  } finally {
    clearTimeout(deadline);
  }
  const url = /http:\/\/127\.0\.0\.1:\d+/.exec(output)![0];
  const pid = child.pid as number;
  return {
    url,
    fixtures,
    pid,
    close: async () => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      process.kill(pid, 'SIGTERM');
      await exited;
    },
  };
}
