/**
 * Chat messages and the membership extension (docs/design.md §4): who may join, leave, be
 * approved or rejected is decided here, against the owner's store, and each success emits
 * its event to the session's streams.
 */
import { problems } from '../../http/problem.js';
import { eventFrame } from '../../streams/sse-writer.js';
import { type ChatMessage, type ChatSessionRecord, MESSAGE_HISTORY_CAP, type SessionMember } from '../store-types.js';
import type { TargetStore } from '../target-store.js';
import type { Appliers, ApplyContext, MemberPayload } from './command-types.js';

function sessionOf(store: TargetStore, participantId: string, sessionId: string): ChatSessionRecord {
  const session = store.sessionOf(participantId, sessionId);
  if (!session) throw problems.notFound(`chat session ${sessionId} does not exist for participant ${participantId}`);
  return session;
}

function memberPayload(session: ChatSessionRecord, member: SessionMember): MemberPayload {
  return {
    sessionId: session.id,
    participantId: session.participantId,
    memberId: member.id,
    memberType: member.type,
    memberName: member.name,
    photoUrl: member.photoUrl,
  };
}

function emit(ctx: ApplyContext, session: ChatSessionRecord, eventType: string, payload: unknown, toMainStreams = false): void {
  ctx.emit({ sessionId: session.id, participantId: session.participantId, frame: eventFrame(eventType, payload), toMainStreams });
}

/** The chat message and membership commands. */
export const chatAppliers: Pick<Appliers, 'send-message' | 'join-member' | 'decide-member' | 'leave-member'> = {
  'send-message': (ctx, { participantId, sessionId, sender, text }) => {
    const session = sessionOf(ctx.store, participantId, sessionId);
    const message: ChatMessage = {
      id: ctx.store.nextMessageId(),
      chatSessionId: session.id,
      senderId: sender.userId,
      senderType: sender.role,
      text,
      sentAt: ctx.at,
    };
    session.messages.push(message);
    if (session.messages.length > MESSAGE_HISTORY_CAP) session.messages.shift();
    // The participant's main streams get it too: the API's "incoming unread chat message".
    emit(ctx, session, 'MESSAGE_SENT', [message], true);
    return message;
  },

  'join-member': (ctx, { participantId, sessionId, member }) => {
    const session = sessionOf(ctx.store, participantId, sessionId);
    if (session.members.some((m) => m.id === member.id)) throw problems.conflict(`${member.id} is already a member of chat session ${session.id}`);
    if (session.pending.some((m) => m.id === member.id)) throw problems.conflict(`${member.id} has already requested to join chat session ${session.id}`);
    const joined = { ...member };
    (session.locked ? session.pending : session.members).push(joined);
    const payload = memberPayload(session, joined);
    emit(ctx, session, session.locked ? 'CHAT_SESSION_MEMBER_REQUESTED' : 'CHAT_SESSION_MEMBER_JOINED', payload);
    return { status: session.locked ? 202 : 201, payload };
  },

  'decide-member': (ctx, { participantId, sessionId, memberId, approve, by }) => {
    const session = sessionOf(ctx.store, participantId, sessionId);
    const index = session.pending.findIndex((m) => m.id === memberId);
    if (index === -1) throw problems.notFound(`no pending join request from ${memberId} in chat session ${session.id}`);
    const [member] = session.pending.splice(index, 1) as [SessionMember];
    if (approve) session.members.push(member);
    const { photoUrl: _omitted, ...rest } = memberPayload(session, member);
    const payload = approve ? { ...rest, approvedBy: by } : { ...rest, rejectedBy: by };
    emit(ctx, session, approve ? 'CHAT_SESSION_MEMBER_APPROVED' : 'CHAT_SESSION_MEMBER_REJECTED', payload);
    return payload;
  },

  'leave-member': (ctx, { participantId, sessionId, memberId }) => {
    const session = sessionOf(ctx.store, participantId, sessionId);
    if (memberId === session.participantId) throw problems.conflict('the session owner cannot leave its own chat session');
    const index = session.members.findIndex((m) => m.id === memberId);
    if (index === -1) throw problems.notFound(`${memberId} is not a member of chat session ${session.id}`);
    const [member] = session.members.splice(index, 1) as [SessionMember];
    const payload = memberPayload(session, member);
    emit(ctx, session, 'CHAT_SESSION_MEMBER_LEFT', payload);
    return payload;
  },
};
