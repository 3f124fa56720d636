/**
 * `--workers N` deals a closed model's connections out one by one (docs/design.md §2.2): the
 * workers together open exactly the profile's `connections`, and a worker dealt none opens
 * none. A forwarder in front of the reference target counts the sockets that carry the closed
 * model's uploads at once; the run goes through bin/ (dist/: `npm run build` first).
 */
import { rm } from 'node:fs/promises';
import type { Socket } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkInFlightSplits, profileShare } from '../../src/orchestration/profile-share.js';
import type { RunningTarget } from '../../src/reference-service/target-types.js';
import { dealtShare } from '../../src/util/dealt-share.js';
import { runBin } from '../support/bin-helpers.js';
import { startForwarder } from '../support/forwarder.js';
import { loadProfileText } from '../support/profile-text.js';
import { closedOnlyProfile, profileFile } from '../support/profiles.js';
import { readRunReport } from '../support/run-report.js';
import { startTargetWithFixtures } from '../support/target-helpers.js';

describe('dealtShare', () => {
  it('deals every count out exactly, and a shard’s workers hold the shard’s share', () => {
    for (const total of [0, 1, 2, 3, 4, 7, 16]) {
      for (const parts of [1, 2, 3, 5, 8]) {
        const shares = Array.from({ length: parts }, (_, part) => dealtShare(total, part, parts));
        expect(
          shares.reduce((a, b) => a + b, 0),
          `${total} over ${parts}`,
        ).toBe(total);
        expect(Math.max(...shares) - Math.min(...shares)).toBeLessThanOrEqual(1);
      }
    }
    // Shard 1 of 3 with 4 workers is processes 1, 4, 7, 10 of 12 (run-session.ts jobFor).
    const shardWorkers = [0, 1, 2, 3].map((w) => dealtShare(7, 1 + 3 * w, 12));
    expect(shardWorkers.reduce((a, b) => a + b, 0)).toBe(dealtShare(7, 1, 3));
  });

  it('gives a worker dealt no closed-model connection no closed-model scenario', () => {
    const profile = loadProfileText({
      name: 'split',
      photoUpload: { enabled: true, model: 'closed', connections: 2 },
      tagLink: { enabled: true, model: 'open', ratePerSec: 3 },
    });
    const shares = [0, 1, 2].map((part) => profileShare(profile, part, 3));
    expect(shares.map((share) => [share.photoUpload.enabled, share.photoUpload.connections])).toEqual([
      [true, 1],
      [true, 1],
      [false, 0],
    ]);
    // An open model is shared by rate: every worker runs it.
    expect(shares.map((share) => share.tagLink.enabled)).toEqual([true, true, true]);
    expect(shares[2]!.tagLink.ratePerSec).toBeCloseTo(1);
  });

  it('deals an open model’s in-flight bound exactly, and refuses more processes than it', () => {
    const profile = loadProfileText({
      name: 'in-flight',
      chatStreams: { enabled: false },
      photoUpload: { enabled: true, model: 'open', ratePerSec: 30, maxInFlight: 7 },
      tagLink: { enabled: false },
    });
    const bounds = [0, 1, 2].map((part) => profileShare(profile, part, 3).photoUpload.maxInFlight);
    expect(bounds).toEqual([3, 2, 2]);
    expect(() => checkInFlightSplits(profile, 7, '--workers 7')).not.toThrow();
    expect(() => checkInFlightSplits(profile, 8, '--workers 8')).toThrow(
      /^--workers 8: 8 driver processes but .*photoUpload allows 7 requests in flight; .*raise maxInFlight to 8/,
    );
  });

  it('deals a request kind’s closed-model connections the same way', () => {
    const profile = loadProfileText({
      name: 'kinds',
      chatStreams: { enabled: false },
      requests: {
        kinds: [{ name: 'getSession', method: 'GET', path: '/participants/{userId}/chat_sessions/{sessionId}', load: { model: 'closed', connections: 3 } }],
      },
    });
    const kinds = [0, 1, 2, 3].map((part) => profileShare(profile, part, 4).requests!.kinds[0]!);
    expect(kinds.map((kind) => [kind.enabled, kind.connections])).toEqual([
      [true, 1],
      [true, 1],
      [true, 1],
      [false, 0],
    ]);
  });
});

