/**
 * The chat and main streams' metrics (report.json `scenarios.chatStreams`), in the order the
 * report, compare and the docs list them. Main-stream counters live under `main.`.
 */
import { counter, family, figure, group, histogram, peak } from './metric-decl.js';

const chat = { stream: 'chat' } as const;
const main = { stream: 'main' } as const;

/** `chat.` metrics listed before the main streams'. */
export const CHAT_OPENING = group('chat.', [
  figure('participants', 'count', 'info', { doc: 'participants planned (each holds a main stream and one chat-session stream)' }),
  counter('opened', 'info', {
    report: 'opened',
    export: { family: 'streamsOpened', labels: chat },
    doc: 'chat-session stream opens answered 200 text/event-stream (switches and reopens included)',
  }),
  counter('openFailed', 'lower', { report: 'openFailed', failsCheck: 'stream.open', doc: 'chat-session stream opens that failed' }),
  family('openFailed.', 'lower', {
    report: 'openFailures',
    export: { family: 'streamFailures', labels: { phase: 'open' }, keyLabel: 'code', failureCodesOnly: true },
    doc: 'failed opens (chat and main streams) by failure code',
  }),
  counter('openGatewayPages', 'info', {
    doc: "of the failed opens (chat and main), those a gateway's own 502/504 page answered (not JSON): stream.open says so",
  }),
  counter('dropped', 'lower', { report: 'dropped', failsCheck: 'stream.open', doc: 'chat-session streams the target cut' }),
  family('dropped.', 'lower', {
    report: 'drops',
    export: { family: 'streamFailures', labels: { phase: 'drop' }, keyLabel: 'code', failureCodesOnly: true },
    doc: 'streams (chat and main) the target cut, by failure code',
  }),
  counter('reopened', 'info', { report: 'reopened', doc: 'chat-session streams opened again after a drop' }),
  counter('switches', 'info', { report: 'switches', doc: 'participants that moved to another chat session' }),
  counter('leftByPlan', 'info', {
    report: 'leftByPlan',
    since: '1.3.0',
    doc: 'streams closed because their participant left as the population plan ramped down; never failures',
  }),
  counter('reconnects', 'info', { report: 'resume.reconnects', since: '1.3.0', doc: 'first reopens after a drop (chat and main streams)' }),
  histogram('reconnectDelayUs', 'info', {
    report: 'resume.reconnectDelayMs',
    since: '1.3.0',
    doc: "from a drop to the reopen request: the target's `retry:`, else the backoff",
  }),
  counter('resumes', 'info', { report: 'resume.resumed', since: '1.3.0', doc: 'reconnects answered 200 that were sent with Last-Event-ID' }),
  counter('resumeRecovered', 'info', {
    report: 'resume.eventsRecovered',
    since: '1.3.0',
    doc: 'events received on a resumed stream before its first KEEP_ALIVE (the replay)',
  }),
  counter('resumeLost', 'lower', { report: 'resume.lost', since: '1.3.0', doc: 'events the target should have replayed and did not' }),
  counter('resumeDuplicated', 'lower', { report: 'resume.duplicated', since: '1.3.0', doc: 'events a resumed stream got again' }),
  counter('notResumable', 'info', {
    report: 'resume.notResumable',
    since: '1.3.0',
    doc: 'reconnects after a drop of a stream that never carried an event id: nothing to resume from',
  }),
  counter('resumeIdUnsendable', 'lower', {
    report: 'resume.idsUnsendable',
    since: '1.6.0',
    failsCheck: 'stream.resume',
    doc: "reconnects whose last event id no Last-Event-ID header can carry (a control character, over 1 KiB): the target's ids",
  }),
  counter('stalled', 'lower', { report: 'stalled', failsCheck: 'stream.stall', doc: 'streams silent for longer than the stall window' }),
  peak('open', 'count', { report: 'peakConcurrent', doc: 'chat-session streams open at once, at the peak' }),
  counter('heldStreamUs', 'info', {
    export: { family: 'streamHeld', labels: {}, scale: 1e-6 },
    doc: 'time-weighted open streams, chat and main together (stream-µs): what load.achieved compares with the planned population',
  }),
]);

