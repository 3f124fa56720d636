// nginx (Debian package `nginx-light`, or any nginx on PATH) in front of the benchmark's two
// servers, as one target: photo uploads go to the ruler sink, everything else (streams, messages,
// probes, tags) to `coachbench serve`. It logs its own time for each upload ($request_time,
// millisecond resolution), a second ruler nobody here wrote. Streams pass unbuffered.
import { spawn, spawnSync } from 'node:child_process';
import { readFile, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { sleep } from './processes.js';

/** nginx's path, installed with apt where missing and possible; null with the reason when not. */
export function findNginx() {
  const which = () => spawnSync('sh', ['-c', 'command -v nginx || ls /usr/sbin/nginx 2>/dev/null'], { encoding: 'utf8' }).stdout.trim().split('\n')[0];
  let path = which();
  if (!path && process.getuid?.() === 0) {
    spawnSync('sh', ['-c', 'apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq nginx-light'], { stdio: 'ignore' });
    path = which();
  }
  return path ? { path, reason: null } : { path: null, reason: 'nginx is not installed and could not be (apt-get as root)' };
}

const freePort = () =>
  new Promise((resolve) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address();
      probe.close(() => resolve(port));
    });
  });

const hostPort = (url) => new URL(url).host;

/** Starts nginx routing uploads to `rulerUrl` and the rest to `serveUrl`; resolves with its URL, log reader and stop. */
export async function startNginxRouter(dir, nginxPath, { serveUrl, rulerUrl, connections = 16_384 }) {
  const port = await freePort();
  const logPath = join(dir, 'nginx-photo.log');
  const conf = `
worker_processes 1;
worker_rlimit_nofile 19000;
pid ${join(dir, 'nginx.pid')};
error_log ${join(dir, 'nginx-error.log')} warn;
daemon off;
events { worker_connections ${connections}; }
http {
  access_log off;
  client_body_temp_path ${dir}/nginx-body; proxy_temp_path ${dir}/nginx-proxy;
  fastcgi_temp_path ${dir}/nginx-fcgi; uwsgi_temp_path ${dir}/nginx-uwsgi; scgi_temp_path ${dir}/nginx-scgi;
  log_format ruler '$msec $request_time $upstream_response_time $status';
  upstream serve { server ${hostPort(serveUrl)}; keepalive 256; }
  upstream ruler { server ${hostPort(rulerUrl)}; keepalive 256; }
  server {
    listen 127.0.0.1:${port};
    client_max_body_size 64m;
    proxy_http_version 1.1;
    proxy_set_header Connection "";
    proxy_read_timeout 1h;
    location ~ ^/api/v1/participants/[^/]+/profile_photo$ {
      access_log ${logPath} ruler;
      proxy_request_buffering off;
      proxy_pass http://ruler;
    }
    location / {
      proxy_buffering off;
      proxy_pass http://serve;
    }
  }
}`;
  const confPath = join(dir, 'nginx.conf');
  await writeFile(confPath, conf);
  const child = spawn(nginxPath, ['-c', confPath, '-p', dir], { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (chunk) => {
    stderr += chunk;
  });
  const url = `http://127.0.0.1:${port}`;
  for (let i = 0; i < 100; i++) {
    if (child.exitCode !== null) throw new Error(`nginx exited ${child.exitCode}: ${stderr}`);
    if (
      await fetch(`${url}/api/v1/participants`, { method: 'OPTIONS' }).then(
        () => true,
        () => false,
      )
    )
      break;
    await sleep(50);
  }
  return {
    url,
    pid: child.pid,
    /** [epoch ms at the end of the request, nginx's own ms] per upload logged so far. */
    samples: async () =>
      (await readFile(logPath, 'utf8').catch(() => ''))
        .split('\n')
        .filter(Boolean)
        .map((line) => line.split(' '))
        .filter((fields) => fields[3] === '200')
        .map((fields) => [Number(fields[0]) * 1_000, Number(fields[1]) * 1_000]),
    stop: () =>
      new Promise((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', resolve);
        child.kill('SIGQUIT');
      }),
  };
}
