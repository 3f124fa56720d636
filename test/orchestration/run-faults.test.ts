/**
 * Each stream check passes on a healthy reference target and fails under its matching
 * fault, with every other stream check still passing (issue 3, "Done means").
 */
import { describe, expect, it } from 'vitest';
import { CHECK_IDS } from '../../src/contract/check-ids.js';
import { quickProfile, TIMING_SLACK } from '../support/profiles.js';
import { failures, runProfile, statusOf } from '../support/run-helpers.js';

const STREAM_CHECKS = CHECK_IDS.filter((id) => id.startsWith('stream.'));

describe('run against the embedded target', () => {
  it('passes every stream check and generator.healthy on a healthy target', async () => {
    const { report, exitCode } = await runProfile(quickProfile());
    expect(failures(report)).toEqual([]);
    const status = statusOf(report);
    for (const id of [...STREAM_CHECKS, 'generator.healthy'].filter((id) => id !== 'stream.resume')) expect(status[id], id).toBe('pass');
    // Nothing was dropped, so nothing had to be resumed: no evidence, said as such (test/orchestration/resume-run.test.ts has both sides).
    expect(report.checks.find((check) => check.id === 'stream.resume')).toMatchObject({ status: 'skip', detail: 'no stream was dropped and reconnected' });
    expect(exitCode).toBe(0);
    const chat = report.scenarios.chatStreams!;
    expect(chat.deliveriesReceived).toBeGreaterThan(40);
    expect(chat.keepAliveGapMs.count).toBeGreaterThan(60);
    expect(chat.switches).toBeGreaterThan(10);
    expect(chat.events.CHAT_SESSION_MEMBER_JOINED ?? 0).toBeGreaterThan(0);
    // Cadence is measured, not assumed: the gap distribution centres on the target's interval.
    expect(chat.keepAliveGapMs.p50).toBeGreaterThan(480);
    expect(chat.keepAliveGapMs.p50).toBeLessThan(520);
  });

  it.each([
    ['keepalive-drift=100', 'stream.keepalive.cadence'],
    ['stall=50', 'stream.stall'],
    ['drop=100', 'stream.open'],
    ['duplicate=100', 'stream.message.delivery'],
    ['leak=100', 'stream.session.isolation'],
    ['bad-json=20', 'stream.event.schema'],
    // Half the message posts answered 500: the messages the target refused fail delivery, though the rest arrived.
    ['error-rate=50 on POST /participants/{user_id}/chat_messages', 'stream.message.delivery'],
  ])('fault %s fails %s and only it', async (fault, failing) => {
    // Only the drift fault's row is about the cadence: the others judge their own check, and
    // the cadence gets the slack of runs not about timing (a loaded machine's late reads).
    const slack = failing === 'stream.keepalive.cadence' ? {} : TIMING_SLACK;
    const { report, exitCode } = await runProfile(
      quickProfile({ target: { keepAlive: '500ms', participants: 30, sessionsPerParticipant: 2, faults: [fault] }, ...slack }),
    );
    const status = statusOf(report);
    expect(status[failing]).toBe('fail');
    const othersFailing = STREAM_CHECKS.filter((id) => id !== failing && status[id] === 'fail');
    expect(othersFailing, failures(report).join('\n')).toEqual([]);
    expect(exitCode).toBe(1);
    expect(report.verdict).toBe('fail');
    expect(report.target.faults).toEqual([fault]);
  });
});
