/**
 * Every number of a profile has a maximum (docs/design.md §2.5): a profile that asks for a
 * load, size or time no run could honour is refused with one line naming the file and the
 * field, before anything starts. Before, stages summing to 14 days ran past the 7-day cap,
 * `ratePerSec: 1e9` made a 4 s run never end and `participants: 1e400` (Infinity) validated.
 */
import { readFileSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadProfile } from '../../src/contract/profile/load-profile.js';
import {
  MAX_FRAME_BYTES_LIMIT,
  MAX_IMAGE_BYTES,
  MAX_MESSAGE_RATE_PER_SEC,
  MAX_PARTICIPANTS,
  MAX_REQUEST_RATE_PER_SEC,
} from '../../src/contract/profile/profile-limits.js';
import { parseThresholds } from '../../src/metrics/thresholds.js';
import { ConfigError } from '../../src/util/errors.js';
import { runBin } from '../support/bin-helpers.js';
import { loadProfileText } from '../support/profile-text.js';

let dir = '';
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'coachbench-profile-limits-'));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

function refusal(data: Record<string, unknown>): string {
  try {
    loadProfileText({ name: 'limits', ...data }, 'limits.json');
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    const message = (error as Error).message;
    expect(message.split('\n')).toHaveLength(1);
    expect(message).toContain('limits.json');
    return message;
  }
  throw new Error(`accepted: ${JSON.stringify(data)}`);
}

const week = 7 * 86_400_000;

describe('profile numbers have maxima', () => {
  it.each([
    ['participants 1e308', { chatStreams: { participants: 1e308 } }, '/chatStreams/participants must be <= 1000000'],
    ['participants Infinity (1e400 in the file)', { chatStreams: { participants: Number.POSITIVE_INFINITY } }, '/chatStreams/participants must be <= 1000000'],
    ['target participants', { target: { participants: 2_000_000 } }, '/target/participants must be <= 1000000'],
    ['sessions per participant', { target: { sessionsPerParticipant: 5_000 } }, '/target/sessionsPerParticipant must be <= 1000'],
    ['a negative seed', { target: { seed: -1 } }, '/target/seed must be >= 0'],
    ['a seed beyond 32 bits', { target: { seed: 2 ** 40 } }, '/target/seed must be <= 4294967295'],
    ['ramp rate', { chatStreams: { rampPerSec: 1e9 } }, '/chatStreams/rampPerSec must be <= 100000'],
    ['message rate 1e308', { chatStreams: { messageRatePerSec: 1e308 } }, '/chatStreams/messageRatePerSec must be <= 100000'],
    ['churn rate', { chatStreams: { churnRatePerSec: 1e6 } }, '/chatStreams/churnRatePerSec must be <= 10000'],
    ['photo rate 1e9', { photoUpload: { ratePerSec: 1e9 } }, '/photoUpload/ratePerSec must be <= 1000000'],
    ['tag ramp rate', { tagLink: { rampToPerSec: 1e9 } }, '/tagLink/rampToPerSec must be <= 1000000'],
    ['in flight', { tagLink: { maxInFlight: 1e7 } }, '/tagLink/maxInFlight must be <= 100000'],
    ['connections', { photoUpload: { model: 'closed', connections: 1e6 } }, '/photoUpload/connections must be <= 10000'],
    ['tags per request 1e308', { tagLink: { tagsPerRequest: 1e308 } }, '/tagLink/tagsPerRequest must be <= 1000'],
    ['a stage target', { chatStreams: { stages: [{ duration: '1s', target: 1e12 }] } }, '/chatStreams/stages/0/target must be <= 1000000'],
    ['a duration of Infinity ms', { duration: Number.POSITIVE_INFINITY }, '/duration must be <= 604800000'],
    ['35 days', { duration: '35d' }, '/duration: "35d" is longer than the maximum, 7d'],
    ['an image size in bytes', { photoUpload: { imageSizes: [2 ** 30] } }, '/photoUpload/imageSizes/0 must be <= 16777216'],
    ['an image size as text', { photoUpload: { imageSizes: ['1000MiB'] } }, 'photoUpload.imageSizes[0]: 1000MiB is larger than the maximum, 16MiB'],
    ['an image size beyond any number', { photoUpload: { imageSizes: [`${'9'.repeat(400)}MiB`] } }, 'photoUpload.imageSizes[0]: 999'],
    [
      'every image size in every format',
      { photoUpload: { imageSizes: Array.from({ length: 6 }, () => '16MiB') } },
      'photoUpload.imageSizes: 288MiB of images in all (each size in each of 3 formats), more than the maximum, 256MiB',
    ],
    ['the SSE frame bound', { chatStreams: { maxFrameBytes: '1024MiB' } }, 'chatStreams.maxFrameBytes: 1024MiB is larger than the maximum, 64MiB'],
    ['a tolerance of 5000%', { keepAliveTolerance: '5000%' }, '/keepAliveTolerance: 5000% is more than the maximum, 1000%'],
  ])('%s', (_name, data, message) => {
    expect(refusal(data)).toContain(message);
  });

  it('refuses stages longer than 7d in all (each stage alone within it), naming the list', () => {
    const stages = [
      { duration: '7d', target: 10 },
      { duration: '7d', target: 10 },
    ];
    expect(refusal({ chatStreams: { stages } })).toBe('limits.json: chatStreams.stages: the stages last 14d in all, longer than the maximum, 7d');
    expect(
      refusal({
        tagLink: {
          stages: [
            { duration: week, target: 5 },
            { duration: 1, target: 5 },
          ],
        },
      }),
    ).toMatch(/tagLink\.stages: the stages last 7d in all, longer/);
    expect(
      loadProfileText({
        name: 'week',
        chatStreams: {
          stages: [
            { duration: '6d', target: 10 },
            { duration: '1d', target: 0 },
          ],
        },
      }).durationMs,
    ).toBe(week);
  });

  it('refuses a threshold limit that reads as Infinity', () => {
    expect(() => parseThresholds(['chatStreams.eventLatencyMs.p99 < 1e400'], 'limits.json: thresholds')).toThrow(/1e400 is too large a number/);
  });

  it('accepts every maximum itself', () => {
    const profile = loadProfileText({
      name: 'at-the-limits',
      duration: '7d',
      target: { participants: MAX_PARTICIPANTS, sessionsPerParticipant: 1_000, seed: 4_294_967_295 },
      chatStreams: {
        participants: MAX_PARTICIPANTS,
        rampPerSec: 100_000,
        messageRatePerSec: MAX_MESSAGE_RATE_PER_SEC,
        churnRatePerSec: 10_000,
        maxFrameBytes: '64MiB',
      },
      photoUpload: { ratePerSec: MAX_REQUEST_RATE_PER_SEC, maxInFlight: 100_000, connections: 10_000, imageSizes: ['16MiB'] },
      tagLink: { ratePerSec: MAX_REQUEST_RATE_PER_SEC, tagsPerRequest: 1_000 },
    });
    expect(profile.chatStreams.maxFrameBytes).toBe(MAX_FRAME_BYTES_LIMIT);
    expect(profile.photoUpload.imageSizes).toEqual([MAX_IMAGE_BYTES]);
  });

  it("keeps the schema's maxima and the code's in step", () => {
    const schema = JSON.parse(readFileSync(new URL('../../schemas/profile.schema.json', import.meta.url), 'utf8'));
    const props = schema.properties;
    expect(props.chatStreams.properties.participants.maximum).toBe(MAX_PARTICIPANTS);
    expect(props.target.properties.participants.maximum).toBe(MAX_PARTICIPANTS);
    expect(props.chatStreams.properties.messageRatePerSec.maximum).toBe(MAX_MESSAGE_RATE_PER_SEC);
    expect(schema.$defs.throughput.properties.ratePerSec.maximum).toBe(MAX_REQUEST_RATE_PER_SEC);
    expect(props.photoUpload.properties.imageSizes.items.maximum).toBe(MAX_IMAGE_BYTES);
    expect(props.chatStreams.properties.maxFrameBytes.maximum).toBe(MAX_FRAME_BYTES_LIMIT);
    expect(props.search.properties.max.maximum).toBe(MAX_PARTICIPANTS);
  });
});

