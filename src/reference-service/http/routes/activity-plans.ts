/**
 * The activity plan each participant has: one plan with three cards, derived from the user
 * id (no storage). Values follow 1.3.2: ActivityValue embeds MeasureTypeContent and carries
 * measureDataType (valueDataType and contentId are gone).
 */

import type { JsonValue, ParticipantRecord } from '../../state/store-types.js';
import { problems } from '../problem.js';

const CARDS = [
  { title: 'How did you sleep?', measureDataType: 'integer', content: { title: 'Sleep', body: 'Rate last night from 1 to 5.' } },
  { title: 'Why sleep matters', measureDataType: 'content', content: { title: 'Reading', body: 'A short page about sleep hygiene.' } },
  { title: 'What will you try tonight?', measureDataType: 'text', content: { title: 'Plan', body: 'One small change.' } },
] as const;

const numberOf = (participant: ParticipantRecord): string => participant.userId.replace(/^p-/, '');

export const planIdOf = (participant: ParticipantRecord): string => `ap-${numberOf(participant)}-1`;

export function cardIdsOf(participant: ParticipantRecord): string[] {
  return CARDS.map((_, i) => `apc-${numberOf(participant)}-1-${i + 1}`);
}

export function activityPlanJson(participant: ParticipantRecord) {
  const planId = planIdOf(participant);
  const cardIds = cardIdsOf(participant);
  return {
    id: planId,
    participantId: participant.userId,
    title: 'Sleep well',
    createdAt: participant.createdAt,
    cards: CARDS.map((card, i) => {
      const response = participant.responses?.get(cardIds[i] as string);
      return {
        id: cardIds[i],
        activityPlanId: planId,
        title: card.title,
        activityValue: { measureDataType: card.measureDataType, measureTypeContent: card.content, value: response?.values ?? null },
      };
    }),
  };
}

export function requirePlan(participant: ParticipantRecord, planId: string): void {
  if (planId !== planIdOf(participant)) throw problems.notFound(`activity plan ${planId} does not exist for participant ${participant.userId}`);
}

export function requireCard(participant: ParticipantRecord, cardId: string): void {
  if (!cardIdsOf(participant).includes(cardId)) throw problems.notFound(`activity plan card ${cardId} does not exist for participant ${participant.userId}`);
}

const REMOVED_FIELDS: Record<string, string> = {
  valueDataType: 'valueDataType was removed in 1.3.2 (use measureDataType)',
  contentId: 'contentId was removed in 1.3.2 (use the embedded measureTypeContent)',
};

/** Checks `values` (1..100 objects, each with measureDataType); the record-response command stores them. */
export function checkResponseValues(values: unknown): JsonValue[] {
  if (!Array.isArray(values) || values.length === 0 || values.length > 100) throw problems.badRequest('"values" must be an array of 1..100 activity values');
  for (const value of values) {
    if (typeof value !== 'object' || value === null || Array.isArray(value)) throw problems.badRequest('every item of "values" must be an object');
    for (const [field, why] of Object.entries(REMOVED_FIELDS)) if (field in value) throw problems.badRequest(why);
    if (typeof (value as Record<string, unknown>).measureDataType !== 'string')
      throw problems.badRequest('every activity value needs a "measureDataType" string');
  }
  return values as JsonValue[];
}
