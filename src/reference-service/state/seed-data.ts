/**
 * Deterministic seeding: the same seed, participant and session counts give the same ids,
 * tokens and API key on every machine, so a fixtures file can be regenerated instead of shared.
 */
import type { FixtureParticipant } from '../../contract/fixtures.js';
import { createPrng } from './prng.js';
import type { ChatSessionRecord, ParticipantRecord } from './store-types.js';
import { pad6, TargetStore } from './target-store.js';

/** What to seed; see docs/target.md for the id and token formats. */
export interface SeedOptions {
  seed: number;
  participants: number;
  sessionsPerParticipant: number;
  apiKey?: string;
  /**
   * The seeded participants' `createdAt` (default: now). Workers of one target are seeded with
   * the primary's, so every process answers the same record.
   */
  createdAt?: string;
}

/** The seeded store plus the secrets and fixtures handed to callers. */
export interface SeededTarget {
  store: TargetStore;
  coachToken: string;
  connectorToken: string;
  participants: FixtureParticipant[];
}

/** The seeded coach and connector principals (ids are fixed; tokens come from the seed). */
export const COACH_ID = 'c-000001';
export const CONNECTOR_ID = 'k-000001';

const FIRST_NAMES = ['Ada', 'Ben', 'Chloe', 'Dev', 'Eli', 'Fatima', 'Gus', 'Hana', 'Ivo', 'June'];
const LAST_NAMES = ['Okafor', 'Lindqvist', 'Moreau', 'Tanaka', 'Silva', 'Novak', 'Haddad', 'Kowalski'];

/** Every 3rd session of a participant (k = 3, 6, ...) is seeded locked. */
export const isSeededLocked = (sessionNumber: number): boolean => sessionNumber % 3 === 0;

/** Seeds participants, sessions, principals and the API key from `options.seed`. */
export function seedTarget(options: SeedOptions): SeededTarget {
  const prng = createPrng(options.seed);
  const pick = <T>(list: readonly T[]): T => list[Math.floor(prng.next() * list.length)] as T;
  const store = new TargetStore(options.apiKey ?? `ak_${prng.hex(16)}`);
  const coachToken = `ct_${prng.hex(16)}`;
  const connectorToken = `kt_${prng.hex(16)}`;
  store.addPrincipal(coachToken, { userId: COACH_ID, role: 'coach', name: 'Coach One' });
  store.addPrincipal(connectorToken, { userId: CONNECTOR_ID, role: 'connector', name: 'Connector One' });
  const createdAt = options.createdAt ?? new Date().toISOString();
  const participants: FixtureParticipant[] = [];
  for (let i = 1; i <= options.participants; i += 1) {
    const userId = `p-${pad6(i)}`;
    const token = `pt_${prng.hex(16)}`;
    const record = newParticipantRecord(userId, pick(FIRST_NAMES), pick(LAST_NAMES), createdAt);
    store.addParticipant(record);
    store.addPrincipal(token, { userId, role: 'participant', name: `${record.firstName} ${record.lastName}` });
    for (let k = 1; k <= options.sessionsPerParticipant; k += 1) {
      store.addSession(newSessionRecord(`cs-${pad6(i)}-${k}`, record, isSeededLocked(k)));
    }
    participants.push({ userId, token, chatSessionIds: [...record.sessionIds] });
  }
  return { store, coachToken, connectorToken, participants };
}

/** A participant record with no tags, photo, sessions or enrolments yet. */
export function newParticipantRecord(userId: string, firstName: string, lastName: string, createdAt: string): ParticipantRecord {
  return {
    userId,
    firstName,
    lastName,
    email: `${userId}@participants.coachbench.invalid`,
    photoUrl: null,
    tagIds: new Set(),
    extras: {},
    groups: [],
    createdAt,
    sessionIds: [],
    enrolments: [],
    responses: null,
  };
}

/** A session whose only member is its participant. */
export function newSessionRecord(id: string, participant: ParticipantRecord, locked: boolean): ChatSessionRecord {
  const owner = { id: participant.userId, type: 'participant', name: `${participant.firstName} ${participant.lastName}`, photoUrl: participant.photoUrl };
  return { id, participantId: participant.userId, locked, members: [owner], pending: [], messages: [] };
}
