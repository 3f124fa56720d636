/**
 * The set of live outputs of one run: fans each interval out to every output, computes the
 * live verdict at most once per interval (and only if an output asks), and keeps a failing
 * output from taking the run down: its error is said once and the output is dropped.
 */
import type { TimeseriesPoint } from '../../contract/report.js';
import type { MetricSet } from '../../metrics/metric-set.js';
import type { LiveOutput, LiveVerdict, SessionInfo } from './live-output.js';

export class LiveOutputs {
  private judge: ((total: MetricSet) => LiveVerdict) | null = null;

  constructor(
    private readonly outputs: LiveOutput[],
    private readonly warn: (text: string) => void,
  ) {}

  get size(): number {
    return this.outputs.length;
  }

  /** A session starts: `judge` gives the verdict on a running total. */
  beginSession(info: SessionInfo, judge: (total: MetricSet) => LiveVerdict): void {
    this.judge = judge;
    this.each((output) => output.beginSession(info));
  }

  /** One merged interval; `interval` and `total` are read now and not kept. */
  publish(point: TimeseriesPoint, interval: MetricSet, total: MetricSet): void {
    let verdict: LiveVerdict | undefined;
    const judge = this.judge;
    const sample = {
      point,
      interval,
      total,
      verdict: (): LiveVerdict => {
        verdict ??= judge ? judge(total) : { verdict: 'pass', checks: [], thresholds: [] };
        return verdict;
      },
    };
    this.each((output) => output.onInterval(sample));
  }

  async close(): Promise<void> {
    await Promise.all(this.outputs.map((output) => output.close()));
  }

  private each(action: (output: LiveOutput) => void): void {
    for (const output of [...this.outputs]) {
      try {
        action(output);
      } catch (error) {
        this.outputs.splice(this.outputs.indexOf(output), 1);
        this.warn(`${output.name} stopped after an error (${error instanceof Error ? error.message : String(error)}): the run goes on without it`);
      }
    }
  }
}
