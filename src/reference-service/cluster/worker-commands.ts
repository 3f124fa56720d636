/**
 * A worker's side of the command protocol: its CommandBus sends each mutation to the primary
 * and waits for the answer; `applyReplica` replays the primary's commands, in the primary's
 * order, on the worker's own copy of the store and delivers their events to its streams.
 */

import { HttpProblem } from '../http/problem.js';
import { applyCommand } from '../state/commands/apply-command.js';
import type { Command, CommandBus, CommandKind, CommandOf, ResultOf } from '../state/commands/command-types.js';
import type { TargetStore } from '../state/target-store.js';
import type { LocalEventDelivery } from '../streams/event-delivery.js';
import type { PrimaryMessage, WorkerMessage } from './cluster-messages.js';

type Reply = Extract<PrimaryMessage, { type: 'reply' }>;
type Apply = Extract<PrimaryMessage, { type: 'apply' }>;

interface Waiter {
  resolve(result: unknown): void;
  reject(error: unknown): void;
}

/** Sends commands to the primary (request/response by id over IPC). */
export class WorkerCommandBus implements CommandBus {
  private nextId = 1;
  private readonly waiting = new Map<number, Waiter>();

  constructor(private readonly send: (message: WorkerMessage) => void) {}

  execute<K extends CommandKind>(command: CommandOf<K>): Promise<ResultOf<K>> {
    const id = this.nextId++;
    return new Promise<ResultOf<K>>((resolve, reject) => {
      this.waiting.set(id, { resolve: (result) => resolve(result as ResultOf<K>), reject });
      this.send({ type: 'command', id, command: command as Command });
    });
  }

  /** The primary's answer to command `id`: its result, or the problem to answer with. */
  onReply(reply: Reply): void {
    const waiter = this.waiting.get(reply.id);
    if (!waiter) return;
    this.waiting.delete(reply.id);
    if (reply.ok) waiter.resolve(reply.result);
    else waiter.reject(new HttpProblem(reply.problem.status, reply.problem.slug, reply.problem.detail, reply.problem.headers));
  }

  /** Fails every request still waiting (shutdown). */
  failAll(): void {
    for (const waiter of this.waiting.values()) waiter.reject(new HttpProblem(503, 'internal-error', 'the target is shutting down'));
    this.waiting.clear();
  }
}

/**
 * Replays one command the primary applied. It cannot be refused here: the replica holds what
 * the primary held when it applied it (same seed, same commands, same order). If it is, the
 * replica has diverged and every answer this worker gives would be wrong: throw, so that the
 * worker dies loudly instead.
 */
export function applyReplica(store: TargetStore, delivery: LocalEventDelivery, message: Apply): WorkerMessage {
  let events: ReturnType<typeof applyCommand>['events'];
  try {
    events = applyCommand(store, message.command, message.at).events;
  } catch (error) {
    throw new Error(`replica diverged from the primary at command ${message.seq} (${message.command.kind}): ${(error as Error).message}`);
  }
  for (const event of events) delivery.publish(event);
  const canLeak = message.probeLeak !== null && delivery.canLeak(message.probeLeak);
  return { type: 'ack', seq: message.seq, canLeak };
}
