/**
 * A real squid (the Debian package) for tests: Debian's default access rules from
 * /etc/squid/squid.conf (`deny !Safe_ports`, `deny CONNECT !SSL_ports`, `allow localhost`,
 * `deny all`), listening on 127.0.0.1 on a free port, with its own pid file and logs, no
 * cache, started in the foreground (`-N`) and killed by its PID.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { chown, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { connect as netConnect } from 'node:net';
import { userInfo } from 'node:os';
import { join } from 'node:path';
import { freePort } from './free-port.js';

export const SQUID = '/usr/sbin/squid';

/** Why squid tests cannot run here, or null when they can. */
export const squidMissing = (): string | null => (existsSync(SQUID) ? null : `${SQUID} not found (Debian package squid)`);

export interface Squid {
  /** `http://127.0.0.1:PORT`, for HTTP_PROXY or --proxy. */
  url: string;
  /** The lines of access.log so far (`... TCP_MISS/200 1234 GET http://... - HIER_DIRECT/...`). */
  accessLog: () => Promise<string[]>;
  /** Kills squid by its PID and removes its files. */
  stop: () => Promise<void>;
}

/** Debian 12's default http_access rules and the ACLs they use (squid 5.7, /etc/squid/squid.conf). */
const DEBIAN_RULES = `
acl SSL_ports port 443
acl Safe_ports port 80
acl Safe_ports port 21
acl Safe_ports port 443
acl Safe_ports port 70
acl Safe_ports port 210
acl Safe_ports port 1025-65535
acl Safe_ports port 280
acl Safe_ports port 488
acl Safe_ports port 591
acl Safe_ports port 777
http_access deny !Safe_ports
http_access deny CONNECT !SSL_ports
http_access allow localhost manager
http_access deny manager
http_access allow localhost
http_access deny all
`;

const accepts = (port: number): Promise<boolean> =>
  new Promise((resolve) => {
    const socket = netConnect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });

/** What a test adds to Debian's squid.conf. */
export interface SquidOptions {
  /** A regex: a site rule refusing the requests whose path matches, ahead of Debian's rules. */
  denyUrlPath?: string;
  /** squid.conf lines put ahead of Debian's rules, e.g. `acl SSL_ports port 1025-65535` (CONNECT to those ports too) or `read_timeout 1 seconds`. */
  directives?: readonly string[];
}

/**
 * Starts squid with its files in a folder of its own under `parent`, with `options` ahead of
 * Debian's rules. Started as root, squid
 * drops to the user `proxy`, which must be able to reach that folder: the tests' own temp
 * folders are private to root, so as root the folder is made under /tmp and removed at stop.
 */
export async function startSquid(parent: string, options: SquidOptions = {}): Promise<Squid> {
  const root = userInfo().uid === 0;
  const dir = await mkdtemp(join(root ? '/tmp' : parent, 'coachbench-squid-'));
  const port = await freePort();
  // A rule a site adds in front of Debian's (its conf.d/ is included before `allow localhost`).
  const deny = options.denyUrlPath === undefined ? '' : `acl denied_paths urlpath_regex ${options.denyUrlPath}\nhttp_access deny denied_paths\n`;
  const directives = (options.directives ?? []).map((line) => `${line}\n`).join('');
  const config = `${directives}${deny}${DEBIAN_RULES}
http_port 127.0.0.1:${port}
pid_filename ${dir}/squid.pid
access_log stdio:${dir}/access.log
cache_log ${dir}/cache.log
cache_store_log none
cache deny all
cache_mem 8 MB
coredump_dir ${dir}
visible_hostname coachbench-test
shutdown_lifetime 0 seconds
pinger_enable off
netdb_filename none
${root ? 'cache_effective_user proxy' : ''}
`;
  await writeFile(join(dir, 'squid.conf'), config);
  if (root) {
    const proxy = await readFile('/etc/passwd', 'utf8').then((text) => /^proxy:[^:]*:(\d+):(\d+):/m.exec(text));
    if (proxy === null) throw new Error('squid runs as the user proxy, which /etc/passwd lacks');
    await chown(dir, Number(proxy[1]), Number(proxy[2]));
  }
  let output = '';
  // A service name of its own: squid names its shared memory segments after it, and two
  // squids of one name (tests side by side) would collide over them.
  const service = `cb${process.pid}x${port}`;
  const child: ChildProcess = spawn(SQUID, ['-N', '-n', service, '-f', join(dir, 'squid.conf')], { stdio: ['ignore', 'pipe', 'pipe'] });
  const collect = (chunk: Buffer): void => {
    output += chunk.toString();
  };
  child.stdout?.on('data', collect);
  child.stderr?.on('data', collect);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const deadline = Date.now() + 20_000;
  while (!(await accepts(port))) {
    const log = await readFile(join(dir, 'cache.log'), 'utf8').catch(() => '');
    if (child.exitCode !== null || Date.now() > deadline) {
      if (child.exitCode === null && child.pid !== undefined) process.kill(child.pid, 'SIGKILL');
      await rm(dir, { recursive: true, force: true });
      const said = (output + log).split('\n').filter((line) => /FATAL|ERROR|WARNING/.test(line));
      throw new Error(`squid did not start on 127.0.0.1:${port}: ${said.slice(-3).join(' | ') || 'no error logged'}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return {
    url: `http://127.0.0.1:${port}`,
    accessLog: async () =>
      (await readFile(join(dir, 'access.log'), 'utf8').catch(() => ''))
        .split('\n')
        .map((line) => line.trim())
        .filter(Boolean),
    stop: async () => {
      if (child.exitCode === null && child.pid !== undefined) {
        process.kill(child.pid, 'SIGTERM');
        const killer = setTimeout(() => child.pid !== undefined && child.exitCode === null && process.kill(child.pid, 'SIGKILL'), 5_000);
        await exited;
        clearTimeout(killer);
      }
      await rm(dir, { recursive: true, force: true });
    },
  };
}
