/**
 * The primary's worker processes: forks them with node:cluster (all listen on one port; the
 * primary accepts and hands connections out round-robin), configures them, waits until all
 * listen, forwards their messages, notices deaths, and shuts them down.
 */
import cluster, { type Worker } from 'node:cluster';
import { StartError } from '../../util/errors.js';
import type { TargetConfig } from '../target-config.js';
import type { TargetWorker } from '../target-types.js';
import type { PrimaryMessage, WorkerMessage } from './cluster-messages.js';
import type { WorkerLink } from './command-coordinator.js';

/** What the group reports to the target. */
export interface GroupEvents {
  /** Any message except the start-up handshake. */
  onMessage(index: number, pid: number, message: WorkerMessage): void;
  /** Every exit (after start-up), expected or not. */
  onExit(index: number): void;
  /** An exit the primary did not ask for. */
  onDeath(index: number, pid: number, reason: string): void;
}

interface Member {
  index: number;
  worker: Worker;
  pid: number;
  fdLimit: number | null;
  alive: boolean;
  exited: Promise<void>;
}

/** How long a worker may take to exit after 'shutdown' before it is killed. */
const SHUTDOWN_GRACE_MS = 5_000;

/** The N workers of one target, as the primary sees them (indexes 1..N). */
export class WorkerGroup implements WorkerLink {
  private readonly members: Member[] = [];
  private stopping = false;
  private started = false;

  constructor(
    private readonly entry: string,
    private readonly config: TargetConfig,
    private readonly createdAt: string,
    private readonly events: GroupEvents,
  ) {}

  /** Forks and configures every worker; resolves once all listen. StartError otherwise (all stopped). */
  start(timeoutMs: number): Promise<void> {
    // Workers run compiled JS: none of this process's flags (a test runner's loaders) apply.
    cluster.setupPrimary({ exec: this.entry, args: [], execArgv: [], silent: false });
    return new Promise<void>((resolve, reject) => {
      let ready = 0;
      let settled = false;
      const fail = (why: string): void => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        void this.shutdown().then(() => reject(new StartError(why)));
      };
      const timer = setTimeout(() => fail(`the target workers did not start within ${timeoutMs / 1000}s`), timeoutMs);
      for (let index = 1; index <= this.config.workers; index += 1) {
        const member = this.fork(index, {
          onReady: () => {
            ready += 1;
            if (ready < this.config.workers || settled) return;
            settled = true;
            this.started = true;
            clearTimeout(timer);
            resolve();
          },
          onStartFailure: (why) => fail(`target worker ${index}: ${why}`),
        });
        this.members.push(member);
      }
    });
  }

  live(): number[] {
    return this.members.filter((m) => m.alive).map((m) => m.index);
  }

  send(index: number, message: PrimaryMessage): void {
    const member = this.members[index - 1];
    if (member?.alive && member.worker.isConnected()) member.worker.send(message);
  }

  list(): TargetWorker[] {
    return this.members.map(({ index, pid, fdLimit }) => ({ index, pid, fdLimit }));
  }

  /** Asks every worker to close and exit; kills those still there after the grace period. */
  async shutdown(): Promise<void> {
    this.stopping = true;
    for (const member of this.members) this.send(member.index, { type: 'shutdown' });
    const all = Promise.all(this.members.map((m) => m.exited));
    let timer: NodeJS.Timeout | undefined;
    const grace = new Promise<'late'>((resolve) => {
      timer = setTimeout(() => resolve('late'), SHUTDOWN_GRACE_MS);
    });
    if ((await Promise.race([all, grace])) === 'late') for (const m of this.members) if (m.alive) m.worker.process.kill('SIGKILL');
    clearTimeout(timer);
    await all;
  }

  private fork(index: number, start: { onReady(): void; onStartFailure(why: string): void }): Member {
    const worker = cluster.fork();
    const exited = Promise.withResolvers<void>();
    const member: Member = {
      index,
      worker,
      pid: worker.process.pid ?? 0,
      fdLimit: null,
      alive: true,
      exited: exited.promise,
    };
    // A send to a worker that just died fails with EPIPE; its 'exit' tells the story.
    worker.on('error', () => undefined);
    worker.on('message', (message: WorkerMessage) => {
      if (message.type === 'hello') worker.send({ type: 'configure', config: this.config, index, createdAt: this.createdAt } satisfies PrimaryMessage);
      else if (message.type === 'ready') {
        member.fdLimit = message.fdLimit;
        start.onReady();
      } else if (message.type === 'start-failed') start.onStartFailure(message.message);
      else this.events.onMessage(index, member.pid, message);
    });
    worker.on('exit', (code, signal) => {
      member.alive = false;
      exited.resolve();
      const reason = signal ? `signal ${signal}` : `exit code ${code}`;
      if (!this.started) start.onStartFailure(`exited during start-up (${reason})`);
      else {
        this.events.onExit(index);
        if (!this.stopping) this.events.onDeath(index, member.pid, reason);
      }
    });
    return member;
  }
}
