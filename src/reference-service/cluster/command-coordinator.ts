/**
 * The primary's side of the command protocol: the single owner of every mutation.
 *
 * A worker's command is applied to the primary's store first (so concurrent requests on
 * different workers are serialised: exactly one tag creation wins, one join per member, one
 * message id each). A refused command is answered at once and changes nothing. An accepted
 * one is numbered and sent to every worker, each replays it on its replica and delivers its
 * events to its own streams (the primary has none), then acks; when every live worker has
 * acked, the origin gets the answer. So an event reaches each stream exactly once, wherever
 * it is open, and a client that has its answer finds the change on every worker.
 */
import { redact } from '../../util/redact.js';
import { chance, type FaultSettings } from '../faults/faults.js';
import { HttpProblem } from '../http/problem.js';
import { type Applied, applyCommand } from '../state/commands/apply-command.js';
import type { Command } from '../state/commands/command-types.js';
import type { TargetStore } from '../state/target-store.js';
import type { HubEvent } from '../streams/stream-hub.js';
import type { PrimaryMessage, ProblemWire } from './cluster-messages.js';

/** How the coordinator reaches the workers. */
export interface WorkerLink {
  /** Indexes of the workers that are up (configured and not exited). */
  live(): number[];
  send(index: number, message: PrimaryMessage): void;
}

interface InFlight {
  origin: number;
  id: number;
  result: unknown;
  waiting: Set<number>;
  /** The event the `leak` fault chose, and the workers that can leak it. */
  leak: HubEvent | null;
  canLeak: number[];
}

function toWire(error: unknown): ProblemWire {
  if (error instanceof HttpProblem) return { status: error.status, slug: error.slug, detail: error.message, headers: error.headers };
  // A bug in the target: say so on stderr (redacted) rather than hide it in a 500.
  process.stderr.write(`coachbench target: internal error in the primary: ${redact(String((error as Error)?.stack ?? error))}\n`);
  return { status: 500, slug: 'internal-error', detail: 'the target failed to handle this request', headers: {} };
}

/** Applies, sequences and fans out the workers' commands. */
export class CommandCoordinator {
  private seq = 0;
  private readonly inFlight = new Map<number, InFlight>();
  // Commands wait here until every worker is up, so that none misses a replay.
  private held: Array<{ origin: number; id: number; command: Command }> | null = [];

  constructor(
    private readonly store: TargetStore,
    private readonly faults: FaultSettings,
    private readonly workers: WorkerLink,
  ) {}

  /** Every worker is configured: apply the commands that came early, in arrival order. */
  open(): void {
    const held = this.held ?? [];
    this.held = null;
    for (const { origin, id, command } of held) this.onCommand(origin, id, command);
  }

  onCommand(origin: number, id: number, command: Command): void {
    if (this.held) {
      this.held.push({ origin, id, command });
      return;
    }
    const at = new Date().toISOString();
    let applied: Applied<unknown>;
    try {
      applied = applyCommand(this.store, command, at);
    } catch (error) {
      this.workers.send(origin, { type: 'reply', id, ok: false, problem: toWire(error) });
      return;
    }
    const seq = ++this.seq;
    // Decided once per event here, not per worker (a command emits at most one event).
    const leak = applied.events.find(() => chance(this.faults.leak)) ?? null;
    const live = this.workers.live();
    const flight: InFlight = { origin, id, result: applied.result, waiting: new Set(live), leak, canLeak: [] };
    this.inFlight.set(seq, flight);
    for (const index of live) this.workers.send(index, { type: 'apply', seq, at, command, probeLeak: leak?.sessionId ?? null });
    if (flight.waiting.size === 0) this.finish(seq, flight);
  }

  onAck(worker: number, seq: number, canLeak: boolean): void {
    const flight = this.inFlight.get(seq);
    if (!flight || !flight.waiting.delete(worker)) return;
    if (canLeak) flight.canLeak.push(worker);
    if (flight.waiting.size === 0) this.finish(seq, flight);
  }

  /** A worker is gone: stop waiting for its acks. */
  retire(worker: number): void {
    for (const [seq, flight] of [...this.inFlight]) {
      flight.canLeak = flight.canLeak.filter((w) => w !== worker);
      if (flight.waiting.delete(worker) && flight.waiting.size === 0) this.finish(seq, flight);
    }
  }

  private finish(seq: number, flight: InFlight): void {
    this.inFlight.delete(seq);
    // One copy, to one chat stream of another session somewhere, as in a single process.
    if (flight.leak && flight.canLeak.length > 0) {
      const victim = flight.canLeak[Math.floor(Math.random() * flight.canLeak.length)] as number;
      this.workers.send(victim, { type: 'leak', sessionId: flight.leak.sessionId, frame: flight.leak.frame });
    }
    if (this.workers.live().includes(flight.origin)) this.workers.send(flight.origin, { type: 'reply', id: flight.id, ok: true, result: flight.result });
  }
}
