/**
 * `coachbench serve` (built bin/) in a process of its own, as a user starts it in front of
 * `run --target`: its URL read from the start-up line, its fixtures file written where asked,
 * stopped by its PID.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';

const BIN = new URL('../../bin/coachbench.js', import.meta.url).pathname;

export interface ServeProcess {
  /** `http://127.0.0.1:PORT` or `https://...`. */
  url: string;
  stop: () => Promise<void>;
}

/** Starts `coachbench serve --port 0 --fixtures-out FILE ...args`; resolves once it prints its URL. */
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
  const url = /https?:\/\/127\.0\.0\.1:\d+/;
  while (!url.test(output)) {
    if (child.exitCode !== null) throw new Error(`coachbench serve exited ${child.exitCode}: ${output.trim()}`);
    await Promise.race([once(child.stdout!, 'data'), once(child, 'exit')]);
  }
  return {
    url: url.exec(output)![0],
    stop: async () => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = once(child, 'exit');
      child.kill('SIGTERM');
      await exited;
    },
  };
}
