/**
 * POST /participants (1.3.x field names tags / extras / groups), GET /participants/{user_id}
 * (reference-target extension, to observe tags and photo) and journey enrolments.
 */

import type { ParticipantRecord } from '../../state/store-types.js';
import { PARTICIPANT_SCOPED, type RequestContext, type RouteDef, STAFF_ONLY } from '../../target-app.js';
import { asObject, type JsonObject, optionalInteger, optionalRecord, optionalString, optionalStringArray, requiredString } from '../body-fields.js';
import { replyJson } from '../dispatch.js';
import { problems } from '../problem.js';
import { readJson } from '../read-json.js';
import { participantJson } from './json-shapes.js';
import { participantOf } from './lookup.js';

/** Field names of the body: 1.3.x (`tags`) or, for the deprecated route, 1.2.x (`participantTags`). */
export interface ParticipantFieldNames {
  tags: string;
  extras: string;
  groups: string;
}

export const CURRENT_FIELDS: ParticipantFieldNames = { tags: 'tags', extras: 'extras', groups: 'groups' };

/**
 * Creates a participant (with its chat sessions) from a POST body; tags are names. The body is
 * checked here, the numbering is the create-participant command's; the record is read back
 * from this process's store, which holds it once the command has answered.
 */
export async function createParticipant(ctx: RequestContext, body: JsonObject, names: ParticipantFieldNames): Promise<ParticipantRecord> {
  const firstName = requiredString(body, 'firstName');
  const lastName = requiredString(body, 'lastName');
  const email = optionalString(body, 'email');
  const tagNames = optionalStringArray(body, names.tags) ?? [];
  const extras = optionalRecord(body, names.extras) ?? {};
  const groups = optionalStringArray(body, names.groups) ?? [];
  const { sessionsPerParticipant } = ctx.app;
  const userId = await ctx.app.commands.execute({
    kind: 'create-participant',
    firstName,
    lastName,
    ...(email !== undefined ? { email } : {}),
    tagNames,
    extras,
    groups,
    sessionsPerParticipant,
  });
  return participantOf(ctx, userId);
}

const HOUR_MINUTE = /^([01]\d|2[0-3]):[0-5]\d$/;

function optionalHour(body: JsonObject, key: string): string | null {
  const value = optionalString(body, key, 5);
  if (value === undefined) return null;
  if (!HOUR_MINUTE.test(value)) throw problems.badRequest(`"${key}" must be an hour of the day as HH:MM (00:00..23:59)`);
  return value;
}

export const participantRoutes: RouteDef[] = [
  {
    method: 'POST',
    pattern: '/participants',
    access: STAFF_ONLY,
    handler: async (ctx) => {
      const record = await createParticipant(ctx, asObject(await readJson(ctx.req)), CURRENT_FIELDS);
      replyJson(ctx, 201, participantJson(record, ctx.app.store), { location: `/api/v1/participants/${record.userId}` });
    },
  },
  {
    method: 'GET',
    pattern: '/participants/:userId',
    access: PARTICIPANT_SCOPED,
    handler: (ctx) => replyJson(ctx, 200, participantJson(participantOf(ctx), ctx.app.store)),
  },
  {
    method: 'POST',
    pattern: '/participants/:userId/enrolments',
    access: PARTICIPANT_SCOPED,
    handler: async (ctx) => {
      const participant = participantOf(ctx);
      const body = asObject(await readJson(ctx.req));
      const enrolment = await ctx.app.commands.execute({
        kind: 'enrol',
        enrolment: {
          participantId: participant.userId,
          journeyId: requiredString(body, 'journeyId'),
          interventionStartFrom: optionalHour(body, 'interventionStartFrom'),
          interventionEndAt: optionalHour(body, 'interventionEndAt'),
          preferredReminderHour: optionalInteger(body, 'preferredReminderHour', 0, 23) ?? null,
          preferredReminderMin: optionalInteger(body, 'preferredReminderMin', 0, 59) ?? null,
          deprecatedFields: ['preferredReminderHour', 'preferredReminderMin'].filter((key) => body[key] !== undefined && body[key] !== null),
        },
      });
      replyJson(ctx, 201, enrolment);
    },
  },
];
