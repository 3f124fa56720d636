/** Resolves path parameters to records, or throws the 404 problem. */

import type { ChatSessionRecord, ParticipantRecord } from '../../state/store-types.js';
import type { RequestContext } from '../../target-app.js';
import { problems } from '../problem.js';

export function participantOf(ctx: RequestContext, id = ctx.params.userId ?? ''): ParticipantRecord {
  const participant = ctx.app.store.participants.get(id);
  if (!participant) throw problems.notFound(`participant ${id} does not exist`);
  return participant;
}

/** A chat session of the path's participant (a session of someone else is a 404 too). */
export function sessionOf(ctx: RequestContext, sessionId: string): ChatSessionRecord {
  const participant = participantOf(ctx);
  const session = ctx.app.store.sessionOf(participant.userId, sessionId);
  if (!session) throw problems.notFound(`chat session ${sessionId} does not exist for participant ${participant.userId}`);
  return session;
}
