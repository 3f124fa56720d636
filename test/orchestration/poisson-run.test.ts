/**
 * A Poisson run through `coachbench run`'s pipeline with two driver workers (docs/design.md §6):
 * each worker draws its own stream of `--seed`, and the run counts exactly the arrivals the
 * seed plans for each worker's share.
 */
import { describe, expect, it } from 'vitest';
import { scaleStages } from '../../src/contract/profile/stage-plan.js';
import { schedulePacer } from '../../src/engine/arrival-pacer.js';
import { CHAT } from '../../src/metrics/names.js';
import { quickProfile } from '../support/profiles.js';
import { runProfile } from '../support/run-helpers.js';

describe('Poisson arrivals in a run with two workers', () => {
  it('plans each worker’s share from its own stream of --seed and reports the arrival processes', async () => {
    // The verdict is not this test's: on a loaded machine generator.healthy may fail, the schedule may not.
    const { report } = await runProfile(
      quickProfile({
        duration: undefined,
        chatStreams: { participants: 12, rampPerSec: 200, switchEvery: '0s', messageRatePerSec: 20, messageArrivals: 'poisson', churnRatePerSec: 0 },
        tagLink: {
          enabled: true,
          arrivals: 'poisson',
          stages: [
            { duration: 0, target: 60 },
            { duration: '3500ms', target: 'hold' },
          ],
        },
      }),
      { workers: 2, seed: '11' },
    );
    expect(report.profile.seed).toBe(11);
    expect(report.plan?.arrivals).toEqual({
      seed: 11,
      schedules: [
        { workload: 'tagLink', process: 'poisson' },
        { workload: 'chatMessages', process: 'poisson' },
      ],
    });
    // Each worker drives half the rate from stream 0 or 1 of seed 11.
    const stages = scaleStages(
      [
        { name: 'step', named: false, startMs: 0, endMs: 0, from: 0, to: 60 },
        { name: 'hold', named: false, startMs: 0, endMs: 3_500, from: 60, to: 60 },
      ],
      1 / 2,
    );
    const planned = (stream: number): number =>
      schedulePacer({ arrivals: 'poisson', stages, startRatePerSec: 30, endRatePerSec: 30, durationMs: 3_500 }, { seed: 11, stream, workload: 'tagLink' })
        .totalSlots;
    const counters = report.metrics.counters;
    expect(counters['tagLink.scheduledSlots']).toBe(planned(0) + planned(1));
    expect(planned(0)).not.toBe(planned(1));
    const tags = report.scenarios.tagLink!;
    expect(counters['tagLink.scheduledSlots']! - (tags.requests + tags.droppedSlots)).toBeLessThanOrEqual(2);
    expect(tags.latencyMs.count).toBe(tags.requests);
    // The injector's planned posts are counted too: what an achieved message rate is judged against.
    const chat = report.scenarios.chatStreams!;
    const scheduledPosts = counters[CHAT.messagesScheduledSlots] ?? 0;
    expect(scheduledPosts).toBeGreaterThan(20);
    expect(scheduledPosts - (chat.messagesSent + chat.messagesFailed + chat.messagesDroppedSlots)).toBeGreaterThanOrEqual(0);
    expect(scheduledPosts - (chat.messagesSent + chat.messagesFailed + chat.messagesDroppedSlots)).toBeLessThanOrEqual(4);
  });
});
