/**
 * The load generator's own metrics (report.json `generator`) and token renewal's (report.json
 * `auth`, docs/design.md §2.13): what a run measured of itself, to tell its lag from the target's.
 */
import { counter, figure, group, histogram, peak } from './metric-decl.js';

export const GENERATOR_METRICS = group('generator.', [
  histogram('loopDelayUs', 'info', {
    report: 'eventLoopDelayMs',
    doc: "the driver processes' main event-loop delay: streams and, unless requestLoopDelayMs is present, requests too",
  }),
  // Apart so a stalled stream loop is not diluted by the request thread's, nor it by the other (docs/design.md §6).
  histogram('requestLoopDelayUs', 'info', {
    report: 'requestLoopDelayMs',
    since: '1.5.0',
    doc: "the request thread's event-loop delay, when requests ran on their own thread",
  }),
  counter('cpuUs', 'info', { doc: 'CPU time of the driver processes, µs' }),
  counter('wallUs', 'info', { doc: 'wall time of the driver processes, µs (what cpuUs is a share of)' }),
  figure('cpuPercent', 'percent', 'info', { doc: 'CPU time / wall time, in percent of one core per process' }),
  figure('rssBytes', 'bytes', 'info', { doc: "the parent process's resident memory at the end" }),
  peak('rssBytes', 'bytes', { report: 'peakRssBytes', doc: 'the largest resident memory any driver process had' }),
  figure('saturated', 'flag', 'lower', { doc: 'the event-loop delay p99 exceeded its bound, or the driver fell behind for more than its share' }),
  figure('maxEventLoopDelayP99Ms', 'ms', 'info', { doc: 'the event-loop delay p99 bound above which the generator counts as saturated' }),
  figure('processes', 'count', 'info', { doc: 'driver processes' }),
  counter('behindProcesses', 'info', { doc: 'driver loops whose event-loop delay p99 over one interval exceeded the bound' }),
  counter('behindIntervals', 'lower', {
    report: 'behind.intervals',
    since: '1.5.0',
    doc: 'intervals after the warm-up in which some driver process fell behind',
  }),
  counter('judgedUs', 'info', { doc: 'length of the intervals after the warm-up (what behindUs is a share of)' }),
  counter('behindUs', 'info', { doc: 'length of the judged intervals a driver process fell behind in' }),
  figure('behind.seconds', 'seconds', 'lower', { since: '1.5.0', doc: 'seconds of the judged run a driver process was behind' }),
  figure('behind.share', 'ratio', 'lower', { since: '1.5.0', doc: "behind.seconds / the judged run's seconds" }),
]);

/** report.json `auth`: present when the run renewed or refused a token (counts of every driver process together). */
export const AUTH_METRICS = group('auth.', [
  counter('refreshes', 'info', { report: 'refreshes', doc: 'runs of --token-command that gave new tokens (not the one before the run)' }),
  histogram('refreshUs', 'lower', { report: 'refreshMs', doc: 'how long each token refresh took' }),
  counter('refreshFailures', 'lower', { report: 'refreshFailures', doc: 'token command runs that failed (exit code, timeout, unreadable output)' }),
  counter('waited', 'info', { report: 'waited', doc: 'requests and stream opens answered 401 that waited for a refresh' }),
  counter('resent', 'info', { report: 'resent', doc: 'requests and stream opens sent again with a renewed token' }),
  counter('staleAnswers', 'info', { report: 'staleAnswers', doc: 'closed model: 401s to a token being replaced, not counted as answers' }),
  counter('rejectedAfterRefresh', 'lower', {
    report: 'rejectedAfterRefresh',
    doc: "401s to a token that had just been renewed: auth.token.refresh's failure evidence",
  }),
  counter('fixturesReloads', 'info', { report: 'fixturesReloads', doc: 're-reads of the fixtures file after it changed on disk' }),
  counter('fixturesReloadFailures', 'lower', { report: 'fixturesReloadFailures', doc: 'fixtures re-reads that did not validate (the tokens were kept)' }),
]);
