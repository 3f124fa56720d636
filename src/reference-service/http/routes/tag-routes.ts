/**
 * Tags: create-and-link (the API's endpoint 3), POST /tags and PUT /tags/link/participant.
 * Coach or connector only. The routes validate; the tag commands create and link, against the
 * one owner of the tags (the process, or the primary under `--workers`), so under concurrent
 * requests naming the same new tag exactly one response carries its id.
 */

import { chance } from '../../faults/faults.js';
import { type RequestContext, type RouteDef, STAFF_ONLY } from '../../target-app.js';
import { asObject, requiredString, stringArray } from '../body-fields.js';
import { replyJson } from '../dispatch.js';
import { problems } from '../problem.js';
import { readJson } from '../read-json.js';
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
      const created = await ctx.app.commands.execute({ kind: 'create-and-link-tags', participantId: participant.userId, names });
      replyJson(ctx, 200, created);
    },
  },
  {
    method: 'POST',
    pattern: '/tags',
    access: STAFF_ONLY,
    handler: async (ctx) => {
      const body = await tagBody(ctx);
      const ids = await ctx.app.commands.execute({ kind: 'ensure-tags', names: stringArray(body, 'tags') });
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
      const linked = await ctx.app.commands.execute({ kind: 'link-tags', participantId: participant.userId, tagIds });
      replyJson(ctx, 200, { participantId: participant.userId, tagIds: linked });
    },
  },
];
