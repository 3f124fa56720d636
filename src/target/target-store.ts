/**
 * The target's state: participants, chat sessions, tags and bearer tokens, all in memory.
 * Every mutation is synchronous, so in one process each operation is atomic: two requests
 * creating the same tag name cannot both win.
 */
import {
  MESSAGE_HISTORY_CAP,
  type ChatMessage,
  type ChatSessionRecord,
  type ParticipantRecord,
  type Principal,
  type TagRecord,
} from './store-types.js';

/** Zero-padded numeric id part, e.g. 1 → "000001". */
export const pad6 = (n: number): string => String(n).padStart(6, '0');

/** All records of one target, in memory. */
export class TargetStore {
  readonly participants = new Map<string, ParticipantRecord>();
  readonly sessions = new Map<string, ChatSessionRecord>();
  readonly tokens = new Map<string, Principal>();
  readonly tagsById = new Map<string, TagRecord>();
  private readonly tagsByName = new Map<string, TagRecord>();
  private messageSeq = 0;
  private tagSeq = 0;
  private enrolmentSeq = 0;
  private photoSeq = 0;

  constructor(readonly apiKey: string) {}

  addPrincipal(token: string, principal: Principal): void {
    this.tokens.set(token, principal);
  }

  addParticipant(record: ParticipantRecord): void {
    this.participants.set(record.userId, record);
  }

  addSession(record: ChatSessionRecord): void {
    this.sessions.set(record.id, record);
    this.participants.get(record.participantId)?.sessionIds.push(record.id);
  }

  /** The next free participant number (participants created by POST /participants). */
  nextParticipantNumber(): number {
    return this.participants.size + 1;
  }

  /** The session if it exists and belongs to `participantId`, else undefined. */
  sessionOf(participantId: string, sessionId: string): ChatSessionRecord | undefined {
    const session = this.sessions.get(sessionId);
    return session && session.participantId === participantId ? session : undefined;
  }

  /** Stores a new message (oldest dropped past the cap) and returns it. */
  addMessage(session: ChatSessionRecord, sender: Principal, text: string): ChatMessage {
    this.messageSeq += 1;
    const message: ChatMessage = {
      id: `m-${String(this.messageSeq).padStart(9, '0')}`,
      chatSessionId: session.id,
      senderId: sender.userId,
      senderType: sender.role,
      text,
      sentAt: new Date().toISOString(),
    };
    session.messages.push(message);
    if (session.messages.length > MESSAGE_HISTORY_CAP) session.messages.shift();
    return message;
  }

  /**
   * Creates the tag unless the name exists. Synchronous on purpose: it is the whole
   * concurrency story of the tag endpoints (exactly one creation per name).
   */
  ensureTag(name: string): { tag: TagRecord; created: boolean } {
    const existing = this.tagsByName.get(name);
    if (existing) return { tag: existing, created: false };
    this.tagSeq += 1;
    const tag: TagRecord = { id: `t-${pad6(this.tagSeq)}`, name, createdAt: new Date().toISOString() };
    this.tagsByName.set(name, tag);
    this.tagsById.set(tag.id, tag);
    return { tag, created: true };
  }

  nextEnrolmentId(): string {
    this.enrolmentSeq += 1;
    return `e-${pad6(this.enrolmentSeq)}`;
  }

  /** A fresh URL for an uploaded photo (the target keeps no image bytes). */
  nextPhotoUrl(userId: string, extension: string): string {
    this.photoSeq += 1;
    return `https://photos.coachbench.invalid/${userId}/${this.photoSeq}.${extension}`;
  }
}
