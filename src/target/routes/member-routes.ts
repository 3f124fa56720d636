/**
 * The membership extension (DESIGN.md section 4): join (JOINED, or REQUESTED on a locked
 * session), leave (LEFT), approve / reject a pending request (APPROVED / REJECTED).
 * Status codes: 201 joined, 202 requested, 200 left/approved/rejected, 404 unknown session,
 * member or request, 409 already a member or already requested.
 */
import { asObject, requiredString } from '../body-fields.js';
import { replyJson } from '../dispatch.js';
import { problems } from '../problem.js';
import { readJson } from '../read-json.js';
import { eventFrame } from '../sse-stream.js';
import type { ChatSessionRecord, SessionMember } from '../store-types.js';
import { PARTICIPANT_SCOPED, type RequestContext, type RouteDef } from '../target-app.js';
import { sessionOf } from './lookup.js';

const BASE = '/participants/:userId/chat_sessions/:id/members';

/** The seed's member payload (REQUESTED, JOINED, LEFT). */
function memberPayload(session: ChatSessionRecord, member: SessionMember) {
  return {
    sessionId: session.id,
    participantId: session.participantId,
    memberId: member.id,
    memberType: member.type,
    memberName: member.name,
    photoUrl: member.photoUrl,
  };
}

/** The seed's decision payload: the member payload without photoUrl, plus exactly one decider. */
function decisionPayload(session: ChatSessionRecord, member: SessionMember, decider: { approvedBy: string } | { rejectedBy: string }) {
  const { photoUrl: _omitted, ...rest } = memberPayload(session, member);
  return { ...rest, ...decider };
}

function emit(ctx: RequestContext, session: ChatSessionRecord, eventType: string, payload: unknown): void {
  ctx.app.events.publish({ sessionId: session.id, participantId: session.participantId, frame: eventFrame(eventType, payload), toMainStreams: false });
}

async function decide(ctx: RequestContext, approve: boolean): Promise<void> {
  const session = sessionOf(ctx, ctx.params.id ?? '');
  const by = requiredString(asObject(await readJson(ctx.req)), 'by');
  const memberId = ctx.params.memberId ?? '';
  const index = session.pending.findIndex((m) => m.id === memberId);
  if (index === -1) throw problems.notFound(`no pending join request from ${memberId} in chat session ${session.id}`);
  const [member] = session.pending.splice(index, 1) as [SessionMember];
  if (approve) session.members.push(member);
  const payload = decisionPayload(session, member, approve ? { approvedBy: by } : { rejectedBy: by });
  emit(ctx, session, approve ? 'CHAT_SESSION_MEMBER_APPROVED' : 'CHAT_SESSION_MEMBER_REJECTED', payload);
  replyJson(ctx, 200, payload);
}

export const memberRoutes: RouteDef[] = [
  {
    method: 'POST',
    pattern: BASE,
    access: PARTICIPANT_SCOPED,
    handler: async (ctx) => {
      const session = sessionOf(ctx, ctx.params.id ?? '');
      const body = asObject(await readJson(ctx.req));
      const photoUrl = body.photoUrl;
      if (photoUrl !== undefined && photoUrl !== null && typeof photoUrl !== 'string') throw problems.badRequest('"photoUrl" must be a string or null');
      const member: SessionMember = {
        id: requiredString(body, 'memberId'),
        type: requiredString(body, 'memberType'),
        name: requiredString(body, 'memberName'),
        photoUrl: photoUrl ?? null,
      };
      if (session.members.some((m) => m.id === member.id)) throw problems.conflict(`${member.id} is already a member of chat session ${session.id}`);
      if (session.pending.some((m) => m.id === member.id)) throw problems.conflict(`${member.id} has already requested to join chat session ${session.id}`);
      (session.locked ? session.pending : session.members).push(member);
      const payload = memberPayload(session, member);
      emit(ctx, session, session.locked ? 'CHAT_SESSION_MEMBER_REQUESTED' : 'CHAT_SESSION_MEMBER_JOINED', payload);
      replyJson(ctx, session.locked ? 202 : 201, payload);
    },
  },
  {
    method: 'POST',
    pattern: `${BASE}/:memberId/approve`,
    access: PARTICIPANT_SCOPED,
    handler: (ctx) => decide(ctx, true),
  },
  {
    method: 'POST',
    pattern: `${BASE}/:memberId/reject`,
    access: PARTICIPANT_SCOPED,
    handler: (ctx) => decide(ctx, false),
  },
  {
    method: 'DELETE',
    pattern: `${BASE}/:memberId`,
    access: PARTICIPANT_SCOPED,
    handler: (ctx) => {
      const session = sessionOf(ctx, ctx.params.id ?? '');
      const memberId = ctx.params.memberId ?? '';
      if (memberId === session.participantId) throw problems.conflict('the session owner cannot leave its own chat session');
      const index = session.members.findIndex((m) => m.id === memberId);
      if (index === -1) throw problems.notFound(`${memberId} is not a member of chat session ${session.id}`);
      const [member] = session.members.splice(index, 1) as [SessionMember];
      const payload = memberPayload(session, member);
      emit(ctx, session, 'CHAT_SESSION_MEMBER_LEFT', payload);
      replyJson(ctx, 200, payload);
    },
  },
];
