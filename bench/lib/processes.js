// Shared by the benchmarks: start processes we own, read their RSS/CPU from /proc, stop them by PID.
import { spawn } from 'node:child_process';
import { readdirSync, readFileSync, rmSync } from 'node:fs';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export const BIN = new URL('../../bin/coachbench.js', import.meta.url).pathname;
export const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** A temporary folder for profiles, fixtures, bodies and reports, removed when the benchmark exits. */
export async function benchDir(label) {
  const dir = await mkdtemp(join(tmpdir(), `coachbench-${label}-`));
  process.once('exit', () => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

/** Spawns `node args...`; resolves with the child once `readyPattern` shows on stdout/stderr (at once when null). */
export function startProcess(args, readyPattern, env = {}) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    let ready = false;
    // Output keeps being collected after ready, for results printed at exit.
    const onData = (d) => {
      output += d.toString();
      const match = !ready && readyPattern.exec(output);
      if (match) {
        ready = true;
        resolve({ child, match, output: () => output });
      }
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    if (readyPattern === null) {
      ready = true;
      resolve({ child, match: null, output: () => output });
    }
    child.on('exit', (code) => {
      if (!ready) reject(new Error(`${args.join(' ')} exited ${code} before ready:\n${output}`));
    });
  });
}

/** Resident set size of a process we started, bytes (from /proc, same method for every process). */
export function rssBytes(pid) {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+) kB/.exec(status)[1]) * 1024;
}

/** CPU seconds (user + system) a process has used so far. */
export function cpuSeconds(pid) {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

/** Waits for a child to exit; returns its exit code. */
export function exited(child) {
  if (child.exitCode !== null) return Promise.resolve(child.exitCode);
  return new Promise((resolve) => child.on('exit', (code) => resolve(code)));
}

/** Stops a process we started, by its PID: SIGTERM, then SIGKILL after a grace period. */
export async function stopProcess(child, graceMs = 10_000) {
  if (child.exitCode !== null) return;
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
  await exited(child);
  clearTimeout(timer);
}

/** Starts the reference target as its own process (so it never shares the driver's event loop). */
export async function startServe(serveArgs) {
  const started = await startProcess([BIN, 'serve', '--port', '0', ...serveArgs], /coachbench serve: (https?:\/\/[^\s]+)/);
  return { child: started.child, url: started.match[1] };
}

/** The PIDs of a process we started and of its children (workers), from /proc. */
export function processTree(rootPid) {
  const children = new Map();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      children.set(ppid, [...(children.get(ppid) ?? []), Number(entry)]);
    } catch {
      /* ended while we looked */
    }
  }
  const out = [];
  const walk = (pid) => {
    out.push(pid);
    for (const child of children.get(pid) ?? []) walk(child);
  };
  walk(rootPid);
  return out;
}

/** Samples RSS and CPU of every process in a tree every second; `summary()` gives peak RSS and CPU seconds per PID. */
export function treeSampler(rootPid, label) {
  const seen = new Map();
  const timer = setInterval(() => {
    for (const pid of processTree(rootPid)) {
      try {
        const entry = seen.get(pid) ?? { pid, role: pid === rootPid ? `${label} parent` : `${label} worker`, peakRssBytes: 0, cpuSeconds: 0 };
        entry.peakRssBytes = Math.max(entry.peakRssBytes, rssBytes(pid));
        entry.cpuSeconds = cpuSeconds(pid);
        seen.set(pid, entry);
      } catch {
        /* exited */
      }
    }
  }, 1000);
  return { stop: () => clearInterval(timer), summary: () => [...seen.values()] };
}
