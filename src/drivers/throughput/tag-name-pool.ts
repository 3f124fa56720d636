/**
 * Tag names for create-and-link: new names carry a run-unique prefix and a counter, so no
 * earlier run (or other shard) has made them; a name counts as existing only once the
 * target has answered the request that created it, so "existing" is never a guess.
 */
import { randomBytes } from 'node:crypto';

/** The names of one create-and-link request. */
export interface TagPick {
  /** In request order: existing names first, then new ones. */
  names: string[];
  newNames: string[];
  existing: string[];
}

/** A prefix unique to this process's run: time plus randomness (shards and workers differ too). */
export function runTagPrefix(): string {
  return `cb-${Date.now().toString(36)}-${randomBytes(3).toString('hex')}`;
}

/** New names with a run-unique prefix, and the confirmed ones to send again as existing. */
export class TagNamePool {
  private created = 0;
  /** Confirmed names, a ring of the most recent: old names stay existing; a sample of them is enough. */
  private readonly confirmed: string[] = [];
  private ringAt = 0;
  private cursor = 0;
  private carry = 0;

  constructor(
    readonly prefix: string,
    private readonly capacity = 10_000,
  ) {}

  /** Names for one request: `count` names, of which the `existingShare` (carried over requests) already exist. */
  pick(count: number, existingShare: number): TagPick {
    const wanted = count * existingShare + this.carry;
    let existingCount = Math.min(count, Math.floor(wanted + 1e-9));
    this.carry = wanted - existingCount;
    existingCount = Math.min(existingCount, this.confirmed.length);
    const existing: string[] = [];
    for (let i = 0; i < existingCount; i++) {
      existing.push(this.confirmed[this.cursor % this.confirmed.length] as string);
      this.cursor = (this.cursor + 1) % this.confirmed.length;
    }
    const newNames: string[] = [];
    for (let i = existingCount; i < count; i++) newNames.push(`${this.prefix}-${this.created++}`);
    return { names: [...existing, ...newNames], newNames, existing };
  }

  /** The target answered the request that created these names; from now on they exist. */
  confirm(names: readonly string[]): void {
    for (const name of names) {
      if (this.confirmed.length < this.capacity) this.confirmed.push(name);
      else {
        this.confirmed[this.ringAt] = name;
        this.ringAt = (this.ringAt + 1) % this.capacity;
      }
    }
  }

  get confirmedCount(): number {
    return this.confirmed.length;
  }
}
