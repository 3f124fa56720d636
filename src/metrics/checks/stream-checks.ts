/**
 * The stream.* checks (docs/design.md §5.4), read from the chat summary. Each one passes
 * only on its own evidence: a KEEP_ALIVE gap for the cadence, a stream that outlived the
 * stall window for stalls, an event other than KEEP_ALIVE for isolation and schema, an
 * expected delivery for delivery. Without it the check is a skip that says what was missing.
 */
import { proxyAnswerKind, UNCONNECTED_CODES } from '../../contract/failure-codes.js';
import type { ChatStreamsSummary, CheckResult } from '../../contract/report.js';
import { fail, passOnEvidence, skip, sum, top } from './check-result.js';

const INVALID = '<invalid>';
const KEEP_ALIVE = 'KEEP_ALIVE';

/** Where a failure detail sends a reader who suspects an intermediary (docs/failure-codes.md, "Buffering intermediaries"). */
const BUFFERING_HINT = 'see docs/failure-codes.md#buffering-intermediaries';

/**
 * An intermediary is named only when its mark is the pattern, not a few strays: a proxy holds
 * or buffers every stream alike, while a starved target or driver leaves a scattering of the
 * same marks among its other late frames (docs/design.md §6).
 */
const isPattern = (marked: number, of: number): boolean => marked > 0 && marked * 2 >= of;

/** A smaller share for held headers: on a stream, a message or member event may release them before the first KEEP_ALIVE. */
const HELD_SHARE = 4;

/** "open latency p50 4 ms, p99 12 ms": how long streams waited for their headers. */
function openLatencyText(chat: ChatStreamsSummary): string {
  const latency = chat.openLatencyMs;
  return latency.count === 0 ? '' : `; open latency p50 ${ms(latency.p50)}, p99 ${ms(latency.p99)}`;
}

const ms = (value: number): string => `${Math.round(value)} ms`;

/**
 * Streams whose headers came only with their first KEEP_ALIVE: an intermediary held them
 * (docs/design.md §6). Said beside the opens, because it is open latency, not cadence.
 */
function heldHeadersText(chat: ChatStreamsSummary): string {
  const held = chat.firstKeepAliveWithHeaders ?? 0;
  if (held === 0) return '';
  const pattern = held * HELD_SHARE >= chat.firstKeepAliveMs.count;
  const hint = pattern ? ` (an intermediary holding the headers until the first bytes? ${BUFFERING_HINT})` : '';
  return `; ${held} streams got their headers only with their first KEEP_ALIVE, about one interval after the request${hint}`;
}

/** Opens that timed out waiting for headers: the target, or an intermediary that holds the whole response. */
function headersTimeoutText(chat: ChatStreamsSummary): string {
  const timedOut = chat.openFailures['timeout:headers'] ?? 0;
  if (timedOut === 0) return '';
  return `; ${timedOut} got no headers within the open timeout (a target that holds them, or an intermediary buffering the response? ${BUFFERING_HINT})`;
}

/**
 * Through a proxy the run connects to the proxy alone (the proxy connects to the target, and
 * answers itself when it cannot), so opens that found no one to connect to found no proxy.
 */
function proxyUnconnectedText(chat: ChatStreamsSummary, proxy: string | null): string {
  if (proxy === null) return '';
  const unconnected = UNCONNECTED_CODES.reduce((sum, code) => sum + (chat.openFailures[code] ?? 0), 0);
  return unconnected === 0 ? '' : `; ${unconnected} could not connect to proxy ${proxy} itself (the run connects to nothing else)`;
}

/**
 * Opens a gateway in front of the API answered with a page of its own (nginx's HTML 502 when
 * the API behind it is down, 504 when it is too slow): counted as the target's status, but
 * the API never answered them (docs/design.md §2.12).
 */
function gatewayPagesText(chat: ChatStreamsSummary, pages: GatewayPages): string {
  if (pages.opens === 0) return '';
  const has502 = (chat.openFailures['status:502'] ?? 0) > 0;
  const has504 = (chat.openFailures['status:504'] ?? 0) > 0;
  const [status, why] =
    has502 && has504
      ? ['502 or 504', 'could not reach it or had no answer from it in time']
      : has504
        ? ['504', 'had no answer from it in time']
        : ['502', 'could not reach it'];
  const first = pages.first === null ? '' : ` (first: ${pages.first})`;
  return `; ${pages.opens} of the opens were answered by a gateway's own ${status} page, not the API: the gateway in front of the API ${why}${first}`;
}

