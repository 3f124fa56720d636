/** One sentence for a run an `abortOnFail` threshold stopped: the outcome line, HTML, Markdown and JUnit say the same. */
import type { AbortInfo } from '../contract/report.js';

const seconds = (sec: number): string => `${+sec.toFixed(1)} s`;

/** `threshold "…" failed at 14.2 s (observed 203.5 over the window 9.1 s–14.2 s); the load was stopped`. */
export function describeAbort(info: AbortInfo): string {
  const observed = info.observed === null ? 'no value' : `observed ${+info.observed.toFixed(3)}`;
  const over = info.window ? ` over the window ${seconds(info.window.fromSec)}–${seconds(info.window.toSec)}` : ' over the run so far';
  return `threshold "${info.expression}" failed at ${seconds(info.atSec)} (${observed}${over}); the load was stopped`;
}
