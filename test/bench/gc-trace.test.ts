import { describe, expect, it } from 'vitest';
import { gcSummary } from '../../bench/lib/gc-trace.js';

/** One `--trace-gc-nvp` line of isolate `isolate` at `atMs` (the fields gcSummary reads). */
const line = (isolate: string, atMs: number, pauseMs: number, kind: 's' | 'mc'): string =>
  `[4242:${isolate}:0] ${atMs.toFixed(3)} ms: pause=${pauseMs} mutator=1.0 gc=${kind} reduce_memory=0 promoted=1048576 end_object_size=2097152`;

const MAIN = '0x5581a0';
const WORKER = '0x7f00b0';

describe('gcSummary', () => {
  const output = [
    line(MAIN, 10, 0.5, 's'), // start-up: before fromMs
    line(WORKER, 120, 0.7, 's'), // the request thread collects first once fromMs has passed
    line(MAIN, 150, 2, 's'),
    line(MAIN, 1_150, 12, 'mc'),
  ].join('\n');

  it('names the isolate that collected first in the whole output "main", whatever fromMs drops', () => {
    const summary = gcSummary(output, { fromMs: 100 });
    expect(summary.map((each) => [each.isolate, each.scavenges, each.markCompacts])).toEqual([
      ['main', 1, 1],
      ['thread 1', 1, 0],
    ]);
    expect(summary[0]?.pausesOver10Ms).toBe(1);
    expect(summary[0]?.markCompactList).toEqual([{ atMs: 1_150, pauseMs: 12, backgroundMarkMs: 0, liveMiB: 2 }]);
  });

  it('leaves out an isolate with no collection after fromMs', () => {
    expect(gcSummary(output, { fromMs: 130 }).map((each) => each.isolate)).toEqual(['main']);
  });
});
