/**
 * `run --metrics-port` end to end with a real Prometheus (Debian's `prometheus` package):
 * Prometheus scrapes a 25 s run against the embedded target every second, and a PromQL query
 * over its HTTP API returns the event count report.json holds. Skipped, saying why, only
 * where no Prometheus is installed (.ci/run installs it).
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { Report } from '../../../src/contract/report.js';
import { quickProfile, runProfile } from '../run-helpers.js';

const PROMETHEUS = process.env.COACHBENCH_PROMETHEUS ?? '/usr/bin/prometheus';
const HAS_PROMETHEUS = existsSync(PROMETHEUS);
if (!HAS_PROMETHEUS) console.warn(`Prometheus test skipped: no Prometheus at ${PROMETHEUS} (apt-get install -y prometheus, or set COACHBENCH_PROMETHEUS)`);
const SKIP_NOTE = HAS_PROMETHEUS ? '' : ` (SKIPPED: no Prometheus at ${PROMETHEUS})`;

/** A port that was free a moment ago (the kernel's pick for a listener on 0). */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}

interface PromResult {
  metric: Record<string, string>;
  value: [number, string];
}

async function query(promUrl: string, promql: string): Promise<PromResult[]> {
  const response = await fetch(`${promUrl}/api/v1/query?query=${encodeURIComponent(promql)}`);
  const body = (await response.json()) as { status: string; data: { result: PromResult[] } };
  expect(body.status).toBe('success');
  return body.data.result;
}

const scalar = async (promUrl: string, promql: string): Promise<number> => Number((await query(promUrl, promql))[0]?.value[1] ?? Number.NaN);

const reportEvents = (report: Report): number => {
  const chat = report.scenarios.chatStreams;
  if (!chat) return 0;
  const sum = (record: Record<string, number>): number => Object.values(record).reduce((a, b) => a + b, 0);
  return sum(chat.events) + sum(chat.mainStreams.events);
};

let prometheus: ChildProcess | null = null;
let workDir = '';

afterAll(async () => {
  if (prometheus?.pid !== undefined && prometheus.exitCode === null) {
    const exited = new Promise((resolve) => prometheus?.once('exit', resolve));
    process.kill(prometheus.pid, 'SIGTERM');
    await exited;
  }
  if (workDir) await rm(workDir, { recursive: true, force: true });
});

describe(`a real Prometheus scrapes run --metrics-port${SKIP_NOTE}`, () => {
  it.skipIf(!HAS_PROMETHEUS)(
    'and a PromQL query returns the run’s event count',
    async () => {
      workDir = await mkdtemp(join(tmpdir(), 'coachbench-prom-'));
      const [metricsPort, promPort] = [await freePort(), await freePort()];
      await writeFile(
        join(workDir, 'prometheus.yml'),
        [
          'global:',
          '  scrape_interval: 1s',
          '  scrape_timeout: 900ms',
          'scrape_configs:',
          '  - job_name: coachbench',
          '    static_configs:',
          `      - targets: ['127.0.0.1:${metricsPort}']`,
          '',
        ].join('\n'),
      );
      let promLog = '';
      prometheus = spawn(
        PROMETHEUS,
        [`--config.file=${join(workDir, 'prometheus.yml')}`, `--storage.tsdb.path=${join(workDir, 'data')}`, `--web.listen-address=127.0.0.1:${promPort}`],
        { stdio: ['ignore', 'ignore', 'pipe'] },
      );
      prometheus.stderr?.on('data', (chunk: Buffer) => {
        promLog = (promLog + chunk.toString()).slice(-4_000);
      });
      const promUrl = `http://127.0.0.1:${promPort}`;
      for (let i = 0; ; i++) {
        const ready = await fetch(`${promUrl}/-/ready`).then(
          (r) => r.ok,
          () => false,
        );
        if (ready) break;
        if (i > 100 || prometheus.exitCode !== null) throw new Error(`Prometheus did not start:\n${promLog}`);
        await new Promise((resolve) => setTimeout(resolve, 200));
      }

      const { report } = await runProfile(quickProfile({ duration: '25s' }), { metricsPort: String(metricsPort) });
      // Let Prometheus notice the endpoint is gone (one more scrape) before it is asked.
      await new Promise((resolve) => setTimeout(resolve, 1_500));

      const expected = reportEvents(report);
      // max_over_time: the series went stale when the run closed its endpoint.
      const scraped = await scalar(promUrl, 'sum(max_over_time(coachbench_events_total[5m]))');
      // The last scrape comes up to one scrape interval (1 s) before the endpoint closes, so it
      // can miss what the last intervals published: the final full one and the partial one.
      const points = report.timeseries;
      const missable = points.slice(-3).reduce((n, point) => n + point.events, 0);
      console.info(`report.json: ${expected} events; Prometheus: ${scraped}; tolerance ${missable} (events of the last 3 intervals)`);
      expect(expected).toBeGreaterThan(1_000);
      expect(scraped).toBeLessThanOrEqual(expected);
      expect(scraped).toBeGreaterThanOrEqual(expected - missable);

      // The run was watched live: about one sample a second, open streams seen, checks judged.
      const samples = await scalar(promUrl, 'count_over_time(coachbench_run_elapsed_seconds[5m])');
      expect(samples).toBeGreaterThanOrEqual(18);
      expect(await scalar(promUrl, 'max_over_time(coachbench_open_streams{stream="chat"}[5m])')).toBe(report.scenarios.chatStreams?.participants);
      const p99 = await scalar(promUrl, 'histogram_quantile(0.99, sum by (le) (max_over_time(coachbench_keepalive_gap_seconds_bucket[5m])))');
      expect(p99).toBeGreaterThan(0.4);
      expect(p99).toBeLessThan(1);
      // Stream open latency (request → headers) is exported as a histogram: the opens it counted are the report's, or the last scrape's share of them.
      const opens = await scalar(promUrl, 'sum(max_over_time(coachbench_stream_open_seconds_count[5m]))');
      expect(opens).toBeGreaterThan(0);
      expect(opens).toBeLessThanOrEqual(report.scenarios.chatStreams!.openLatencyMs.count);
      const passing = await query(promUrl, 'last_over_time(coachbench_check_status{check="stream.open",status="pass"}[5m])');
      expect(passing[0]?.value[1]).toBe('1');
    },
    90_000,
  );
});
