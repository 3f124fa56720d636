/** The target's in-memory records and the JSON shapes it answers with. */

export type Role = 'participant' | 'coach' | 'connector';

/** Who a bearer token stands for. */
export interface Principal {
  userId: string;
  role: Role;
  name: string;
}

/** Any JSON value (extras, activity values). */
export type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue };

/** The ChatMessage of docs/design.md §4. */
export interface ChatMessage {
  id: string;
  chatSessionId: string;
  senderId: string;
  senderType: string;
  text: string;
  sentAt: string;
}

/** A chat-session member as GET chat session shows it. */
export interface SessionMember {
  id: string;
  type: string;
  name: string;
  photoUrl: string | null;
}

/** A chat session as stored. */
export interface ChatSessionRecord {
  id: string;
  participantId: string;
  locked: boolean;
  members: SessionMember[];
  /** Join requests on a locked session, waiting for approve/reject. */
  pending: SessionMember[];
  /** The most recent messages, capped (see MESSAGE_HISTORY_CAP) so soak runs stay bounded. */
  messages: ChatMessage[];
}

/** A tag as stored. */
export interface TagRecord {
  id: string;
  name: string;
  createdAt: string;
}

/** A participant's response to one activity-plan card. */
export interface ActivityResponse {
  activityPlanCardId: string;
  participantId: string;
  values: JsonValue[];
  respondedAt: string;
}

/** A journey enrolment (1.3.0 fields, deprecated reminder fields flagged). */
export interface EnrolmentRecord {
  id: string;
  participantId: string;
  journeyId: string;
  interventionStartFrom: string | null;
  interventionEndAt: string | null;
  preferredReminderHour: number | null;
  preferredReminderMin: number | null;
  deprecatedFields: string[];
  enrolledAt: string;
}

/** A participant as stored. */
export interface ParticipantRecord {
  userId: string;
  firstName: string;
  lastName: string;
  email: string;
  photoUrl: string | null;
  tagIds: Set<string>;
  extras: Record<string, JsonValue>;
  groups: string[];
  createdAt: string;
  sessionIds: string[];
  enrolments: EnrolmentRecord[];
  /** Activity-plan-card responses by card id; created on first use. */
  responses: Map<string, ActivityResponse> | null;
}

/** Messages kept per session for the search endpoints. */
export const MESSAGE_HISTORY_CAP = 100;
