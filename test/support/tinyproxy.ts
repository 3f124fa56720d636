/**
 * A real tinyproxy (the Debian package) for tests: its own config, pid file and log in a
 * folder of the test's, listening on 127.0.0.1 on a free port, in the foreground (`-d`), and
 * stopped by its PID. Its packaged defaults besides: `Allow 127.0.0.1`, an idle `Timeout`
 * far longer than a run (SSE streams sit idle between KEEP_ALIVEs).
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { connect } from 'node:net';
import { join } from 'node:path';
import { freePort } from './free-port.js';

export const TINYPROXY = '/usr/bin/tinyproxy';
export const HAS_TINYPROXY = existsSync(TINYPROXY);

export interface TinyproxyOptions {
  /** Connections served at once; the rest wait in its queue. */
  maxClients?: number;
  /** Extended regular expressions of URLs tinyproxy refuses itself (`403 Filtered`). */
  filterUrls?: readonly string[];
  /** Credentials it asks every client for (`BasicAuth`). */
  basicAuth?: { user: string; password: string };
}

export interface Tinyproxy {
  /** `http://127.0.0.1:PORT`, for HTTP_PROXY or --proxy. */
  url: string;
  /** Rewrites its config with `options` and has it reload (SIGUSR1), resolving once it has: a proxy reconfigured mid-run. */
  reconfigure: (options: TinyproxyOptions) => Promise<void>;
  stop: () => Promise<void>;
}

/** Resolves once `port` on 127.0.0.1 accepts connections (tinyproxy prints nothing when ready). */
async function listening(port: number, child: ChildProcess, deadlineMs: number): Promise<void> {
  const until = performance.now() + deadlineMs;
  while (performance.now() < until) {
    if (child.exitCode !== null) throw new Error(`tinyproxy exited ${child.exitCode}`);
    const ok = await new Promise<boolean>((resolve) => {
      const probe = connect(port, '127.0.0.1');
      probe.once('connect', () => {
        probe.destroy();
        resolve(true);
      });
      probe.once('error', () => resolve(false));
    });
    if (ok) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`tinyproxy did not listen on 127.0.0.1:${port}`);
}

/** The config file's text; `LogLevel Notice` logs each reload, which reconfigure() waits for, and no line per connection. */
async function configText(dir: string, port: number, options: TinyproxyOptions): Promise<string> {
  const filter = join(dir, `tinyproxy-${port}.filter`);
  const lines = [
    `Port ${port}`,
    'Listen 127.0.0.1',
    `MaxClients ${options.maxClients ?? 100}`,
    'Allow 127.0.0.1',
    'Timeout 600',
    `PidFile "${join(dir, `tinyproxy-${port}.pid`)}"`,
    `LogFile "${join(dir, `tinyproxy-${port}.log`)}"`,
    'LogLevel Notice',
  ];
  if (options.filterUrls !== undefined) {
    await writeFile(filter, `${options.filterUrls.join('\n')}\n`);
    lines.push(`Filter "${filter}"`, 'FilterURLs On', 'FilterType ere');
  }
  if (options.basicAuth !== undefined) lines.push(`BasicAuth ${options.basicAuth.user} ${options.basicAuth.password}`);
  return `${lines.join('\n')}\n`;
}

const RELOADED = 'Reloading config file finished';

/** Starts tinyproxy with its files in `dir` (which must exist); the caller stops it. */
export async function startTinyproxy(dir: string, options: TinyproxyOptions = {}): Promise<Tinyproxy> {
  const port = await freePort();
  const config = join(dir, `tinyproxy-${port}.conf`);
  const log = join(dir, `tinyproxy-${port}.log`);
  await writeFile(config, await configText(dir, port, options));
  const child = spawn(TINYPROXY, ['-d', '-c', config], { stdio: 'ignore' });
  const exited = once(child, 'exit');
  try {
    await listening(port, child, 10_000);
  } catch (error) {
    if (child.exitCode === null && child.pid !== undefined) process.kill(child.pid, 'SIGKILL');
    throw error;
  }
  const pid = child.pid as number;
  const reloads = async (): Promise<number> => (await readFile(log, 'utf8').catch(() => '')).split(RELOADED).length - 1;
  return {
    url: `http://127.0.0.1:${port}`,
    reconfigure: async (next) => {
      const before = await reloads();
      await writeFile(config, await configText(dir, port, next));
      // tinyproxy 1.11 reloads its config on SIGUSR1 (SIGHUP ends it when in the foreground).
      process.kill(pid, 'SIGUSR1');
      const until = performance.now() + 10_000;
      while ((await reloads()) <= before) {
        if (performance.now() > until) throw new Error('tinyproxy did not reload its config within 10 s');
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    },
    stop: async () => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      process.kill(pid, 'SIGTERM');
      await exited;
    },
  };
}
