/**
 * SSE resume across a reconnect (docs/design.md §6): a stream reopened with `Last-Event-ID: L`
 * must continue at the event after L, each missed event exactly once. The target's ids are
 * per stream key and consecutive (docs/design.md §4.12), so the first id after a resume must
 * be L + 1 (a larger one lost the events between) and no id may be L or below (those arrived
 * before the drop: a repeat). Counted per resumed connection, for the `stream.resume` check.
 */
import type { SseStream } from '../../engine/sse-reader.js';
import type { MetricSet } from '../../metrics/metric-set.js';
import { CHAT } from '../../metrics/names.js';

interface Watched {
  /** The id the next event must carry to continue without a gap; NaN once the first has been judged. */
  expectFirst: number;
  resumedFrom: number;
}

const whole = (id: string | null): number => (id !== null && /^\d{1,15}$/.test(id) ? Number(id) : Number.NaN);

export class ResumeWatch {
  private readonly watched = new WeakMap<SseStream, Watched>();

  /** A stream opened with Last-Event-ID: watch its ids (a non-numeric id is not the reference shape: not judged). */
  onOpen(stream: SseStream, metrics: MetricSet): void {
    const from = whole(stream.resumedFrom);
    if (Number.isNaN(from)) return;
    metrics.inc(CHAT.resumes);
    this.watched.set(stream, { expectFirst: from + 1, resumedFrom: from });
  }

  /** Every event with an id on a watched stream; events before the first KEEP_ALIVE were replayed. */
  onEvent(stream: SseStream, id: string | undefined, metrics: MetricSet): void {
    const watch = this.watched.get(stream);
    if (!watch || id === undefined) return;
    const seq = whole(id);
    if (Number.isNaN(seq)) return;
    if (seq <= watch.resumedFrom) {
      metrics.inc(CHAT.resumeDuplicated);
      metrics.sample(CHAT.samples, `resumed after id ${watch.resumedFrom}, got id ${seq} again`);
      return;
    }
    if (!Number.isNaN(watch.expectFirst)) {
      if (seq > watch.expectFirst) {
        metrics.inc(CHAT.resumeLost, seq - watch.expectFirst);
        metrics.sample(CHAT.samples, `resumed after id ${watch.resumedFrom}, next id was ${seq}: ${seq - watch.expectFirst} events lost`);
      }
      watch.expectFirst = Number.NaN;
    }
    if (stream.keepAlives === 0) metrics.inc(CHAT.resumeRecovered);
  }
}
