/**
 * Participant creation, profile photos, enrolments and activity-card responses: the
 * participant-level mutations. Bodies are validated by the routes; these only number and store.
 */
import { problems } from '../../http/problem.js';
import { isSeededLocked, newParticipantRecord, newSessionRecord } from '../seed-data.js';
import type { ParticipantRecord } from '../store-types.js';
import { pad6, type TargetStore } from '../target-store.js';
import type { Appliers } from './command-types.js';

function participantOf(store: TargetStore, id: string): ParticipantRecord {
  const participant = store.participants.get(id);
  if (!participant) throw problems.notFound(`participant ${id} does not exist`);
  return participant;
}

/** The participant-level commands. */
export const participantAppliers: Pick<Appliers, 'create-participant' | 'set-photo' | 'enrol' | 'record-response' | 'delete-response'> = {
  'create-participant': (ctx, input) => {
    const { store } = ctx;
    const number = store.nextParticipantNumber();
    const record = newParticipantRecord(`p-${pad6(number)}`, input.firstName, input.lastName, ctx.at);
    if (input.email !== undefined) record.email = input.email;
    record.extras = structuredClone(input.extras);
    record.groups = [...input.groups];
    for (const name of input.tagNames) record.tagIds.add(store.ensureTag(name, ctx.at).tag.id);
    store.addParticipant(record);
    for (let k = 1; k <= input.sessionsPerParticipant; k += 1) store.addSession(newSessionRecord(`cs-${pad6(number)}-${k}`, record, isSeededLocked(k)));
    return record.userId;
  },

  'set-photo': (ctx, { participantId, extension }) => {
    const participant = participantOf(ctx.store, participantId);
    const photoUrl = ctx.store.nextPhotoUrl(participant.userId, extension);
    participant.photoUrl = photoUrl;
    // The participant is a member of its own sessions; members carry the photo URL.
    for (const sessionId of participant.sessionIds) {
      const owner = ctx.store.sessions.get(sessionId)?.members.find((m) => m.id === participant.userId);
      if (owner) owner.photoUrl = photoUrl;
    }
    return photoUrl;
  },

  enrol: (ctx, { enrolment }) => {
    const participant = participantOf(ctx.store, enrolment.participantId);
    const record = { id: ctx.store.nextEnrolmentId(), ...structuredClone(enrolment), enrolledAt: ctx.at };
    participant.enrolments.push(record);
    return record;
  },

  'record-response': (ctx, { participantId, cardId, values }) => {
    const participant = participantOf(ctx.store, participantId);
    const response = { activityPlanCardId: cardId, participantId: participant.userId, values: structuredClone(values), respondedAt: ctx.at };
    participant.responses ??= new Map();
    participant.responses.set(cardId, response);
    return response;
  },

  'delete-response': (ctx, { participantId, cardId }) => {
    // Idempotent: undoing a card without a response is not an error.
    participantOf(ctx.store, participantId).responses?.delete(cardId);
    return null;
  },
};
