/**
 * Session switches arrive at the steady rate from the start (docs/design.md §6, "Session
 * switches"): a participant's first stay in a session is a uniform part of one switchEvery,
 * later stays one period ±10%.
 */
import { describe, expect, it } from 'vitest';
import { switchFraction } from '../../../src/drivers/chat/virtual-participant.js';
import { quickProfile, TIMING_SLACK } from '../../support/profiles.js';
import { failures, runProfile } from '../../support/run-helpers.js';

describe('session switches', () => {
  it('spread the first stay over the whole period and keep later stays within ±10%', () => {
    const first = Array.from({ length: 4000 }, () => switchFraction(true));
    const later = Array.from({ length: 4000 }, () => switchFraction(false));
    // Every tenth of the period gets its share of first switches (400 expected, 4.7 sigma at 300).
    for (let tenth = 0; tenth < 10; tenth++) {
      expect(first.filter((f) => f >= tenth / 10 && f < (tenth + 1) / 10).length, `tenth ${tenth}`).toBeGreaterThan(300);
    }
    expect(Math.min(...later)).toBeGreaterThanOrEqual(0.9);
    expect(Math.max(...later)).toBeLessThan(1.1);
    expect(switchFraction(true, () => 0.25)).toBe(0.25);
    expect(switchFraction(false, () => 0.5)).toBe(1);
  });

  it('begin within the first period of a run, not one period after the ramp', async () => {
    // 40 participants, a 6 s period, 4 s of run: each first stay ends inside the run with
    // probability ~0.6, so about 25 switch (5 or fewer: ~1e-10); with a full first period none
    // could. The run's timing is not the subject: a loaded machine's late reads fail no check.
    const { report } = await runProfile(
      quickProfile({
        ...TIMING_SLACK,
        duration: '4s',
        chatStreams: { participants: 40, rampPerSec: 400, switchEvery: '6s', messageRatePerSec: 10, churnRatePerSec: 0 },
        target: { keepAlive: '500ms', participants: 40, sessionsPerParticipant: 2 },
      }),
    );
    expect(failures(report)).toEqual([]);
    const switches = report.scenarios.chatStreams!.switches;
    expect(switches).toBeGreaterThan(5);
    // A second stay lasts at least 5.4 s: nobody switched twice.
    expect(switches).toBeLessThanOrEqual(40);
  });
});
