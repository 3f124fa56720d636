/** GET one chat session and POST .../chat_sessions/search. */

import type { ChatSessionRecord } from '../../state/store-types.js';
import { PARTICIPANT_SCOPED, type RouteDef } from '../../target-app.js';
import { asObject, optionalBoolean, paging } from '../body-fields.js';
import { replyJson } from '../dispatch.js';
import { readJson } from '../read-json.js';
import { chatSessionJson, page } from './json-shapes.js';
import { participantOf, sessionOf } from './lookup.js';

export const chatSessionRoutes: RouteDef[] = [
  {
    method: 'POST',
    pattern: '/participants/:userId/chat_sessions/search',
    access: PARTICIPANT_SCOPED,
    handler: async (ctx) => {
      const participant = participantOf(ctx);
      const body = asObject(await readJson(ctx.req, { optional: true }));
      const locked = optionalBoolean(body, 'locked');
      const { limit, offset } = paging(body);
      const sessions = participant.sessionIds
        .map((id) => ctx.app.store.sessions.get(id))
        .filter((s): s is ChatSessionRecord => s !== undefined && (locked === undefined || s.locked === locked))
        .map(chatSessionJson);
      replyJson(ctx, 200, page(sessions, limit, offset));
    },
  },
  {
    method: 'GET',
    pattern: '/participants/:userId/chat_sessions/:id',
    access: PARTICIPANT_SCOPED,
    handler: (ctx) => {
      replyJson(ctx, 200, chatSessionJson(sessionOf(ctx, ctx.params.id ?? '')));
    },
  },
];
