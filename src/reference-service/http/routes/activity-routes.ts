/**
 * Activity-plan-card responses (PUT / DELETE, the 1.3.x replacements), plus GET activity
 * plans (reference-target extensions, the successors of the deprecated 1.2.x plan reads).
 */

import { PARTICIPANT_SCOPED, type RouteDef } from '../../target-app.js';
import { asObject } from '../body-fields.js';
import { replyEmpty, replyJson } from '../dispatch.js';
import { readJson } from '../read-json.js';
import { activityPlanJson, checkResponseValues, requireCard, requirePlan } from './activity-plans.js';
import { page } from './json-shapes.js';
import { participantOf } from './lookup.js';

const CARD_RESPONSES = '/participants/:userId/activity_plan_cards/:id/responses';

export const activityRoutes: RouteDef[] = [
  {
    method: 'PUT',
    pattern: CARD_RESPONSES,
    access: PARTICIPANT_SCOPED,
    handler: async (ctx) => {
      const participant = participantOf(ctx);
      const cardId = ctx.params.id ?? '';
      requireCard(participant, cardId);
      const values = checkResponseValues(asObject(await readJson(ctx.req)).values);
      replyJson(ctx, 200, await ctx.app.commands.execute({ kind: 'record-response', participantId: participant.userId, cardId, values }));
    },
  },
  {
    method: 'DELETE',
    pattern: CARD_RESPONSES,
    access: PARTICIPANT_SCOPED,
    handler: async (ctx) => {
      const participant = participantOf(ctx);
      const cardId = ctx.params.id ?? '';
      requireCard(participant, cardId);
      // Idempotent: undoing a card without a response is still a 204.
      await ctx.app.commands.execute({ kind: 'delete-response', participantId: participant.userId, cardId });
      replyEmpty(ctx);
    },
  },
  {
    method: 'GET',
    pattern: '/participants/:userId/activity_plans',
    access: PARTICIPANT_SCOPED,
    handler: (ctx) => replyJson(ctx, 200, page([activityPlanJson(participantOf(ctx))], 50, 0)),
  },
  {
    method: 'GET',
    pattern: '/participants/:userId/activity_plans/:id',
    access: PARTICIPANT_SCOPED,
    handler: (ctx) => {
      const participant = participantOf(ctx);
      requirePlan(participant, ctx.params.id ?? '');
      replyJson(ctx, 200, activityPlanJson(participant));
    },
  },
];
