/**
 * The photo-upload and tag-link scenarios' metrics (report.json `scenarios.photoUpload`,
 * `scenarios.tagLink`), counted under `<scenario>.`, the probes' counters, and the
 * connections every driver opens.
 */
import { counter, family, figure, group, histogram, peak } from './metric-decl.js';

export type ThroughputScenario = 'photoUpload' | 'tagLink';
export const THROUGHPUT_SCENARIOS: readonly ThroughputScenario[] = ['photoUpload', 'tagLink'];

/**
 * A request kind of the `requests` scenario as its metrics are keyed (docs/design.md §2.15):
 * `requests.<name>.requests`, `requests.<name>.latencyUs`, … Kinds are the profile's, so their
 * metrics are these same declarations under a prefix made at run time, not registry entries.
 */
export type RequestKindKey = `requests.${string}`;
export const requestKindKey = (name: string): RequestKindKey => `requests.${name}`;

/** A built-in throughput scenario or a request kind: whatever `throughputShared` counts under. */
export type ThroughputKey = ThroughputScenario | RequestKindKey;

/** The metrics both throughput scenarios (and every request kind) have, in report order. */
export const throughputShared = (scenario: ThroughputKey) =>
  [
    counter('requests', 'info', {
      report: 'requests',
      export: { family: 'requests', labels: { scenario } },
      doc: 'requests answered or failed (probes not included)',
    }),
    counter('errors', 'lower', { report: 'errors', doc: 'requests that failed (any failure code)' }),
    figure('errorRate', 'ratio', 'lower', { proportionOf: { events: 'errors', trials: 'requests' }, doc: 'errors / requests (0 without requests)' }),
    family('error.', 'lower', {
      report: 'errorsByKind',
      export: { family: 'requestFailures', labels: { scenario }, keyLabel: 'code', failureCodesOnly: true },
      doc: 'failed requests by failure code; a request counts once under each code it showed',
    }),
    family('status.', 'info', { report: 'statusCodes', doc: 'answers by HTTP status' }),
    figure('throughputPerSec', 'perSec', 'higher', { doc: 'requests / activeSeconds' }),
    figure('requestedRatePerSec', 'perSec', 'info', { doc: 'open model: the mean arrival rate the schedule asked for; closed model: null' }),
    // Late starts are the driver's scheduler falling behind (generator health), not the target.
    counter('lateSlots', 'info', { report: 'lateSlots', doc: 'open model: slots started later than their intended start by more than the lateness bound' }),
    counter('overdueSlots', 'info', {
      doc: "open model: of lateSlots, those started more than the first second's grace after their intended start (a burst of what a scenario not yet ready, or a stalled driver, owed): load.achieved counts them short",
    }),
    counter('droppedSlots', 'lower', { report: 'droppedSlots', doc: 'open model: slots never started because the concurrency bound was reached' }),
    counter('scheduledSlots', 'info', {
      doc: "open model: slots the schedule held for the run's remaining time, or of a stopped run those due by the stop (started + dropped), and of a plain rate the plan's arrivals while its scenario got ready beyond the first second (never started)",
    }),
    histogram('latencyUs', 'lower', {
      report: 'latencyMs',
      export: { family: 'requestDuration', labels: { scenario } },
      doc: 'open model: from the intended start (coordinated-omission corrected); closed model: from the actual start',
    }),
    histogram('serviceTimeUs', 'lower', { report: 'serviceTimeMs', doc: 'from the actual start of each request (service time)' }),
    // A peak, not a counter: shards running side by side take the max.
    peak('activeMs', 'ms', { doc: "how long the scenario ran: from its start to the run's end or stop, drain excluded" }),
    figure('activeSeconds', 'seconds', 'info', {
      doc: "seconds the scenario ran, the throughput denominator: from its start to the run's end or stop, drain excluded (open model: the schedule's span; closed model: its connections')",
    }),
    peak('lateStartMs', 'ms', {
      doc: "closed model: how long after the run's start its connections opened, beyond the first second given to get ready (image corpus, setup requests): load.achieved counts it short",
    }),
    counter('cutAtEnd', 'info', {
      doc: 'requests still unanswered when the drain after the end ran out: neither requests nor errors nor check evidence',
    }),
  ] as const;

export const PHOTO_UPLOAD = group('photoUpload.', [
  ...throughputShared('photoUpload'),
  counter('overrideRequests', 'info', { report: 'overrideRequests', doc: 'uploads that used the `name` override instead of the default `filename` part' }),
  counter('bytesSent', 'info', { report: 'bytesSent', doc: 'multipart body bytes of completed or failed uploads' }, 'bytes'),
]);

export const TAG_LINK = group('tagLink.', [
  ...throughputShared('tagLink'),
  counter('tagsCreated', 'info', { report: 'tagsCreated', doc: 'new names the target confirmed by returning an id for each' }),
  counter('existingSent', 'info', { doc: "already-existing names sent (the profile's `existingShare`, once some exist)" }),
  counter('existingReturned', 'lower', {
    report: 'existingReturned',
    doc: "ids returned beyond the new names of a request that held existing names (tags.existing.ignored's evidence)",
  }),
  counter('skipped', 'info', { doc: '1 when the scenario did not run (no coach token); the reason is in the samples under the same key' }),
]);

/** The probes scenario: requests that check the target, never load. */
export const PROBES = group('probes.', [
  counter('requests', 'info', { doc: 'probe requests sent (not load: never counted in photoUpload or tagLink requests)' }),
  counter('ran', 'info', { doc: '1 when the probes ran; the probe log is in the samples under `probes`' }),
  counter('cutAtEnd', 'info', { doc: 'probe requests still unanswered when the drain after the end ran out' }),
]);

/** Connections by the driver that opened them (requests, streams, closedModel) and the protocol they speak. */
export const TRANSPORT = group('transport.', [
  family('connections.', 'info', {
    doc: "connections opened, keyed `<driver>.<protocol>` (h2, h2c, http/1.1): report.json's transport.protocols (docs/design.md §2.14)",
  }),
]);