let dir: string;
let target: RunningTarget;
let fixtures: string;

beforeAll(async () => {
  ({ dir, target, fixtures } = await startTargetWithFixtures({ prefix: 'coachbench-workers-closed-' }, { participants: 6, sessionsPerParticipant: 1 }));
});
afterAll(async () => {
  await target.close();
  await rm(dir, { recursive: true, force: true });
});

describe('--workers with a closed model', () => {
  it('opens no more connections than the profile asks for: 3 workers, 2 connections', async () => {
    // Sockets that carried a closed-model upload and are still open. The closed model writes
    // its own request heads, `Host` first and capitalised (autocannon-requests.ts requestHead);
    // undici's (the probes') are lower case, so a probe's socket is not counted.
    const open = new Set<Socket>();
    let peak = 0;
    const forwarder = await startForwarder(target.url, {
      onRequest: (req) => {
        if (req.method !== 'PATCH' || !req.url?.endsWith('/profile_photo') || req.rawHeaders[0] !== 'Host') return;
        const socket = req.socket;
        if (open.has(socket)) return;
        open.add(socket);
        peak = Math.max(peak, open.size);
        socket.once('close', () => open.delete(socket));
      },
    });
    try {
      const profile = await profileFile(dir, 'closed', { ...closedOnlyProfile(), duration: '2s', generator: { maxEventLoopDelayP99: '2s' } });
      const out = join(dir, 'run');
      const result = await runBin([
        'run',
        '-p',
        profile,
        '-t',
        forwarder.url,
        '-f',
        fixtures,
        '--expect-keepalive',
        '500ms',
        '-q',
        '-o',
        out,
        '--workers',
        '3',
      ]);
      const report = await readRunReport(out);
      const failed = report.checks.filter((check) => check.status !== 'pass' && check.status !== 'skip').map((check) => `${check.id}: ${check.detail}`);
      expect(result.code, `${result.stderr}\n${failed.join('\n')}`).toBe(0);
      expect(report.generator.processes).toBe(3);
      expect(peak).toBe(2);
      // The driver counts the same: two closed-model connections opened over the three workers.
      expect(report.transport?.protocols?.closedModel).toEqual({ 'http/1.1': 2 });
      const achieved = report.checks.find((check) => check.id === 'load.achieved');
      expect(achieved?.detail).toContain('photoUpload held its 2 closed-model connections');
    } finally {
      forwarder.close();
    }
  }, 60_000);
});

describe('--workers and --shard with an open model', () => {
  it.each([
    [['--workers', '3'], /^coachbench: --workers 3: 3 driver processes but .*photoUpload allows 2 requests in flight/],
    [['--shard', '0/3'], /^coachbench: --shard 0\/3: 3 driver processes but .*photoUpload allows 2 requests in flight/],
  ])(
    '%j beyond maxInFlight is exit 2 with one line, before any load',
    async (flags, message) => {
      const profile = await profileFile(dir, 'open-in-flight', {
        name: 'open-in-flight',
        duration: '2s',
        chatStreams: { enabled: false },
        photoUpload: { enabled: true, model: 'open', ratePerSec: 6, maxInFlight: 2 },
        tagLink: { enabled: false },
      });
      const result = await runBin(['run', '-p', profile, '-t', target.url, '-f', fixtures, '-q', '-o', join(dir, 'refused'), ...flags]);
      expect(result.code, result.stderr).toBe(2);
      expect(result.stderr.trim().split('\n')).toHaveLength(1);
      expect(result.stderr).toMatch(message);
    },
    30_000,
  );
});
