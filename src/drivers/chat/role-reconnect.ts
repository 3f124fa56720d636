/**
 * When and how one stream role of a participant reconnects (docs/design.md §6): the WHATWG
 * reconnection time (`retry:`) after the target drops an opened stream, capped jittered
 * backoff after failed opens, the last event id to resume from, and the reconnect counts.
 * Plain functions over a participant's RoleState, so the driver keeps no per-stream timers.
 */
import { backoffDelayMs } from '../../engine/backoff.js';
import type { SseStream } from '../../engine/sse-reader.js';
import { recordMs } from '../../metrics/histogram.js';
import type { MetricSet } from '../../metrics/metric-set.js';
import { CHAT } from '../../metrics/names.js';
import type { RoleState } from './virtual-participant.js';

export interface BackoffSettings {
  reopenBaseMs: number;
  reopenMaxMs: number;
}

/**
 * Schedules the role's next open. `afterDrop`: the target ended a stream it had opened, and
 * its `retry:` is then the reconnection time, whatever came before; failed opens, and drops
 * without `retry:`, back off.
 */
export function scheduleReopen(role: RoleState, afterDrop: boolean, settings: BackoffSettings, nowMs: number): void {
  const delayMs = afterDrop && role.retryMs !== null ? role.retryMs : backoffDelayMs(role.attempts, settings.reopenBaseMs, settings.reopenMaxMs, Math.random());
  role.attempts++;
  role.reopenAtMs = nowMs + delayMs;
}

/** What a reconnect to the same stream resumes from, and the reconnection time the target asked for. */
export function carryResumeState(role: RoleState, stream: SseStream): void {
  role.lastEventId = stream.lastEventId ?? role.lastEventId;
  role.retryMs = stream.retryMs ?? role.retryMs;
}

/** The first reopen after a drop: how long after it, and whether there was anything to resume from. */
export function noteReconnect(role: RoleState, nowMs: number, metrics: MetricSet): void {
  if (Number.isNaN(role.droppedAtMs)) return;
  metrics.inc(CHAT.reconnects);
  recordMs(metrics.histogram(CHAT.reconnectDelayUs), nowMs - role.droppedAtMs);
  if (role.lastEventId === null) metrics.inc(CHAT.notResumable);
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
