/**
 * The target's state: participants, chat sessions, tags and bearer tokens, all in memory.
 * Every mutation is synchronous and goes through a Command (commands/), so each operation is
 * atomic: two requests creating the same tag name cannot both win. Sequences (message, tag,
 * enrolment, photo numbers) advance only in command order, so replicas that apply the same
 * commands in the same order (`serve --workers N`) hold the same ids.
 */
import type { ChatSessionRecord, ParticipantRecord, Principal, TagRecord } from './store-types.js';

/** Zero-padded numeric id part, e.g. 1 → "000001". */
export const pad6 = (n: number): string => String(n).padStart(6, '0');

/** All records of one target, in memory. */
export class TargetStore {
  readonly participants = new Map<string, ParticipantRecord>();
  readonly sessions = new Map<string, ChatSessionRecord>();
  readonly tokens = new Map<string, Principal>();
  /** When each token stops being accepted (performance-free wall clock ms); empty unless tokens expire. */
  private readonly tokenExpiry = new Map<string, number>();
  /** How long a token is accepted after it is issued (`serve --token-ttl`); null: forever. */
  private tokenTtlMs: number | null = null;
  readonly tagsById = new Map<string, TagRecord>();
  private readonly tagsByName = new Map<string, TagRecord>();
  private messageSeq = 0;
  private tagSeq = 0;
  private enrolmentSeq = 0;
  private photoSeq = 0;

  constructor(readonly apiKey: string) {}

  addPrincipal(token: string, principal: Principal): void {
    this.tokens.set(token, principal);
    if (this.tokenTtlMs !== null) this.tokenExpiry.set(token, Date.now() + this.tokenTtlMs);
  }

  /** Makes every token, the ones held already included, expire `ttlMs` after now (or after it is issued). */
  expireTokensAfter(ttlMs: number): void {
    this.tokenTtlMs = ttlMs;
    const at = Date.now() + ttlMs;
    for (const token of this.tokens.keys()) this.tokenExpiry.set(token, at);
  }

  /** Who `token` stands for; `'expired'` once its time ran out; undefined when it was never issued. */
  principalOf(token: string): Principal | 'expired' | undefined {
    const principal = this.tokens.get(token);
    if (principal === undefined) return undefined;
    const expiresAt = this.tokenExpiry.get(token);
    return expiresAt !== undefined && Date.now() >= expiresAt ? 'expired' : principal;
  }

  /**
   * A new token for every principal that has one (the old ones stay valid until they expire),
   * keyed by user id; tokens expired for longer than one lifetime are forgotten, so a long soak
   * with a short TTL holds at most about two generations.
   */
  issueTokens(newToken: (principal: Principal) => string): Map<string, string> {
    const now = Date.now();
    const holders = new Map<string, Principal>();
    for (const [token, principal] of this.tokens) {
      const expiresAt = this.tokenExpiry.get(token);
      if (expiresAt !== undefined && now - expiresAt > (this.tokenTtlMs ?? 0)) {
        this.tokens.delete(token);
        this.tokenExpiry.delete(token);
      }
      holders.set(principal.userId, principal);
    }
    const issued = new Map<string, string>();
    for (const [userId, principal] of holders) {
      const token = newToken(principal);
      this.addPrincipal(token, principal);
      issued.set(userId, token);
    }
    return issued;
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

  /** The next chat message id (`m-000000001`, ...). */
  nextMessageId(): string {
    this.messageSeq += 1;
    return `m-${String(this.messageSeq).padStart(9, '0')}`;
  }

  /**
   * Creates the tag unless the name exists. Synchronous on purpose: it is the whole
   * concurrency story of the tag endpoints (exactly one creation per name).
   */
  ensureTag(name: string, createdAt: string): { tag: TagRecord; created: boolean } {
    const existing = this.tagsByName.get(name);
    if (existing) return { tag: existing, created: false };
    this.tagSeq += 1;
    const tag: TagRecord = { id: `t-${pad6(this.tagSeq)}`, name, createdAt };
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