export const MAIN_STREAMS = group('main.', [
  counter('opened', 'info', { report: 'mainStreams.opened', export: { family: 'streamsOpened', labels: main }, doc: 'main stream opens answered 200' }),
  counter('openFailed', 'lower', { report: 'mainStreams.openFailed', failsCheck: 'stream.open', doc: 'main stream opens that failed' }),
  counter('dropped', 'lower', { report: 'mainStreams.dropped', failsCheck: 'stream.open', doc: 'main streams the target cut' }),
  peak('open', 'count', { report: 'mainStreams.peakConcurrent', doc: 'main streams open at once, at the peak' }),
  family('events.', 'info', {
    report: 'mainStreams.events',
    export: { family: 'events', labels: main, keyLabel: 'type' },
    doc: 'events seen on main streams, by eventType',
  }),
]);

/** `chat.` metrics listed after the main streams'. */
export const CHAT_EVENTS = group('chat.', [
  family('events.', 'info', {
    report: 'events',
    export: { family: 'events', labels: chat, keyLabel: 'type' },
    doc: 'events seen on chat-session streams, by eventType (`<invalid>` for unparseable frames)',
  }),
  counter('keepAlives', 'info', { doc: 'KEEP_ALIVE events received (the time series counts them per interval)' }),
  histogram('keepAliveGapUs', 'lower', {
    report: 'keepAliveGapMs',
    export: { family: 'keepAliveGap', labels: {} },
    doc: 'gap between two KEEP_ALIVEs on one stream',
  }),
  // Its spread follows the target's timer phase at open, not its speed; stream.keepalive.cadence judges it.
  histogram('firstKeepAliveUs', 'info', {
    report: 'firstKeepAliveMs',
    doc: 'from the headers to the first KEEP_ALIVE: what a late first KEEP_ALIVE is judged on',
  }),
  histogram('firstKeepAliveFromRequestUs', 'info', {
    report: 'firstKeepAliveFromRequestMs',
    since: '1.6.0',
    doc: 'from the open request to the first KEEP_ALIVE: what an early first KEEP_ALIVE is judged on (docs/design.md §6)',
  }),
  histogram('worstGapUs', 'lower', { report: 'worstGapMs', doc: "each stream's worst KEEP_ALIVE gap, one value per stream lifetime" }),
  histogram('eventLatencyUs', 'lower', {
    report: 'eventLatencyMs',
    export: { family: 'eventDelivery', labels: {} },
    doc: "a chat message's delivery latency, from its post to its arrival on a stream",
  }),
  histogram('openLatencyUs', 'lower', {
    report: 'openLatencyMs',
    export: { family: 'streamOpen', labels: {} },
    doc: 'from the open request to the 200 text/event-stream answer',
  }),
  figure('expectedKeepAliveMs', 'ms', 'info', { doc: 'the KEEP_ALIVE interval the streams were judged against' }),
  figure('keepAliveToleranceMs', 'ms', 'info', { doc: 'how far a KEEP_ALIVE gap may stray from the interval' }),
  counter('keepAliveViolations', 'lower', {
    report: 'keepAliveViolations',
    failsCheck: 'stream.keepalive.cadence',
    doc: 'KEEP_ALIVE gaps beyond interval + tolerance',
  }),
  counter('keepAliveViolationsBehind', 'info', { doc: 'of keepAliveViolations, those in intervals a driver fell behind in (counted by the collector)' }),
  counter('firstKeepAliveLate', 'lower', {
    report: 'firstKeepAliveLate',
    failsCheck: 'stream.keepalive.cadence',
    doc: 'first KEEP_ALIVEs later than interval + tolerance after the open',
  }),
  counter('firstKeepAliveEarly', 'lower', {
    report: 'firstKeepAliveEarly',
    since: '1.1.0',
    failsCheck: 'stream.keepalive.cadence',
    doc: 'first KEEP_ALIVEs earlier than interval - tolerance after the open request',
  }),
  counter('firstKeepAliveWithHeaders', 'lower', {
    report: 'firstKeepAliveWithHeaders',
    since: '1.6.0',
    doc: 'first KEEP_ALIVEs on time from the request but arriving with the headers: something held the headers until the first event',
  }),
  counter('keepAliveBunched', 'lower', {
    report: 'keepAliveBunched',
    since: '1.6.0',
    doc: 'of keepAliveViolations, gaps under a tenth of the interval: KEEP_ALIVEs released in bursts',
  }),
  counter('keepAliveBunchedBehind', 'info', { doc: 'of keepAliveBunched, those in intervals a driver fell behind in (counted by the collector)' }),
  counter('stalledSilentAfterHeaders', 'lower', {
    report: 'stalledSilentAfterHeaders',
    since: '1.6.0',
    doc: 'of stalled, streams that got nothing at all after their headers',
  }),
  counter('stalledSilentAfterHeadersBehind', 'info', {
    doc: 'of stalledSilentAfterHeaders, those in intervals a driver fell behind in (counted by the collector)',
  }),
  counter('streamsPastStallWindow', 'info', {
    report: 'streamsPastStallWindow',
    since: '1.1.0',
    doc: "streams (chat and main) that lived longer than the stall window: stream.stall's evidence",
  }),
  counter('isolationViolations', 'lower', {
    report: 'isolationViolations',
    failsCheck: 'stream.session.isolation',
    doc: "events of another chat session on a participant's stream",
  }),
  counter('schemaViolations', 'lower', { report: 'schemaViolations', failsCheck: 'stream.event.schema', doc: 'events that do not fit the event schema' }),
  family('schema.', 'lower', {
    report: 'schemaViolationKinds',
    doc: 'schemaViolations by kind: invalid-json, envelope, unknown-event-type, message-payload, member-payload, decision-payload',
  }),
  counter('messagesSent', 'info', {
    report: 'messagesSent',
    export: { family: 'messagesSent', labels: {} },
    doc: 'chat messages posted by the message injector',
  }),
  counter('messagesFailed', 'lower', { report: 'messagesFailed', doc: 'chat message posts that failed' }),
  counter('messagesRefused', 'info', {
    doc: 'of messagesFailed, the posts answered with a status other than 200 or 201: they fail stream.message.delivery',
  }),
  counter('messagesLateSlots', 'info', { report: 'messagesLateSlots', doc: 'message posts started later than their slot by more than the lateness bound' }),
  counter('messagesDroppedSlots', 'lower', { report: 'messagesDroppedSlots', doc: 'message slots never started because the concurrency bound was reached' }),
  counter('messagesScheduledSlots', 'info', {
    doc: "message slots the injector's schedule held (Poisson arrivals: as drawn from the seed); what an achieved message rate is judged against",
  }),
  counter('deliveriesExpected', 'info', {
    report: 'deliveriesExpected',
    doc: 'message arrivals expected: each posted message times the streams of its session',
  }),
  counter('deliveriesReceived', 'info', { report: 'deliveriesReceived', doc: 'message arrivals seen' }),
  counter('deliveriesMissing', 'lower', {
    report: 'deliveriesMissing',
    failsCheck: 'stream.message.delivery',
    doc: 'expected arrivals that never came',
  }),
  counter('duplicates', 'lower', { report: 'duplicates', failsCheck: 'stream.message.delivery', doc: 'messages that arrived twice on one stream' }),
  counter('membershipOps', 'info', { report: 'membershipOps', doc: 'membership changes (join, leave) sent' }),
  counter('membershipOpsFailed', 'lower', { report: 'membershipOpsFailed', doc: 'membership changes that failed' }),
]);

/** report.json `scenarios.chatStreams`, in report order. */
export const CHAT_STREAMS_GROUPS = [CHAT_OPENING, MAIN_STREAMS, CHAT_EVENTS] as const;
