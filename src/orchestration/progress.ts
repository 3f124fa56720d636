/**
 * The live progress line: rewritten in place on a TTY every interval, a plain line every
 * few seconds otherwise (CI logs), a plain line every `--progress-every` when that is given
 * (an hours-long soak in `kubectl logs`), nothing with --quiet. Written to stderr so stdout
 * stays clean for piping.
 */

import { plannedParticipantsAt } from '../contract/profile/driven-plan.js';
import { peakOf, type RunPlan } from '../contract/profile/stage-plan.js';
import type { TimeseriesPoint } from '../contract/report.js';
import type { MetricSet } from '../metrics/metric-set.js';
import { CHAT, throughputNames } from '../metrics/names.js';
import { formatDuration } from '../util/duration.js';
import { formatNumber, type NumberStyle } from '../util/en-us-number.js';
import { terminalText } from '../util/printable.js';

const PLAIN_EVERY_SEC = 5;

export interface ProgressOptions {
  quiet: boolean;
  stream: NodeJS.WriteStream;
  /** The plan as this run drives it (report.ts `plan`): the streams it should hold, at each instant and at its peak. */
  plan: RunPlan;
  /** 2 when each participant holds a main stream beside its chat stream. */
  streamsPerParticipant: number;
  durationMs: number;
  /** `--progress-every`: plain lines at this cadence, on a TTY too; null: the defaults above. */
  plainEveryMs?: number | null;
}

const ONE_DECIMAL: NumberStyle = { maxFractionDigits: 1, minFractionDigits: 0, grouping: true };
/** As `toLocaleString('en-US', { maximumFractionDigits: 1 })` writes it, without starting ICU (util/en-us-number.ts). */
const fmt = (n: number): string => formatNumber(n, ONE_DECIMAL);

/** Errors of the request kinds (docs/design.md §2.15), counted under `requests.<kind>.errors`. */
function kindErrors(total: MetricSet): number {
  let errors = 0;
  for (const [name, count] of Object.entries(total.encodeCounters())) if (/^requests\.[^.]+\.errors$/.test(name)) errors += count;
  return errors;
}

export class Progress {
  private readonly tty: boolean;
  private lastPlainSec = -Infinity;
  private wroteTty = false;
  /** The most streams the plan holds at once. */
  private readonly peakStreams: number;

  constructor(private readonly options: ProgressOptions) {
    this.tty = Boolean(options.stream.isTTY) && !options.plainEveryMs;
    const chat = options.plan.scenarios.find((scenario) => scenario.unit === 'participants');
    this.peakStreams = chat ? Math.floor(peakOf(chat.stages) + 1e-9) * options.streamsPerParticipant : 0;
  }

  /** `streams 184/400 (plan 400)`: open now (chat and main), the plan's peak, and what the plan holds now. */
  private streams(point: TimeseriesPoint): string {
    const open = point.streamsOpen + point.mainStreamsOpen;
    if (this.peakStreams === 0) return `streams ${fmt(open)}`;
    const planned = Math.floor(plannedParticipantsAt(this.options.plan, point.tSec * 1_000) + 1e-9) * this.options.streamsPerParticipant;
    return `streams ${fmt(open)}/${fmt(this.peakStreams)} (plan ${fmt(planned)})`;
  }

  /** Formats one progress line from the latest interval and the running total. */
  line(point: TimeseriesPoint, total: MetricSet): string {
    const errors =
      total.count(CHAT.openFailed) +
      total.count(CHAT.dropped) +
      total.count(CHAT.stalled) +
      total.count(throughputNames('photoUpload').errors) +
      total.count(throughputNames('tagLink').errors) +
      kindErrors(total);
    const p99 = point.eventLatencyP99Ms === null ? '-' : `${point.eventLatencyP99Ms.toFixed(1)}ms`;
    // Since the start: a held or queued open shows here long before the end-of-run threshold.
    const opens = total.hasHistogram(CHAT.openLatencyUs) ? total.histogram(CHAT.openLatencyUs) : null;
    const openP99 = opens && opens.totalCount > 0 ? `${(opens.getValueAtPercentile(99) / 1_000).toFixed(1)}ms` : '-';
    return [
      `[${formatDuration(point.tSec * 1_000)}/${formatDuration(this.options.durationMs)}]`,
      this.streams(point),
      `${fmt(point.eventsPerSec)} ev/s`,
      `delivery p99 ${p99}`,
      `open p99 ${openP99}`,
      `${fmt(point.requestsPerSec)} req/s`,
      `errors ${fmt(errors)}`,
    ].join('  ');
  }

  update(point: TimeseriesPoint, total: MetricSet): void {
    if (this.options.quiet) return;
    const text = terminalText(this.line(point, total));
    if (this.tty) {
      const width = this.options.stream.columns || 120;
      this.options.stream.write(`\r${text.slice(0, width - 1).padEnd(Math.min(width - 1, text.length + 4))}`);
      this.wroteTty = true;
    } else {
      // By the interval's second, not its exact end: ends drift by milliseconds (1.003 s, then
      // 2.001 s), and a cadence measured between them skipped every other line at 1s.
      const second = Math.round(point.tSec);
      if (second - this.lastPlainSec >= (this.options.plainEveryMs ? this.options.plainEveryMs / 1_000 : PLAIN_EVERY_SEC)) {
        this.lastPlainSec = second;
        this.options.stream.write(`${text}\n`);
      }
    }
  }

  /** Prints a message on its own line (ends a TTY progress line first). */
  say(message: string): void {
    if (this.options.quiet) return;
    this.done();
    this.options.stream.write(terminalText(`${message}\n`));
  }

  done(): void {
    if (this.wroteTty) this.options.stream.write('\n');
    this.wroteTty = false;
  }
}
