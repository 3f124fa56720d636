/**
 * Debian's nginx (nginx-light: ssl and http_v2) as a TLS reverse proxy on 127.0.0.1 for tests
 * that need a real intermediary in front of a target. Each instance has its own config, pid
 * file, logs and temp paths in a folder of the test's, runs in the foreground with no master
 * process (`daemon off; master_process off;`), and is stopped by its PID. A test that finds no
 * nginx skips, saying why.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { connect } from 'node:net';
import { join } from 'node:path';
import { freePort } from './free-port.js';

export const NGINX = process.env.COACHBENCH_NGINX ?? '/usr/sbin/nginx';
export const HAS_NGINX = existsSync(NGINX);
/** Appended to a test's name when it cannot run, so the skip says why where it is listed. */
export const NGINX_SKIP_NOTE = HAS_NGINX ? '' : ` (SKIPPED: no nginx at ${NGINX}; install it with: apt-get install -y nginx-light)`;

/** What nginx's docs ask of a location that proxies server-sent events. */
export const SSE_LOCATION = ['proxy_buffering off;', 'proxy_http_version 1.1;', 'proxy_read_timeout 1h;'] as const;

/** nginx buffering at its default (`proxy_buffering on`, unless the upstream sends `X-Accel-Buffering: no`). */
export const DEFAULT_BUFFERING_LOCATION = ['proxy_http_version 1.1;', 'proxy_read_timeout 1h;'] as const;

export interface NginxOptions {
  /** A folder of the test's own: config, pid, logs and temp paths go here. */
  dir: string;
  /** The upstream origin, e.g. http://127.0.0.1:7080. */
  upstream: string;
  /** Server certificate and key files (PEM) for the TLS listener. */
  certFile: string;
  keyFile: string;
  /** Directives of the proxying location, besides `proxy_pass`. */
  location: readonly string[];
  /** More locations, path prefix → upstream origin, with nginx's defaults (a path routed to another service). */
  routes?: Readonly<Record<string, string>>;
}

export interface RunningNginx {
  /** https://127.0.0.1:PORT */
  url: string;
  pid: number;
  /** nginx's error log so far, for assertion messages. */
  errorLog(): Promise<string>;
  /** Stops nginx by its PID and waits for it to exit. */
  stop(): Promise<void>;
}

function configText(options: NginxOptions, port: number): string {
  const dir = options.dir;
  return `daemon off;
master_process off;
worker_processes 1;
pid ${join(dir, 'nginx.pid')};
error_log ${join(dir, 'error.log')} notice;
events { worker_connections 4096; }
http {
  access_log ${join(dir, 'access.log')};
  client_body_temp_path ${join(dir, 'client_body')};
  proxy_temp_path ${join(dir, 'proxy')};
  fastcgi_temp_path ${join(dir, 'fastcgi')};
  uwsgi_temp_path ${join(dir, 'uwsgi')};
  scgi_temp_path ${join(dir, 'scgi')};
  server {
    listen 127.0.0.1:${port} ssl http2;
    ssl_certificate ${options.certFile};
    ssl_certificate_key ${options.keyFile};
    location / {
      proxy_pass ${options.upstream};
      ${options.location.join('\n      ')}
    }
${Object.entries(options.routes ?? {})
  .map(([path, upstream]) => `    location ${path} { proxy_pass ${upstream}; }\n`)
  .join('')}  }
}
`;
}

/** Resolves once 127.0.0.1:port accepts a connection; rejects if the process exits first or after 10 s. */
async function listening(port: number, child: ChildProcess, errorLog: () => Promise<string>): Promise<void> {
  const deadline = performance.now() + 10_000;
  while (performance.now() < deadline) {
    if (child.exitCode !== null || child.signalCode !== null) throw new Error(`nginx exited (${child.exitCode ?? child.signalCode}): ${await errorLog()}`);
    const accepted = await new Promise<boolean>((resolve) => {
      const socket = connect(port, '127.0.0.1', () => {
        socket.destroy();
        resolve(true);
      });
      socket.on('error', () => resolve(false));
    });
    if (accepted) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`nginx did not listen on ${port} within 10 s: ${await errorLog()}`);
}

/** Starts nginx in front of `options.upstream`; the caller stops it (afterAll / finally). */
export async function startNginx(options: NginxOptions): Promise<RunningNginx> {
  await mkdir(options.dir, { recursive: true });
  const port = await freePort();
  const config = join(options.dir, 'nginx.conf');
  await writeFile(config, configText(options, port));
  const errorLog = (): Promise<string> => readFile(join(options.dir, 'error.log'), 'utf8').catch(() => '');
  // -e: the error log before the config is read (Debian's default, /var/log/nginx, is not ours).
  const child = spawn(NGINX, ['-p', options.dir, '-c', config, '-e', join(options.dir, 'error.log')], { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  try {
    await listening(port, child, async () => `${stderr}${await errorLog()}`);
  } catch (error) {
    child.kill('SIGKILL');
    throw error;
  }
  const pid = child.pid as number;
  return {
    url: `https://127.0.0.1:${port}`,
    pid,
    errorLog,
    stop: async () => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      // SIGTERM: nginx's fast shutdown; a process that lingers is killed.
      process.kill(pid, 'SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
      await exited;
      clearTimeout(timer);
    },
  };
}