/** A proxy's own answer (`proxy:<nnn>`) that says the target behind it was not reached: its status is unreached or timed-out (proxyAnswerKind, docs/design.md §2.12). */
function proxyUnreached(code: string): boolean {
  if (!code.startsWith('proxy:')) return false;
  const kind = proxyAnswerKind(Number(code.slice('proxy:'.length)), '');
  return kind === 'unreached' || kind === 'timed-out';
}

/**
 * Opens a proxy answered itself with 502, 503 or 504: the proxy is up, and the target behind
 * it is the layer to look at (squid's 503 when the target went away mid-run).
 */
function proxyUnreachedText(chat: ChatStreamsSummary, proxy: string | null): string {
  const answered = Object.entries(chat.openFailures).reduce((total, [code, count]) => (proxyUnreached(code) ? total + count : total), 0);
  if (answered === 0) return '';
  return `; ${answered} of the opens ${proxy === null ? 'a proxy' : `proxy ${proxy}`} answered itself with 502, 503 or 504: it is up, but could not reach the target or had no answer from it`;
}

function streamOpen(chat: ChatStreamsSummary, proxy: string | null, gatewayPages: GatewayPages): CheckResult {
  const failedOpens = chat.openFailed + chat.mainStreams.openFailed;
  const drops = chat.dropped + chat.mainStreams.dropped;
  const opens = chat.opened + chat.mainStreams.opened;
  const latency = openLatencyText(chat) + heldHeadersText(chat);
  if (failedOpens + drops > 0) {
    // Through a proxy, a cut stream may be the proxy's doing as well as the target's.
    const cutBy = proxy === null ? 'the target' : `the target or proxy ${proxy}`;
    const detail = `${failedOpens} opens failed (${top(chat.openFailures) || 'none'}), ${drops} streams cut by ${cutBy} (${top(chat.drops) || 'none'})`;
    const said = gatewayPagesText(chat, gatewayPages) + proxyUnreachedText(chat, proxy) + proxyUnconnectedText(chat, proxy) + headersTimeoutText(chat);
    return fail('stream.open', failedOpens + drops, detail + said + latency);
  }
  // Streams were asked for during the whole run and none opened: that is the failure itself.
  if (opens === 0 && chat.participants > 0) return fail('stream.open', 0, 'no stream opened: every open was still waiting for its headers when the run ended');
  return passOnEvidence(
    'stream.open',
    opens,
    `${opens} streams opened with 200 text/event-stream and stayed open${latency}`,
    'no participant to open a stream for',
  );
}

/**
 * `behind`: how many of the gap violations (and bunched gaps) closed in an interval a driver
 * fell behind in (generator.behind): those may be the driver reading late, and the detail says so.
 */
function keepAliveCadence(chat: ChatStreamsSummary, behind: DriverBehindCounts): CheckResult {
  const violationsBehind = behind.keepAliveViolations;
  const { expectedKeepAliveMs: expected, keepAliveToleranceMs: tol } = chat;
  const early = chat.firstKeepAliveEarly ?? 0;
  const bad = chat.keepAliveViolations + chat.firstKeepAliveLate + early;
  if (bad > 0) {
    const behindText =
      violationsBehind > 0 ? ` (${violationsBehind} of the gaps closed while the driver was behind: they may be its own delay, see generator.healthy)` : '';
    return fail(
      'stream.keepalive.cadence',
      bad,
      `${chat.keepAliveViolations} KEEP_ALIVE gaps outside ${expected} ± ${tol} ms (max ${chat.keepAliveGapMs.max} ms)${behindText}, ` +
        `${chat.firstKeepAliveLate} first KEEP_ALIVEs late, ${early} early${burstsText(chat, behind.keepAliveBunched, violationsBehind)}`,
    );
  }
  const gaps = chat.keepAliveGapMs.count;
  const firsts = chat.firstKeepAliveMs.count;
  // Every KEEP_ALIVE frame is a stream's first or closes a gap: say both, so neither reads as the frame count.
  return passOnEvidence(
    'stream.keepalive.cadence',
    gaps,
    `${gaps} KEEP_ALIVE gaps and ${firsts} first KEEP_ALIVEs (${gaps + firsts} frames) within ${expected} ± ${tol} ms`,
    `no gap between two KEEP_ALIVEs on one stream (${firsts} first KEEP_ALIVEs seen): no stream lived through two ${expected} ms intervals`,
  );
}

/**
 * Gaps far under the interval: KEEP_ALIVEs held and released together. A driver that stalled
 * reads frames together too, so gaps in intervals it fell behind in are not laid at an
 * intermediary's door.
 */
