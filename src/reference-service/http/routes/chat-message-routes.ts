/**
 * Sending a chat message (fan-out as MESSAGE_SENT, by the send-message command) and the
 * message and unread-message searches. Without the latency fault the frames are written
 * before the 201 is sent.
 */

import type { ChatMessage } from '../../state/store-types.js';
import { PARTICIPANT_SCOPED, type RequestContext, type RouteDef } from '../../target-app.js';
import { asObject, optionalString, paging, requiredString } from '../body-fields.js';
import { replyJson } from '../dispatch.js';
import { readJson } from '../read-json.js';
import { page } from './json-shapes.js';
import { participantOf, sessionOf } from './lookup.js';

const MAX_TEXT = 10_000;

/** Messages of the participant's sessions (or one of them), oldest first. */
async function searchMessages(ctx: RequestContext, keep: (m: ChatMessage) => boolean): Promise<void> {
  const participant = participantOf(ctx);
  const body = asObject(await readJson(ctx.req, { optional: true }));
  const sessionId = optionalString(body, 'chatSessionId');
  const text = optionalString(body, 'text', MAX_TEXT);
  const { limit, offset } = paging(body);
  const sessionIds = sessionId === undefined ? participant.sessionIds : [sessionOf(ctx, sessionId).id];
  const found: ChatMessage[] = [];
  for (const id of sessionIds) {
    for (const message of ctx.app.store.sessions.get(id)?.messages ?? []) {
      if (keep(message) && (text === undefined || message.text.includes(text))) found.push(message);
    }
  }
  // Message ids are zero-padded and increase with every message: id order is send order.
  found.sort((a, b) => (a.id < b.id ? -1 : 1));
  replyJson(ctx, 200, page(found, limit, offset));
}

export const chatMessageRoutes: RouteDef[] = [
  {
    method: 'POST',
    pattern: '/participants/:userId/chat_messages/search',
    access: PARTICIPANT_SCOPED,
    handler: (ctx) => searchMessages(ctx, () => true),
  },
  {
    method: 'POST',
    pattern: '/participants/:userId/chat_unread_messages/search',
    access: PARTICIPANT_SCOPED,
    // No read receipts exist in the API: every message someone else sent counts as unread.
    handler: (ctx) => searchMessages(ctx, (m) => m.senderId !== ctx.params.userId),
  },
  {
    method: 'POST',
    pattern: '/participants/:userId/chat_messages',
    access: PARTICIPANT_SCOPED,
    handler: async (ctx) => {
      participantOf(ctx);
      const body = asObject(await readJson(ctx.req));
      const session = sessionOf(ctx, requiredString(body, 'chatSessionId'));
      const text = requiredString(body, 'text', MAX_TEXT);
      const message = await ctx.app.commands.execute({
        kind: 'send-message',
        participantId: session.participantId,
        sessionId: session.id,
        sender: ctx.principal,
        text,
      });
      replyJson(ctx, 201, message);
    },
  },
];
