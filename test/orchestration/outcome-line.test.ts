/**
 * A run that cannot give its core checks evidence is INCOMPLETE, not PASS: against the
 * embedded target, a 2 s run with a 1.5 s KEEP_ALIVE sees every first KEEP_ALIVE on time
 * but never a gap between two, and no stream outlives the 3 s stall window. In-process for
 * the report and its closing lines; through bin/coachbench.js (dist/) for the exit code.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { describeOutcome } from '../../src/orchestration/outcome-line.js';
import { runBin } from '../support/bin-helpers.js';
import { quickProfile, writeProfile } from '../support/profiles.js';
import { runProfile, statusOf } from '../support/run-helpers.js';
import { readRunReport } from '../support/run-report.js';

/** Streams only, no messages: the core checks are stream.open, the cadence and stalls. */
const tooShortProfile = (): Record<string, unknown> =>
  quickProfile({
    duration: '2s',
    target: { keepAlive: '1500ms', participants: 30, sessionsPerParticipant: 2 },
    chatStreams: { participants: 12, rampPerSec: 200, switchEvery: '0s', messageRatePerSec: 0, churnRatePerSec: 0 },
  });

describe('an incomplete run', () => {
  it('has verdict incomplete, exits 1 and says which core checks have no evidence', async () => {
    const outcome = await runProfile(tooShortProfile());
    const { report, exitCode } = outcome;
    const status = statusOf(report);
    expect(status['stream.open']).toBe('pass');
    expect(status['stream.keepalive.cadence']).toBe('skip');
    expect(status['stream.stall']).toBe('skip');
    expect(report.scenarios.chatStreams!.firstKeepAliveMs.count).toBeGreaterThan(0);
    expect(report.coreChecks).toEqual(['stream.open', 'stream.keepalive.cadence', 'stream.stall', 'load.achieved']);
    // The streams were held as planned: the load check has its evidence even in 2 s.
    expect(status['load.achieved']).toBe('pass');
    expect(report.verdict).toBe('incomplete');
    expect(exitCode).toBe(1);

    const lines = describeOutcome(outcome).split('\n');
    expect(lines[0]).toMatch(
      /^INCOMPLETE: no evidence for stream\.keepalive\.cadence, stream\.stall; \d+ checks passed, 0 failed, \d+ skipped; 0\/0 thresholds held$/,
    );
    expect(lines[1]).toMatch(/^ {2}\? stream\.keepalive\.cadence: no gap between two KEEP_ALIVEs on one stream/);
    expect(lines[2]).toMatch(/^ {2}\? stream\.stall: no stream stayed open longer than the 3000 ms stall window$/);
  });

  it('bin/coachbench.js prints INCOMPLETE and exits 1', async () => {
    const { path, dir } = await writeProfile(tooShortProfile());
    const out = join(dir, 'bin-report');
    const { code, stderr } = await runBin(['run', '--profile', path, '--out', out]);
    expect(stderr).toMatch(/^INCOMPLETE: no evidence for stream\.keepalive\.cadence, stream\.stall;/m);
    expect(code, stderr).toBe(1);
    const report = await readRunReport(out);
    expect(report.verdict).toBe('incomplete');
    expect(await readFile(join(out, 'summary.md'), 'utf8')).toMatch(/^## ⚠️ coachbench INCOMPLETE: test-quick/);
  });
});
