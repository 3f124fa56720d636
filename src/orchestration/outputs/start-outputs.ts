/**
 * Starts the live outputs a run asked for (output-config.ts), once per run: a capacity
 * search keeps the same endpoint and page across its steps. An address that cannot be had
 * stops the run before its target starts (exit 2); outputs already started are closed.
 * Each output's module (prom-client, OpenTelemetry) is loaded only when it is asked for:
 * loading them would cost every run CPU that only some use (docs/benchmarks.md, "Figures behind the code").
 */
import type { LiveOutput } from './live-output.js';
import { LiveOutputs } from './live-outputs.js';
import type { LiveOutputConfig } from './output-config.js';

export interface OutputStartOptions {
  /** Says where each output is (one line each on stderr); --quiet silences it. */
  say: (text: string) => void;
  /**
   * Says where an output is whose port the system chose (`0`): printed even with --quiet,
   * which silences the lines that only inform, as nothing else tells the port (docs/design.md §2.2).
   */
  tell: (text: string) => void;
  warn: (text: string) => void;
}

/** The outputs of `config`, started; an empty set when none was asked for. */
export async function startLiveOutputs(config: LiveOutputConfig, { say, tell, warn }: OutputStartOptions): Promise<LiveOutputs> {
  const where = (port: number) => (port === 0 ? tell : say);
  const started: LiveOutput[] = [];
  try {
    if (config.metricsPort !== null) {
      const { PrometheusOutput } = await import('./prometheus-output.js');
      const prometheus = await PrometheusOutput.start(config.host, config.metricsPort);
      started.push(prometheus);
      where(config.metricsPort)(`metrics: ${prometheus.url}/metrics`);
    }
    if (config.dashboardPort !== null) {
      const { DashboardOutput } = await import('./dashboard-output.js');
      const dashboard = await DashboardOutput.start(config.host, config.dashboardPort);
      started.push(dashboard);
      where(config.dashboardPort)(`dashboard: ${dashboard.url}/`);
    }
    if (config.otlpUrl !== null) {
      const { OtlpOutput } = await import('./otlp-output.js');
      started.push(new OtlpOutput(config.otlpUrl, warn));
      say(`OTLP push: ${config.otlpUrl}`);
    }
  } catch (error) {
    await Promise.all(started.map((output) => output.close()));
    throw error;
  }
  return new LiveOutputs(started, warn);
}
