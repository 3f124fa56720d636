/**
 * A virtual participant as a real client behaves (API endpoint 1, docs/design.md §4): it holds its
 * main stream and one chat-session stream, and switches sessions by closing the old stream
 * and opening the new one. Reopens are scheduled as times checked by the driver's sweep,
 * so there are no timers per participant.
 */
import type { FixtureParticipant } from '../../contract/fixtures.js';
import type { SseStream, StreamRole } from '../../engine/sse-reader.js';

/** What a participant keeps per stream role (its main stream, its chat-session stream). */
export interface RoleState {
  stream: SseStream | null;
  /** Consecutive failed opens, for backoff; reset once a stream proves healthy. */
  attempts: number;
  /** performance.now() at which to (re)open, NaN when nothing is scheduled. */
  reopenAtMs: number;
  /** When the target dropped the stream (a reconnect's delay counts from here), NaN otherwise. */
  droppedAtMs: number;
  /** The last event id of this role's stream (sent as Last-Event-ID on a reconnect to the same stream), or null. */
  lastEventId: string | null;
  /** The target's `retry:` for this role's stream, or null. */
  retryMs: number | null;
  /** The Authorization its last open sent (a 401 to it may be renewed), or null. */
  sentAuthorization: string | null;
  /** The last open was sent again with a renewed token after a 401: another 401 stands. */
  renewedOpen: boolean;
  /** When a session switch closed this role's stream to open the next (its gap may count as held), NaN otherwise. */
  switchedAtMs: number;
}

export interface VirtualParticipant {
  readonly index: number;
  /** Position in the whole run's participant list: online while the planned population is above it. */
  readonly rank: number;
  /** Brought online and not yet left (a planned ramp-down takes participants offline). */
  online: boolean;
  readonly fixture: FixtureParticipant;
  /** Shared by every stream open of this participant (Authorization apart: authorizationOf); never logged. */
  readonly headers: Record<string, string>;
  sessionCursor: number;
  readonly roles: Record<StreamRole, RoleState>;
  /** When the sweep switches its chat stream to the next session; Infinity before its first chat stream opens and once it left. */
  nextSwitchAtMs: number;
}

/**
 * How long a participant stays in a session, as a fraction of the profile's switchEvery.
 * Later stays are one period ±10%, so thousands of participants do not switch in lockstep.
 * The first stay after coming online is a uniform part of one period: real clients entered
 * their current sessions at unrelated times, so switches arrive at the steady rate
 * (participants / switchEvery) from the start. Were the first stay a full period, every
 * participant of the ramp would switch in the same minute one period later, a burst that
 * steady traffic never has (docs/design.md §6, "Session switches").
 */
export function switchFraction(firstStay: boolean, random: () => number = Math.random): number {
  return firstStay ? random() : 0.9 + 0.2 * random();
}

export function createParticipant(index: number, fixture: FixtureParticipant, apiKey: string): VirtualParticipant {
  return {
    index,
    rank: fixture.rank ?? index,
    online: false,
    fixture,
    headers: {
      'x-api-key': apiKey,
      accept: 'text/event-stream',
    },
    // Spread participants over their sessions so sessions, not just participants, vary.
    sessionCursor: index % fixture.chatSessionIds.length,
    roles: { main: idleRole(), chat: idleRole() },
    nextSwitchAtMs: Infinity,
  };
}

function idleRole(): RoleState {
  return {
    stream: null,
    attempts: 0,
    reopenAtMs: NaN,
    droppedAtMs: NaN,
    lastEventId: null,
    retryMs: null,
    sentAuthorization: null,
    renewedOpen: false,
    switchedAtMs: NaN,
  };
}

/** The participant's Authorization now: read at each send, so a renewed token is used at once (engine/auth). */
export function authorizationOf(participant: VirtualParticipant): string {
  return `Bearer ${participant.fixture.token}`;
}

/** The participant's chat-session stream, if it has one. */
export function chatStreamOf(participant: VirtualParticipant): SseStream | null {
  return participant.roles.chat.stream;
}

export function currentSession(participant: VirtualParticipant): string {
  const sessions = participant.fixture.chatSessionIds;
  return sessions[participant.sessionCursor % sessions.length]!;
}