function burstsText(chat: ChatStreamsSummary, bunchedBehind: number, violationsBehind: number): string {
  const bunched = chat.keepAliveBunched ?? 0;
  const whileKeepingUp = bunched - bunchedBehind;
  if (whileKeepingUp > 0) {
    const where = bunchedBehind > 0 ? ' outside the intervals the driver fell behind in' : '';
    const hint = isPattern(whileKeepingUp, chat.keepAliveViolations - violationsBehind)
      ? `: KEEP_ALIVEs arriving in bursts (an intermediary buffering the response? ${BUFFERING_HINT})`
      : '';
    return `; ${whileKeepingUp} gaps under a tenth of the interval${where}${hint}`;
  }
  return bunched > 0 ? `; ${bunched} gaps under a tenth of the interval, all while the driver was behind (its own late reads)` : '';
}

/** Stalls with nothing after the headers: an intermediary holding the body, unless the driver itself was behind then. */
function silentText(chat: ChatStreamsSummary, silentBehind: number): string {
  const silent = chat.stalledSilentAfterHeaders ?? 0;
  const whileKeepingUp = silent - silentBehind;
  if (whileKeepingUp > 0) {
    const where = silentBehind > 0 ? ' outside the intervals the driver fell behind in' : '';
    const hint = isPattern(whileKeepingUp, chat.stalled - silentBehind) ? ` (an intermediary buffering the response? ${BUFFERING_HINT})` : '';
    return `; ${whileKeepingUp} of them got nothing after the headers while the connection stayed open${where}${hint}`;
  }
  return silent > 0 ? `; ${silent} of them got nothing after the headers, all while the driver was behind (see generator.healthy)` : '';
}

function stall(chat: ChatStreamsSummary, behind: DriverBehindCounts): CheckResult {
  const windowMs = 2 * chat.expectedKeepAliveMs;
  const watched = chat.streamsPastStallWindow ?? 0;
  if (chat.stalled > 0) {
    return fail(
      'stream.stall',
      chat.stalled,
      `${chat.stalled} streams silent for more than ${windowMs} ms${silentText(chat, behind.stalledSilentAfterHeaders)}`,
    );
  }
  return passOnEvidence(
    'stream.stall',
    watched,
    `${watched} streams watched for longer than ${windowMs} ms, none silent that long`,
    `no stream stayed open longer than the ${windowMs} ms stall window`,
  );
}

/** Valid events other than KEEP_ALIVE among `events` (by eventType, `<invalid>` for violations). */
const validNonKeepAlive = (events: Readonly<Record<string, number>>): number => sum(events) - (events[INVALID] ?? 0) - (events[KEEP_ALIVE] ?? 0);

function sessionIsolation(chat: ChatStreamsSummary): CheckResult {
  if (chat.isolationViolations > 0) {
    return fail('stream.session.isolation', chat.isolationViolations, `${chat.isolationViolations} events arrived on a stream of another session`);
  }
  // Every valid event but KEEP_ALIVE names its session (a message's chatSessionId, a member event's sessionId).
  const checked = validNonKeepAlive(chat.events);
  return passOnEvidence(
    'stream.session.isolation',
    checked,
    `${checked} events on chat-session streams, every one of its stream's session`,
    'no event other than KEEP_ALIVE arrived on a chat-session stream',
  );
}

function eventSchema(chat: ChatStreamsSummary): CheckResult {
  const all = sum(chat.events) + sum(chat.mainStreams.events);
  if (chat.schemaViolations > 0) {
    return fail('stream.event.schema', chat.schemaViolations, `${chat.schemaViolations} of ${all} events invalid (${top(chat.schemaViolationKinds)})`);
  }
  const keepAlives = (chat.events[KEEP_ALIVE] ?? 0) + (chat.mainStreams.events[KEEP_ALIVE] ?? 0);
  const judged = validNonKeepAlive(chat.events) + validNonKeepAlive(chat.mainStreams.events);
  return passOnEvidence(
    'stream.event.schema',
    judged,
    `${judged} events valid, besides ${keepAlives} KEEP_ALIVE frames`,
    `no event other than KEEP_ALIVE arrived (${keepAlives} KEEP_ALIVEs)`,
  );
}

/** How the message injector's sample of a failed post begins, its failure code after it (`status:503`, `net:ECONNRESET`). */
export const MESSAGE_POST_FAILED = 'POST chat_messages failed: ';
/** The samples of a refused post: answered, with the target's status or a proxy's (its own answer, docs/design.md §2.12). */
const REFUSED_SAMPLES = [`${MESSAGE_POST_FAILED}status:`, `${MESSAGE_POST_FAILED}proxy:`];

/**
 * `refused`: message posts answered with a status other than 200 or 201. A refused post is a
 * message the target would not take, so it fails delivery as a refused upload fails
 * photo.upload; a post with no answer (timeout, reset) is no evidence, as an upload's is.
 */
