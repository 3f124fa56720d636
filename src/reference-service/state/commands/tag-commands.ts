/**
 * Tag creation and linking. Creation is decided by the owner's store alone, so under
 * concurrent requests naming the same new tag (on any worker) exactly one answer carries its id.
 */
import { problems } from '../../http/problem.js';
import type { ParticipantRecord } from '../store-types.js';
import type { TargetStore } from '../target-store.js';
import type { Appliers } from './command-types.js';

function participantOf(store: TargetStore, id: string): ParticipantRecord {
  const participant = store.participants.get(id);
  if (!participant) throw problems.notFound(`participant ${id} does not exist`);
  return participant;
}

/** The tag commands. */
export const tagAppliers: Pick<Appliers, 'create-and-link-tags' | 'ensure-tags' | 'link-tags'> = {
  'create-and-link-tags': (ctx, { participantId, names }) => {
    const participant = participantOf(ctx.store, participantId);
    const created: string[] = [];
    for (const name of new Set(names)) {
      const { tag, created: isNew } = ctx.store.ensureTag(name, ctx.at);
      if (isNew) created.push(tag.id);
      // Existing names are not created again nor returned, but they are linked.
      participant.tagIds.add(tag.id);
    }
    return created;
  },

  // One id per distinct name, in request order, existing tags included, so that the answer
  // can be fed straight to PUT /tags/link/participant.
  'ensure-tags': (ctx, { names }) => [...new Set(names)].map((name) => ctx.store.ensureTag(name, ctx.at).tag.id),

  'link-tags': (ctx, { participantId, tagIds }) => {
    const participant = participantOf(ctx.store, participantId);
    const unknown = tagIds.filter((id) => !ctx.store.tagsById.has(id));
    if (unknown.length > 0) throw problems.notFound(`unknown tag ids: ${unknown.slice(0, 5).join(', ')}${unknown.length > 5 ? ', ...' : ''}`);
    for (const id of tagIds) participant.tagIds.add(id);
    return [...participant.tagIds];
  },
};
