/**
 * Validates every event a stream carries: JSON, known eventType, and the API's payload
 * shapes. Returns a parsed event or the violation; never throws (a target that answers
 * garbage is counted, and the run goes on).
 */
import type { AnySchemaObject, ValidateFunction } from 'ajv';
import { loadValidator, type ValidatorSpec } from '../../util/precompiled-validator.js';
import {
  DECISION_EVENT_TYPES,
  decisionPayloadSchema,
  KNOWN_EVENT_TYPES,
  MEMBER_EVENT_TYPES,
  memberPayloadSchema,
  messageSentPayloadSchema,
} from './event-schemas.js';

export type ViolationKind = 'invalid-json' | 'envelope' | 'unknown-event-type' | 'message-payload' | 'member-payload' | 'decision-payload';

export interface ChatMessageLike {
  id: string;
  chatSessionId: string;
  text: string;
}

export type ValidatedEvent =
  | { ok: true; eventType: 'KEEP_ALIVE' }
  | { ok: true; eventType: 'MESSAGE_SENT'; messages: ChatMessageLike[] }
  | { ok: true; eventType: string; sessionId: string }
  | { ok: false; violation: ViolationKind; eventType: string | null };

const payloadSpec = (name: string, schema: object): ValidatorSpec => ({
  name: `event-${name}`,
  dialect: 'draft-07',
  options: { allErrors: false },
  schema: schema as AnySchemaObject,
});

/** The payload schemas, compiled at build time (util/precompiled-validator.ts). */
export const EVENT_VALIDATOR_SPECS = {
  messageSent: payloadSpec('message-sent', messageSentPayloadSchema),
  member: payloadSpec('member', memberPayloadSchema),
  approvedBy: payloadSpec('approved', decisionPayloadSchema('approvedBy')),
  rejectedBy: payloadSpec('rejected', decisionPayloadSchema('rejectedBy')),
} as const;

const payloadValidators = new Map<string, { violation: ViolationKind; validate: ValidateFunction }>();
payloadValidators.set('MESSAGE_SENT', { violation: 'message-payload', validate: loadValidator(EVENT_VALIDATOR_SPECS.messageSent) });
const memberValidator = loadValidator(EVENT_VALIDATOR_SPECS.member);
for (const type of MEMBER_EVENT_TYPES) payloadValidators.set(type, { violation: 'member-payload', validate: memberValidator });
for (const [type, by] of Object.entries(DECISION_EVENT_TYPES)) {
  payloadValidators.set(type, { violation: 'decision-payload', validate: loadValidator(EVENT_VALIDATOR_SPECS[by]) });
}

/** Parses and validates one SSE `data` field. */
export function validateEvent(data: string): ValidatedEvent {
  let event: unknown;
  try {
    event = JSON.parse(data);
  } catch {
    return { ok: false, violation: 'invalid-json', eventType: null };
  }
  if (typeof event !== 'object' || event === null || typeof (event as { eventType?: unknown }).eventType !== 'string') {
    return { ok: false, violation: 'envelope', eventType: null };
  }
  const { eventType, payload } = event as { eventType: string; payload: unknown };
  if (!KNOWN_EVENT_TYPES.has(eventType)) return { ok: false, violation: 'unknown-event-type', eventType };
  // KEEP_ALIVE's payload is "not used by clients": any value is acceptable.
  if (eventType === 'KEEP_ALIVE') return { ok: true, eventType };
  const validator = payloadValidators.get(eventType);
  if (validator && !validator.validate(payload)) return { ok: false, violation: validator.violation, eventType };
  if (eventType === 'MESSAGE_SENT') return { ok: true, eventType, messages: payload as ChatMessageLike[] };
  return { ok: true, eventType, sessionId: (payload as { sessionId: string }).sessionId };
}
