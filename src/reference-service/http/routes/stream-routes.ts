/** The two SSE endpoints: the chat-session stream and the main participant stream. */
import { PARTICIPANT_SCOPED, type RouteDef } from '../../target-app.js';
import { participantOf, sessionOf } from './lookup.js';

export const streamRoutes: RouteDef[] = [
  {
    method: 'GET',
    pattern: '/participants/:userId/chat_sessions/:id/stream',
    access: PARTICIPANT_SCOPED,
    handler: (ctx) => {
      const session = sessionOf(ctx, ctx.params.id ?? '');
      ctx.req.resume();
      ctx.app.streams.openStream(ctx.res, 'chat', session.id, session.participantId);
    },
  },
  {
    method: 'GET',
    pattern: '/participants/:userId/stream',
    access: PARTICIPANT_SCOPED,
    handler: (ctx) => {
      const participant = participantOf(ctx);
      ctx.req.resume();
      ctx.app.streams.openStream(ctx.res, 'main', null, participant.userId);
    },
  },
];