function messageDelivery(chat: ChatStreamsSummary, refused: number): CheckResult {
  const bad = chat.deliveriesMissing + chat.duplicates + refused;
  if (bad > 0) {
    const first = chat.samples.find((sample) => REFUSED_SAMPLES.some((prefix) => sample.startsWith(prefix)));
    const refusedText =
      refused > 0 ? `, ${refused} of ${chat.messagesSent + chat.messagesFailed} message posts refused${first ? ` (first: ${first})` : ''}` : '';
    return fail(
      'stream.message.delivery',
      bad,
      `${chat.deliveriesMissing} of ${chat.deliveriesExpected} deliveries missing, ${chat.duplicates} duplicates${refusedText}`,
    );
  }
  return passOnEvidence(
    'stream.message.delivery',
    chat.deliveriesExpected,
    `${chat.deliveriesReceived} of ${chat.deliveriesExpected} expected deliveries arrived exactly once`,
    `no message was injected while a stream of its session was open (${chat.messagesSent} posted, ${chat.messagesFailed} posts failed)`,
  );
}

/** The six stream checks, in report order. */
/**
 * Across a reconnect with Last-Event-ID nothing is lost or repeated (docs/design.md §5.4).
 * Evidence: a resumed reconnect. A target that sends no ids cannot resume; that is said, not
 * failed. A target whose ids no Last-Event-ID can carry (idsUnsendable) fails it.
 */
function resume(chat: ChatStreamsSummary): CheckResult {
  const summary = chat.resume;
  if (!summary) return skip('stream.resume', 'this report predates resume counting (report schema 1.3.0)');
  const unsendable = summary.idsUnsendable ?? 0;
  if (summary.lost + summary.duplicated + unsendable > 0) {
    const findings: string[] = [];
    if (summary.lost + summary.duplicated > 0)
      findings.push(`${summary.lost} events lost and ${summary.duplicated} repeated across ${summary.resumed} resumed reconnects`);
    if (unsendable > 0) {
      findings.push(
        `${unsendable} reconnects could not send the target's last event id back (a control character, or longer than 1 KiB: no Last-Event-ID header can carry it), so they resumed nothing`,
      );
    }
    return fail('stream.resume', summary.lost + summary.duplicated + unsendable, findings.join('; '));
  }
  const why =
    summary.reconnects === 0
      ? 'no stream was dropped and reconnected'
      : `${summary.reconnects} reconnects, none sent with Last-Event-ID (${summary.notResumable} of streams that never carried an event id: the target cannot resume)`;
  return passOnEvidence(
    'stream.resume',
    summary.resumed,
    `${summary.resumed} reconnects resumed with Last-Event-ID, ${summary.eventsRecovered} events replayed, none lost or repeated`,
    why,
  );
}

/**
 * Of the counts the details weigh, those in intervals a driver fell behind in (counted by the
 * collector: CHAT.keepAliveViolationsBehind, keepAliveBunchedBehind,
 * stalledSilentAfterHeadersBehind): they may be the driver's own delay, not the target's or an
 * intermediary's, and the details say so.
 */
export interface DriverBehindCounts {
  keepAliveViolations: number;
  keepAliveBunched: number;
  stalledSilentAfterHeaders: number;
}

const NONE_BEHIND: DriverBehindCounts = { keepAliveViolations: 0, keepAliveBunched: 0, stalledSilentAfterHeaders: 0 };

/** What the stream checks read beside the streams' own summary. */
export interface StreamCheckContext {
  /** The proxy the run went through (its origin), or null; stream.open names it beside the target. */
  proxy?: string | null;
  /** Message posts answered with a status other than 200 or 201 (counter chat.messagesRefused). */
  messagesRefused?: number;
  /** Failed opens a gateway's own 502/504 page answered (counter chat.openGatewayPages), and the first page's words. */
  gatewayPages?: GatewayPages;
}

export interface GatewayPages {
  opens: number;
  /** `text/html, Server: nginx/1.22.1`, or null when no sample was kept. */
  first: string | null;
}

const NO_GATEWAY_PAGES: GatewayPages = { opens: 0, first: null };

export function streamChecks(chat: ChatStreamsSummary, behind: DriverBehindCounts = NONE_BEHIND, context: StreamCheckContext = {}): CheckResult[] {
  const { proxy = null, messagesRefused = 0, gatewayPages = NO_GATEWAY_PAGES } = context;
  return [
    streamOpen(chat, proxy, gatewayPages),
    keepAliveCadence(chat, behind),
    stall(chat, behind),
    sessionIsolation(chat),
    eventSchema(chat),
    messageDelivery(chat, messagesRefused),
    resume(chat),
  ];
}
