/**
 * Every mutation of the target's state is a Command: plain data, applied by one function to a
 * store. In one process the LocalCommandBus applies it at once; under `serve --workers N` the
 * primary applies it first (the single source of truth, so "exactly one creation wins" holds
 * across processes), then every worker replays it on its replica in the primary's order.
 */
import type { HubEvent } from '../../streams/stream-hub.js';
import type { ActivityResponse, ChatMessage, EnrolmentRecord, JsonValue, Principal, SessionMember } from '../store-types.js';
import type { TargetStore } from '../target-store.js';

/** The API's member payload (REQUESTED, JOINED, LEFT). */
export interface MemberPayload {
  sessionId: string;
  participantId: string;
  memberId: string;
  memberType: string;
  memberName: string;
  photoUrl: string | null;
}

/** The API's decision payload: the member payload without photoUrl, plus exactly one decider. */
export type DecisionPayload = Omit<MemberPayload, 'photoUrl'> & ({ approvedBy: string } | { rejectedBy: string });

/** A participant to create (already validated by the route); tags are names. */
export interface NewParticipant {
  firstName: string;
  lastName: string;
  email?: string;
  tagNames: string[];
  extras: Record<string, JsonValue>;
  groups: string[];
  sessionsPerParticipant: number;
}

/** Each command's input (besides `kind`) and result. Results are JSON-safe: they cross IPC. */
export interface CommandMap {
  'send-message': { input: { participantId: string; sessionId: string; sender: Principal; text: string }; result: ChatMessage };
  'join-member': { input: { participantId: string; sessionId: string; member: SessionMember }; result: { status: 201 | 202; payload: MemberPayload } };
  'decide-member': { input: { participantId: string; sessionId: string; memberId: string; approve: boolean; by: string }; result: DecisionPayload };
  'leave-member': { input: { participantId: string; sessionId: string; memberId: string }; result: MemberPayload };
  'create-and-link-tags': { input: { participantId: string; names: string[] }; result: string[] };
  'ensure-tags': { input: { names: string[] }; result: string[] };
  'link-tags': { input: { participantId: string; tagIds: string[] }; result: string[] };
  /** Result: the new participant's user id (the route renders it from its own store). */
  'create-participant': { input: NewParticipant; result: string };
  /** Result: the new photo URL. */
  'set-photo': { input: { participantId: string; extension: string }; result: string };
  enrol: { input: { enrolment: Omit<EnrolmentRecord, 'id' | 'enrolledAt'> }; result: EnrolmentRecord };
  'record-response': { input: { participantId: string; cardId: string; values: JsonValue[] }; result: ActivityResponse };
  'delete-response': { input: { participantId: string; cardId: string }; result: null };
}

/** A command's name, e.g. `send-message`. */
export type CommandKind = keyof CommandMap;
/** One command of kind K: its name and its input. */
export type CommandOf<K extends CommandKind> = { kind: K } & CommandMap[K]['input'];
/** What a command of kind K answers. */
export type ResultOf<K extends CommandKind> = CommandMap[K]['result'];
/** Any command. */
export type Command = { [K in CommandKind]: CommandOf<K> }[CommandKind];

/** What an applier sees: the store, the command's timestamp, and where its events go. */
export interface ApplyContext {
  store: TargetStore;
  /** ISO 8601 time stamped once by the owner, so every replica stores the same value. */
  at: string;
  emit(event: HubEvent): void;
}

/**
 * Applies one kind of command. It must be deterministic given (store, input, at), and check
 * everything before it mutates anything: a command that throws changes nothing (under
 * `--workers`, a failed command is never replayed).
 */
export type Applier<K extends CommandKind> = (ctx: ApplyContext, command: CommandOf<K>) => ResultOf<K>;

/** One applier per command kind. */
export type Appliers = { [K in CommandKind]: Applier<K> };

/** Where routes send their mutations. */
export interface CommandBus {
  execute<K extends CommandKind>(command: CommandOf<K>): Promise<ResultOf<K>>;
}