describe('through the CLI', () => {
  it('a profile beyond a maximum is exit 2 with one line naming the file and field; a 1e400 in the file too', async () => {
    const path = join(dir, 'too-much.json');
    await writeFile(path, '{ "name": "too-much", "chatStreams": { "participants": 1e400 }, "photoUpload": { "enabled": true, "ratePerSec": 1e9 } }');
    const result = await runBin(['plan', path], { deadlineMs: 30_000 });
    expect(result.code, result.stderr).toBe(2);
    expect(result.stderr.trim()).toBe(
      `coachbench: invalid profile ${path}: /chatStreams/participants must be <= 1000000; /photoUpload/ratePerSec must be <= 1000000`,
    );
  }, 30_000);

  it('stages of 14 days are exit 2 from run, before any target starts', async () => {
    const path = join(dir, 'fortnight.json');
    await writeFile(
      path,
      JSON.stringify({
        name: 'fortnight',
        chatStreams: {
          stages: [
            { duration: '7d', target: 2 },
            { duration: '7d', target: 2 },
          ],
        },
      }),
    );
    // Before the bound, this run started and ran on: the deadline keeps such a failure short.
    const result = await runBin(['run', '-p', path, '--out', join(dir, 'never')], { deadlineMs: 15_000 });
    expect(result.code, result.stderr).toBe(2);
    expect(result.stderr.trim()).toBe(`coachbench: ${path}: chatStreams.stages: the stages last 14d in all, longer than the maximum, 7d`);
    expect(result.stderr).not.toContain('embedded target');
  }, 30_000);

  it('loadProfile reads the built-in profiles within every limit', async () => {
    for (const name of ['smoke', 'release', 'nightly-soak', 'capacity']) await expect(loadProfile(name)).resolves.toHaveProperty('name', name);
  });
});
