// Runs one load generator (a `coachbench run`, autocannon's CLI, wrk) as its own process and
// measures the CPU it used, the same way for every tool: utime+stime of the generator process
// (and anything it started and reaped) from /proc. A process's counters vanish the moment it
// is reaped, so a small bash wrapper waits for it and then reads its own /proc/$$/stat, whose
// cutime+cstime are exactly the reaped generator's utime+stime.
import { spawn } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';

const CLOCK_TICKS_PER_SEC = 100;

// The generator runs in the background only so that its PID is known (to stop it on overrun).
const WRAPPER = `"$@" >"$CB_OUT" 2>&1 </dev/null & pid=$!
echo "pid $pid" >&2
wait "$pid"; status=$?
read -r stat </proc/$$/stat
echo "stat $stat" >&2
exit $status`;

/**
 * Runs `command args...` (on `cpu` with taskset when given), its output to `outFile`; resolves
 * with its exit code, output, CPU seconds and wall seconds. Stopped by PID after `timeoutMs`.
 */
export function runMeasured(command, args, { env = {}, cpu = null, outFile, timeoutMs = 300_000 }) {
  const argv = cpu === null ? [command, ...args] : ['taskset', '-c', cpu, command, ...args];
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const wrapper = spawn('bash', ['-c', WRAPPER, 'bash', ...argv], {
      env: { ...process.env, ...env, CB_OUT: outFile },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let err = '';
    let generatorPid = null;
    wrapper.stderr.on('data', (chunk) => {
      err += chunk;
      generatorPid ??= Number(/^pid (\d+)/m.exec(err)?.[1]) || null;
    });
    const overrun = setTimeout(() => {
      if (generatorPid !== null) process.kill(generatorPid, 'SIGTERM');
    }, timeoutMs);
    wrapper.on('error', reject);
    wrapper.on('exit', async (code) => {
      clearTimeout(overrun);
      const wallSeconds = (performance.now() - started) / 1_000;
      const stat = /^stat .*$/m.exec(err)?.[0];
      const output = await readFile(outFile, 'utf8').catch(() => '');
      if (!stat) return reject(new Error(`${argv.join(' ')}: no CPU figures (${err.trim()})\n${output}`));
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      const cpuSeconds = (Number(fields[13]) + Number(fields[14])) / CLOCK_TICKS_PER_SEC;
      resolve({ code, output, cpuSeconds, wallSeconds });
    });
  });
}

/** The last line of a tool's output that is a JSON object (its summary), or undefined. */
export const lastJsonLine = (output) =>
  output
    .trim()
    .split('\n')
    .findLast((line) => line.startsWith('{'));

/** A fresh output file name under `dir` for one measured run. */
let runs = 0;
export const outFileIn = (dir, label) => join(dir, `${label}-${++runs}.out`);
