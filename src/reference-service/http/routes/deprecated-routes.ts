/**
 * The 1.2.x endpoints the API deprecates (docs/design.md §4). They still answer, and every answer (errors too)
 * carries `Deprecation` and `Link: <successor>; rel="successor-version"` (set by the
 * dispatcher from `successor`).
 */

import { PARTICIPANT_SCOPED, type RequestContext, type RouteDef, STAFF_ONLY } from '../../target-app.js';
import { asObject, requiredString } from '../body-fields.js';
import { API_PREFIX, replyEmpty, replyJson } from '../dispatch.js';
import { readJson } from '../read-json.js';
import { activityPlanJson, checkResponseValues, requireCard, requirePlan } from './activity-plans.js';
import { participantJson } from './json-shapes.js';
import { participantOf } from './lookup.js';
import { createParticipant } from './participant-routes.js';

const enc = encodeURIComponent;
const plansOf = (p: Readonly<Record<string, string>>): string => `/participants/${enc(p.userId ?? '')}/activity_plans`;
const cardResponses = (userId: string, cardId: string): string => `/participants/${enc(userId)}/activity_plan_cards/${enc(cardId)}/responses`;

/** Card-specific successor, known once the body names the card. */
const cardLink = (userId: string, cardId: string) => ({ link: `<${API_PREFIX}${cardResponses(userId, cardId)}>; rel="successor-version"` });

async function legacyResponse(ctx: RequestContext): Promise<void> {
  const participant = participantOf(ctx);
  const body = asObject(await readJson(ctx.req));
  const cardId = requiredString(body, 'activityPlanCardId');
  requireCard(participant, cardId);
  const values = checkResponseValues(body.values);
  const response = await ctx.app.commands.execute({ kind: 'record-response', participantId: participant.userId, cardId, values });
  replyJson(ctx, 200, response, cardLink(participant.userId, cardId));
}

export const deprecatedRoutes: RouteDef[] = [
  {
    method: 'POST',
    pattern: '/admin/participants',
    access: STAFF_ONLY,
    successor: () => '/participants',
    handler: async (ctx) => {
      const legacyNames = { tags: 'participantTags', extras: 'participantExtras', groups: 'participantGroups' };
      const record = await createParticipant(ctx, asObject(await readJson(ctx.req)), legacyNames);
      // A 1.2.x client reads the 1.2.x field names back.
      const { tags, extras, groups, ...rest } = participantJson(record, ctx.app.store);
      replyJson(
        ctx,
        201,
        { ...rest, participantTags: tags, participantExtras: extras, participantGroups: groups },
        { location: `${API_PREFIX}/participants/${record.userId}` },
      );
    },
  },
  {
    method: 'GET',
    pattern: '/participants/:userId/activity_plans/all/latest',
    access: PARTICIPANT_SCOPED,
    successor: plansOf,
    handler: (ctx) => replyJson(ctx, 200, activityPlanJson(participantOf(ctx))),
  },
  {
    method: 'GET',
    pattern: '/participants/:userId/activity_plans/:id/data',
    access: PARTICIPANT_SCOPED,
    successor: (p) => `${plansOf(p)}/${enc(p.id ?? '')}`,
    handler: (ctx) => {
      const participant = participantOf(ctx);
      requirePlan(participant, ctx.params.id ?? '');
      replyJson(ctx, 200, activityPlanJson(participant));
    },
  },
  { method: 'PUT', pattern: '/participants/:userId/survey_responses', access: PARTICIPANT_SCOPED, successor: plansOf, handler: legacyResponse },
  { method: 'PUT', pattern: '/participants/:userId/activity_responses', access: PARTICIPANT_SCOPED, successor: plansOf, handler: legacyResponse },
  {
    method: 'PUT',
    pattern: '/participants/:userId/responses/undo',
    access: PARTICIPANT_SCOPED,
    successor: plansOf,
    handler: async (ctx) => {
      const participant = participantOf(ctx);
      const cardId = requiredString(asObject(await readJson(ctx.req)), 'activityPlanCardId');
      requireCard(participant, cardId);
      await ctx.app.commands.execute({ kind: 'delete-response', participantId: participant.userId, cardId });
      replyEmpty(ctx, 204, cardLink(participant.userId, cardId));
    },
  },
];
