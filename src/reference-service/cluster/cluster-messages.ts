/**
 * The primary ↔ worker protocol of a multi-worker target (node:cluster IPC, JSON). Each IPC
 * channel is FIFO, which the design relies on: a worker receives a command's `apply` before
 * the `reply` to the request that caused it.
 */
import type { Command } from '../state/commands/command-types.js';
import type { SparseLateness } from '../streams/lateness-histogram.js';
import type { TargetConfig } from '../target-config.js';
import type { TargetStats } from '../target-types.js';

/** A refused command, as the worker rethrows it (HttpProblem fields). */
export interface ProblemWire {
  status: number;
  slug: string;
  detail: string;
  headers: Record<string, string>;
}

/** What a worker reports about itself. */
export interface WorkerSnapshot {
  stats: Omit<TargetStats, 'perWorker' | 'keepAliveLateMs'>;
  lateness: SparseLateness;
  /** The `reset-lateness` epoch `lateness` belongs to (0 before any reset). */
  latenessEpoch: number;
  rssBytes: number;
  cpuMs: number;
}

/** Primary → worker. */
export type PrimaryMessage =
  /** Seed (with the primary's `createdAt`) and listen on `config.port`. */
  | { type: 'configure'; config: TargetConfig; index: number; createdAt: string }
  /**
   * Replay `command` (applied by the primary as number `seq`) and deliver its events; then
   * `ack`. `probeLeak`: the session of an event the `leak` fault chose, or null.
   */
  | { type: 'apply'; seq: number; at: string; command: Command; probeLeak: string | null }
  /** The `leak` fault chose this worker to write a copy of the event to another session's stream. */
  | { type: 'leak'; sessionId: string; frame: string }
  | { type: 'reply'; id: number; ok: true; result: unknown }
  | { type: 'reply'; id: number; ok: false; problem: ProblemWire }
  | { type: 'collect-stats'; id: number }
  /** Start a new KEEP_ALIVE lateness window; snapshots carry the epoch they belong to. */
  | { type: 'reset-lateness'; epoch: number }
  /** Close every stream and the server, send a last snapshot, exit 0. */
  | { type: 'shutdown' };

/** Worker → primary. */
export type WorkerMessage =
  /** The worker listens for messages now (sent before anything else; `configure` answers it). */
  | { type: 'hello' }
  | { type: 'ready'; fdLimit: number | null }
  | { type: 'start-failed'; message: string }
  | { type: 'command'; id: number; command: Command }
  /** `canLeak` (only when asked by `probeLeak`): this worker holds a chat stream of another session. */
  | { type: 'ack'; seq: number; canLeak: boolean }
  /** Pushed every 100 ms, answered to `collect-stats` (with its id), and sent once at shutdown. */
  | { type: 'snapshot'; id: number | null; snapshot: WorkerSnapshot };
