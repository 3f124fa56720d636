/**
 * The set of live outputs of one run: fans each interval out to every output, computes the
 * live verdict at most once per interval (and only if an output asks), and keeps a failing
 * output from taking the run down: its error is said once and the output is dropped.
 */
import type { TimeseriesPoint } from '../../contract/report.js';
import { hurriedAfter } from '../../engine/drain.js';
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

  /**
   * Closes every output: the OTLP push sends once more, which a collector that never answers
   * holds for its exporter's timeouts. After a stop signal (`hurry`), the close is given up
   * as a drain is (engine/drain.ts SIGNAL_DRAIN_MS), so the process ends in time (docs/design.md §2.8).
   */
  async close(hurry?: AbortSignal): Promise<void> {
    const closing = Promise.all(this.outputs.map((output) => output.close()));
    if (hurry === undefined) return void (await closing);
    const hurried = hurriedAfter(hurry);
    const givenUp = new Promise<void>((resolve) => hurried.addEventListener('abort', () => resolve(), { once: true }));
    await Promise.race([closing, givenUp]);
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
