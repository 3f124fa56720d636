/**
 * The `time` of each JUnit testcase: the stretch of the run over which the check's evidence
 * was gathered, read from report.timeseries (docs/reports.md "summary.md and junit.xml").
 * Evaluating a check takes microseconds and says nothing; how long the target was watched
 * for it does. The resolution is the time series' interval (one second, coarser on a long
 * soak), and the same rules hold for a merged report, whose series is the shards' aligned.
 */

import type { CheckId } from '../contract/check-ids.js';
import type { CheckResult, Report, ThresholdResult, TimeseriesPoint } from '../contract/report.js';

type Holds = (point: TimeseriesPoint) => boolean;

const streaming: Holds = (p) => p.events > 0 || p.streamsOpen + p.mainStreamsOpen > 0;
const requesting: Holds = (p) => p.requests > 0;

/*
 * Which intervals carry a check's evidence. The probe checks (tags.role.required,
 * auth.apikey.required) rest on a handful of requests sent once, which no interval
 * records: they have none, and their time is 0.
 */
const EVIDENCE: Record<CheckId, Holds | null> = {
  'stream.open': streaming,
  'stream.keepalive.cadence': streaming,
  'stream.stall': streaming,
  'stream.session.isolation': streaming,
  'stream.event.schema': streaming,
  'stream.message.delivery': (p) => p.messagesSent > 0,
  'stream.resume': streaming,
  'photo.upload': requesting,
  'photo.fieldname.override': requesting,
  'tags.link': requesting,
  'tags.existing.ignored': requesting,
  'tags.role.required': null,
  'requests.expectations': requesting,
  'auth.apikey.required': null,
  // Token renewals happen throughout the run, wherever requests or streams are.
  'auth.token.refresh': (p) => requesting(p) || streaming(p),
  'errors.problem_json': requesting,
  'load.achieved': (p) => requesting(p) || streaming(p),
  'generator.healthy': () => true,
};

/** Seconds from the start of the first to the end of the last point that holds (0 when none does). */
function spanSec(points: readonly TimeseriesPoint[], holds: Holds): number {
  let from = Number.POSITIVE_INFINITY;
  let to = Number.NEGATIVE_INFINITY;
  for (const point of points) {
    if (!holds(point)) continue;
    from = Math.min(from, point.tSec - point.intervalSec);
    to = Math.max(to, point.tSec);
  }
  return to > from ? to - from : 0;
}

/** A check's evidence span in seconds; a skipped check gathered none (0). */
export function checkSeconds(report: Report, check: CheckResult): number {
  const holds = EVIDENCE[check.id];
  if (check.status === 'skip' || !holds) return 0;
  return spanSec(report.timeseries, holds);
}

/** A sliding-window threshold's window, or the intervals a whole-run threshold judged (warm-up excluded). */
export function thresholdSeconds(report: Report, threshold: ThresholdResult): number {
  if (threshold.window) return Math.max(0, threshold.window.toSec - threshold.window.fromSec);
  return spanSec(report.timeseries, (p) => !p.warmup);
}
