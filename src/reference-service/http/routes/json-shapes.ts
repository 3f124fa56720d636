/** The JSON the target answers with, built from its records. */
import type { ChatSessionRecord, ParticipantRecord, SessionMember } from '../../state/store-types.js';
import type { TargetStore } from '../../state/target-store.js';

export interface ChatSessionJson {
  id: string;
  participantId: string;
  locked: boolean;
  members: SessionMember[];
  /** Join requests of a locked session awaiting approve/reject (reference-target extension). */
  pendingMembers: SessionMember[];
}

export function chatSessionJson(session: ChatSessionRecord): ChatSessionJson {
  return {
    id: session.id,
    participantId: session.participantId,
    locked: session.locked,
    members: session.members.map((m) => ({ ...m })),
    pendingMembers: session.pending.map((m) => ({ ...m })),
  };
}

/** The 1.3.x participant (tags, extras, groups) plus its chat session ids. */
export function participantJson(participant: ParticipantRecord, store: TargetStore) {
  return {
    userId: participant.userId,
    firstName: participant.firstName,
    lastName: participant.lastName,
    email: participant.email,
    photoUrl: participant.photoUrl,
    tags: [...participant.tagIds].map((id) => ({ id, name: store.tagsById.get(id)?.name ?? id })),
    extras: participant.extras,
    groups: participant.groups,
    chatSessionIds: participant.sessionIds,
    createdAt: participant.createdAt,
  };
}

/** Applies limit/offset and reports the total, the shape of every search answer. */
export function page<T>(items: readonly T[], limit: number, offset: number) {
  return { items: items.slice(offset, offset + limit), total: items.length, limit, offset };
}
