/**
 * When and how one stream role of a participant reconnects (docs/design.md §6): the WHATWG
 * reconnection time (`retry:`) after the target drops an opened stream, capped jittered
 * backoff after failed opens, the last event id to resume from, and the reconnect counts.
 * Plain functions over a participant's RoleState, so the driver keeps no per-stream timers.
 */
import { backoffDelayMs } from '../../engine/backoff.js';
import { lastEventIdHeader } from '../../engine/last-event-id.js';
import type { SseStream } from '../../engine/sse-reader.js';
import { recordMs } from '../../metrics/histogram.js';
import type { MetricSet } from '../../metrics/metric-set.js';
import { CHAT } from '../../metrics/names.js';
import { printable } from '../../util/printable.js';
import type { RoleState } from './virtual-participant.js';

export interface BackoffSettings {
  reopenBaseMs: number;
  reopenMaxMs: number;
}

/**
 * Schedules the role's next open. `afterDrop`: the target ended a stream it had opened, and
 * its `retry:` is then the reconnection time, whatever came before, up to the backoff's cap
 * (docs/design.md §6: a target's `retry:` of hours would end the stream's load for the run);
 * failed opens, and drops without `retry:`, back off.
 */
export function scheduleReopen(role: RoleState, afterDrop: boolean, settings: BackoffSettings, nowMs: number): void {
  const delayMs =
    afterDrop && role.retryMs !== null
      ? Math.min(role.retryMs, settings.reopenMaxMs)
      : backoffDelayMs(role.attempts, settings.reopenBaseMs, settings.reopenMaxMs, Math.random());
  role.attempts++;
  role.reopenAtMs = nowMs + delayMs;
}

/** What a reconnect to the same stream resumes from, and the reconnection time the target asked for. */
export function carryResumeState(role: RoleState, stream: SseStream): void {
  role.lastEventId = stream.lastEventId ?? role.lastEventId;
  role.retryMs = stream.retryMs ?? role.retryMs;
}

/**
 * The first reopen after a drop: how long after it, and whether there was anything to resume
 * from. An id that cannot go back as Last-Event-ID (last-event-id.ts) is the target's fault:
 * counted and said; the stream reopens without it (SseStream sends none).
 */
export function noteReconnect(role: RoleState, nowMs: number, metrics: MetricSet): void {
  if (Number.isNaN(role.droppedAtMs)) return;
  metrics.inc(CHAT.reconnects);
  recordMs(metrics.histogram(CHAT.reconnectDelayUs), nowMs - role.droppedAtMs);
  // An empty id is the target's reset (WHATWG): nothing to resume from.
  if (role.lastEventId === null || role.lastEventId === '') metrics.inc(CHAT.notResumable);
  else {
    const header = lastEventIdHeader(role.lastEventId);
    if (!header.ok) {
      metrics.inc(CHAT.resumeIdUnsendable);
      metrics.sample(
        CHAT.samples,
        `reconnected without Last-Event-ID: the target's event id "${printable(role.lastEventId, 80)}" cannot be sent back (${header.reason})`,
      );
    }
  }
  role.droppedAtMs = Number.NaN;
}

/** A role that leaves (a planned ramp-down): nothing scheduled, nothing to resume. */
export function forgetRole(role: RoleState): void {
  role.reopenAtMs = Number.NaN;
  role.attempts = 0;
  role.droppedAtMs = Number.NaN;
  role.lastEventId = null;
  role.switchedAtMs = Number.NaN;
}
