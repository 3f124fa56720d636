/**
 * `serve --log-traces FILE` (docs/target.md "Trace log"): one JSON line per request that
 * arrived with a valid W3C traceparent, appended when its answer ends, so a test or a reader
 * can join a report's slowest trace ids with what the target saw. Workers of a multi-worker
 * target append to the same file: each line is one write to a file opened for appending.
 */
import { createWriteStream, type WriteStream } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { performance } from 'node:perf_hooks';
import { cannotWriteLine } from '../../util/system-error.js';
import { parseTraceparent } from '../../util/traceparent.js';

/** One line of the trace log. */
export interface TraceLogLine {
  /** When the answer ended (ISO 8601). */
  time: string;
  traceId: string;
  parentId: string;
  sampled: boolean;
  method: string;
  /** The path without its query (a query may carry tokens). */
  path: string;
  status: number;
  /** From the request's arrival until its answer is handed to the socket; a stream's is its whole life. */
  handlingMs: number;
}

export class TraceLog {
  private readonly out: WriteStream;
  // When each watched request's answer was handed to the socket (performance.now()).
  private readonly answeredMs = new WeakMap<ServerResponse, number>();
  private readonly watched = new WeakSet<ServerResponse>();

  constructor(path: string) {
    this.out = createWriteStream(path, { flags: 'a' });
    // A full disk must not take the target down: the log is a witness, not the service.
    this.out.on('error', (error) => process.stderr.write(`coachbench target: ${cannotWriteLine('--log-traces', path, error)}\n`));
  }

  /** Watches one request: a line when its answer ends, if it carried a valid traceparent. */
  watch(req: IncomingMessage, res: ServerResponse, path: string): void {
    const header = req.headers.traceparent;
    const parsed = parseTraceparent(Array.isArray(header) ? header[0] : header);
    if (parsed === null) return;
    const startMs = performance.now();
    this.watched.add(res);
    res.once('close', () => {
      const endMs = this.answeredMs.get(res) ?? performance.now();
      const line: TraceLogLine = {
        time: new Date().toISOString(),
        traceId: parsed.traceId,
        parentId: parsed.parentId,
        sampled: parsed.sampled,
        method: req.method ?? 'GET',
        path,
        status: res.statusCode,
        handlingMs: Math.round((endMs - startMs) * 1_000) / 1_000,
      };
      this.out.write(`${JSON.stringify(line)}\n`);
    });
  }

  /**
   * Stops the clock of `res`'s request as its answer is about to be written. Read after the
   * write, the clock would race the client's: a target descheduled between its write and its
   * clock read would log more time than the client measured for the whole exchange.
   */
  answering(res: ServerResponse): void {
    if (this.watched.has(res) && !this.answeredMs.has(res)) this.answeredMs.set(res, performance.now());
  }

  /** Flushes and closes the file. */
  close(): Promise<void> {
    return new Promise((resolve) => this.out.end(resolve));
  }
}
