/**
 * The membership extension (docs/design.md §4): join (JOINED, or REQUESTED on a locked
 * session), leave (LEFT), approve / reject a pending request (APPROVED / REJECTED).
 * Status codes: 201 joined, 202 requested, 200 left/approved/rejected, 404 unknown session,
 * member or request, 409 already a member or already requested. The route validates; the
 * membership commands (commands/chat-commands.ts) decide and emit the events.
 */

import type { SessionMember } from '../../state/store-types.js';
import { PARTICIPANT_SCOPED, type RequestContext, type RouteDef } from '../../target-app.js';
import { asObject, requiredString } from '../body-fields.js';
import { replyJson } from '../dispatch.js';
import { problems } from '../problem.js';
import { readJson } from '../read-json.js';
import { sessionOf } from './lookup.js';

const BASE = '/participants/:userId/chat_sessions/:id/members';

async function decide(ctx: RequestContext, approve: boolean): Promise<void> {
  const session = sessionOf(ctx, ctx.params.id ?? '');
  const by = requiredString(asObject(await readJson(ctx.req)), 'by');
  const memberId = ctx.params.memberId ?? '';
  const payload = await ctx.app.commands.execute({ kind: 'decide-member', participantId: session.participantId, sessionId: session.id, memberId, approve, by });
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
      const joined = await ctx.app.commands.execute({ kind: 'join-member', participantId: session.participantId, sessionId: session.id, member });
      replyJson(ctx, joined.status, joined.payload);
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
    handler: async (ctx) => {
      const session = sessionOf(ctx, ctx.params.id ?? '');
      const memberId = ctx.params.memberId ?? '';
      const payload = await ctx.app.commands.execute({ kind: 'leave-member', participantId: session.participantId, sessionId: session.id, memberId });
      replyJson(ctx, 200, payload);
    },
  },
];
