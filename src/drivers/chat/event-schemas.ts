/**
 * JSON Schemas of the chat stream events (the API's events; ChatMessage as docs/design.md §4 fixes it).
 * Compiled once by ajv; the validator maps a failure to a stable violation kind.
 */
const str = { type: 'string' } as const;

const memberFields = {
  sessionId: str,
  participantId: str,
  memberId: str,
  memberType: str,
  memberName: str,
} as const;

export const memberPayloadSchema = {
  type: 'object',
  required: Object.keys(memberFields),
  properties: { ...memberFields, photoUrl: { type: ['string', 'null'] } },
} as const;

/** APPROVED carries approvedBy and never rejectedBy; REJECTED the reverse. */
export function decisionPayloadSchema(by: 'approvedBy' | 'rejectedBy') {
  const other = by === 'approvedBy' ? 'rejectedBy' : 'approvedBy';
  return {
    type: 'object',
    required: [...Object.keys(memberFields), by],
    properties: { ...memberFields, [by]: str },
    not: { required: [other] },
  } as const;
}

export const chatMessageSchema = {
  type: 'object',
  required: ['id', 'chatSessionId', 'senderId', 'senderType', 'text', 'sentAt'],
  properties: { id: str, chatSessionId: str, senderId: str, senderType: str, text: str, sentAt: str },
} as const;

export const messageSentPayloadSchema = { type: 'array', minItems: 1, items: chatMessageSchema } as const;

export const MEMBER_EVENT_TYPES = ['CHAT_SESSION_MEMBER_REQUESTED', 'CHAT_SESSION_MEMBER_JOINED', 'CHAT_SESSION_MEMBER_LEFT'] as const;

export const DECISION_EVENT_TYPES = {
  CHAT_SESSION_MEMBER_APPROVED: 'approvedBy',
  CHAT_SESSION_MEMBER_REJECTED: 'rejectedBy',
} as const;

export const KNOWN_EVENT_TYPES = new Set<string>(['KEEP_ALIVE', 'MESSAGE_SENT', ...MEMBER_EVENT_TYPES, ...Object.keys(DECISION_EVENT_TYPES)]);
