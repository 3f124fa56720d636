/**
 * The closing lines of `run` and `merge` (describeOutcome) and the stdout fallback
 * (renderChecksText) escape every field a target, a profile or a report file wrote: a check
 * detail, a threshold, the runId, the profile name, the folder. Nothing in them can move
 * the cursor or start a line of its own (docs/design.md §2.10).
 */
import { describe, expect, it } from 'vitest';
import { describeOutcome } from '../../src/orchestration/outcome-line.js';
import { renderChecksText } from '../../src/report/render-checks-text.js';
import { makeReport } from '../support/make-report.js';

const HOSTILE = '\u001b[2J\u0007\rPASS: forged\n\u202eevil\u2066\u009b31m';
const SHOWN = '\\x1b[2J\\x07\\x0dPASS: forged\\x0a\\u{202e}evil\\u{2066}\\x9b31m';
// biome-ignore lint/suspicious/noControlCharactersInRegex: the controls are what must be absent.
const RAW_CONTROL = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/u;

const hostileReport = () => {
  const report = makeReport({ hostile: HOSTILE, failChecks: ['stream.stall'] });
  return {
    ...report,
    runId: `run${HOSTILE}`,
    profile: { ...report.profile, name: `name${HOSTILE}` },
    thresholds: [{ expression: `chatStreams.eventLatencyMs.p99 < 5ms${HOSTILE}`, status: 'fail' as const, observed: 9 }],
  };
};

describe('hostile report fields on a terminal', () => {
  it('describeOutcome shows each as escaped text on its own line', () => {
    const text = describeOutcome({ report: hostileReport(), outDir: `out${HOSTILE}`, exitCode: 1 });
    expect(text).not.toMatch(RAW_CONTROL);
    const lines = text.split('\n');
    expect(lines.filter((line) => line.startsWith('PASS'))).toEqual([]);
    expect(lines.find((line) => line.startsWith('  ✗ stream.stall:'))).toContain(SHOWN);
    expect(lines.find((line) => line.startsWith('  ✗ chatStreams.'))).toContain(SHOWN);
    expect(lines.at(-1)).toBe(`report: out${SHOWN}/report.json`);
  });

  it('renderChecksText shows each as escaped text, the table unbroken', () => {
    const text = renderChecksText(hostileReport());
    expect(text).not.toMatch(RAW_CONTROL);
    const lines = text.split('\n');
    expect(lines[0]).toContain(`run run${SHOWN} (name${SHOWN},`);
    expect(lines.filter((line) => line.startsWith('PASS'))).toEqual([]);
    expect(lines.find((line) => line.startsWith('fail') && line.includes('stream.stall'))).toContain(SHOWN);
  });
});
