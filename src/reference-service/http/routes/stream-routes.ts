/** The two SSE endpoints: the chat-session stream and the main participant stream. */
import type { IncomingHttpHeaders } from 'node:http';
import { PARTICIPANT_SCOPED, type RouteDef } from '../../target-app.js';
import { participantOf, sessionOf } from './lookup.js';

/** `Last-Event-ID` as the target's own ids are (whole numbers); anything else resumes nothing. */
function lastEventIdOf(headers: IncomingHttpHeaders): number | null {
  const value = headers['last-event-id'];
  return typeof value === 'string' && /^\d{1,15}$/.test(value.trim()) ? Number(value.trim()) : null;
}

export const streamRoutes: RouteDef[] = [
  {
    method: 'GET',
    pattern: '/participants/:userId/chat_sessions/:id/stream',
    access: PARTICIPANT_SCOPED,
    handler: (ctx) => {
      const session = sessionOf(ctx, ctx.params.id ?? '');
      ctx.req.resume();
      ctx.app.streams.openStream(ctx.res, 'chat', session.id, session.participantId, lastEventIdOf(ctx.req.headers));
    },
  },
  {
    method: 'GET',
    pattern: '/participants/:userId/stream',
    access: PARTICIPANT_SCOPED,
    handler: (ctx) => {
      const participant = participantOf(ctx);
      ctx.req.resume();
      ctx.app.streams.openStream(ctx.res, 'main', null, participant.userId, lastEventIdOf(ctx.req.headers));
    },
  },
];
