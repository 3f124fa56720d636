/**
 * A real Prometheus (Debian's `prometheus`, or COACHBENCH_PROMETHEUS) for the live-metrics
 * tests: its own config and storage in a temp folder, listening on 127.0.0.1, scraping one
 * loopback endpoint every second, stopped by its PID.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from './free-port.js';

export const PROMETHEUS = process.env.COACHBENCH_PROMETHEUS ?? '/usr/bin/prometheus';
export const HAS_PROMETHEUS = existsSync(PROMETHEUS);
/** Said in the test's name where it skips: .ci/run installs Prometheus. */
export const PROMETHEUS_SKIP_NOTE = HAS_PROMETHEUS
  ? ''
  : ` (SKIPPED: no Prometheus at ${PROMETHEUS}; apt-get install -y prometheus, or set COACHBENCH_PROMETHEUS)`;

export interface RunningPrometheus {
  /** `http://127.0.0.1:PORT`, its HTTP API. */
  url: string;
  stop: () => Promise<void>;
}

/** Starts Prometheus scraping `127.0.0.1:scrapePort` every second; resolves once it is ready (20 s at most). */
export async function startPrometheus(scrapePort: number, extraFlags: readonly string[] = []): Promise<RunningPrometheus> {
  const dir = await mkdtemp(join(tmpdir(), 'coachbench-prometheus-'));
  const port = await freePort();
  await writeFile(
    join(dir, 'prometheus.yml'),
    [
      'global:',
      '  scrape_interval: 1s',
      '  scrape_timeout: 900ms',
      'scrape_configs:',
      '  - job_name: coachbench',
      '    static_configs:',
      `      - targets: ['127.0.0.1:${scrapePort}']`,
      '',
    ].join('\n'),
  );
  const child: ChildProcess = spawn(
    PROMETHEUS,
    [`--config.file=${join(dir, 'prometheus.yml')}`, `--storage.tsdb.path=${join(dir, 'data')}`, `--web.listen-address=127.0.0.1:${port}`, ...extraFlags],
    { stdio: ['ignore', 'ignore', 'pipe'] },
  );
  let log = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    log = (log + chunk.toString()).slice(-4_000);
  });
  const stop = async (): Promise<void> => {
    if (child.pid !== undefined && child.exitCode === null && child.signalCode === null) {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      process.kill(child.pid, 'SIGTERM');
      await exited;
    }
    await rm(dir, { recursive: true, force: true });
  };
  const url = `http://127.0.0.1:${port}`;
  for (let i = 0; ; i++) {
    const ready = await fetch(`${url}/-/ready`).then(
      (r) => r.ok,
      () => false,
    );
    if (ready) return { url, stop };
    if (i > 100 || child.exitCode !== null) {
      await stop();
      throw new Error(`Prometheus did not start:\n${log}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}
