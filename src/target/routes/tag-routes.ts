/**
 * Tags: create-and-link (the seed's operation), POST /tags and PUT /tags/link/participant.
 * Coach or connector only. Creation is synchronous in the store, so under concurrent requests
 * naming the same new tag exactly one response carries its id.
 */
import { asObject, requiredString, stringArray } from '../body-fields.js';
import { replyJson } from '../dispatch.js';
import { chance } from '../faults.js';
import { problems } from '../problem.js';
import { readJson } from '../read-json.js';
import { STAFF_ONLY, type RequestContext, type RouteDef } from '../target-app.js';
import { participantOf } from './lookup.js';

/** Reads the body after the error-rate fault had its chance to answer 500. */
async function tagBody(ctx: RequestContext) {
  if (chance(ctx.app.faults.errorRate)) throw problems.injected('injected fault: error-rate');
  return asObject(await readJson(ctx.req));
}

export const tagRoutes: RouteDef[] = [
  {
    method: 'POST',
    pattern: '/admin/tags/new_and_link/participant',
    access: STAFF_ONLY,
    handler: async (ctx) => {
      const body = await tagBody(ctx);
      const participant = participantOf(ctx, requiredString(body, 'participantId'));
      const names = stringArray(body, 'tags');
      const created: string[] = [];
      for (const name of new Set(names)) {
        const { tag, created: isNew } = ctx.app.store.ensureTag(name);
        if (isNew) created.push(tag.id);
        // Existing names are not created again nor returned, but they are linked.
        participant.tagIds.add(tag.id);
      }
      replyJson(ctx, 200, created);
    },
  },
  {
    method: 'POST',
    pattern: '/tags',
    access: STAFF_ONLY,
    handler: async (ctx) => {
      const body = await tagBody(ctx);
      // One id per distinct name, in request order, existing tags included, so that the
      // answer can be fed straight to PUT /tags/link/participant.
      const ids = [...new Set(stringArray(body, 'tags'))].map((name) => ctx.app.store.ensureTag(name).tag.id);
      replyJson(ctx, 200, ids);
    },
  },
  {
    method: 'PUT',
    pattern: '/tags/link/participant',
    access: STAFF_ONLY,
    handler: async (ctx) => {
      const body = await tagBody(ctx);
      const participant = participantOf(ctx, requiredString(body, 'participantId'));
      const tagIds = stringArray(body, 'tagIds');
      const unknown = tagIds.filter((id) => !ctx.app.store.tagsById.has(id));
      if (unknown.length > 0) throw problems.notFound(`unknown tag ids: ${unknown.slice(0, 5).join(', ')}${unknown.length > 5 ? ', ...' : ''}`);
      for (const id of tagIds) participant.tagIds.add(id);
      replyJson(ctx, 200, { participantId: participant.userId, tagIds: [...participant.tagIds] });
    },
  },
];
