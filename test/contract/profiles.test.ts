import { describe, expect, it } from 'vitest';
import { builtInProfiles, loadProfile, validateProfileFile } from '../../src/contract/profile/load-profile.js';
import { resolveProfile } from '../../src/contract/profile/resolve-profile.js';
import { parseThresholds } from '../../src/metrics/thresholds.js';
import { parseSearch } from '../../src/orchestration/capacity/search-plan.js';
import { ConfigError } from '../../src/util/errors.js';

describe('built-in profiles', () => {
  it('ship smoke, release, nightly-soak and capacity', async () => {
    expect(await builtInProfiles()).toEqual(expect.arrayContaining(['capacity', 'nightly-soak', 'release', 'smoke']));
  });

  it.each(['smoke', 'release', 'nightly-soak', 'capacity'])('%s validates, resolves, and its thresholds parse', async (name) => {
    const profile = await loadProfile(name);
    expect(profile.name).toBe(name);
    expect(profile.durationMs).toBeGreaterThan(0);
    expect(() => parseThresholds(profile.thresholds, name)).not.toThrow();
    if (profile.search) expect(parseSearch(profile.search, name).slos.length).toBeGreaterThan(0);
  });

  it('smoke is about 30 s with a few hundred participants, messages and churn on', async () => {
    const smoke = await loadProfile('smoke');
    expect(smoke.durationMs).toBe(30_000);
    expect(smoke.chatStreams.participants).toBeGreaterThanOrEqual(200);
    expect(smoke.chatStreams.messageRatePerSec).toBeGreaterThan(0);
    expect(smoke.chatStreams.churnRatePerSec).toBeGreaterThan(0);
    expect(smoke.target.keepAliveMs).toBeLessThan(15_000);
  });
});

describe('profile validation', () => {
  it('collects every problem into one line', () => {
    const bad = { name: 'x y', duration: 'soon', chatStreams: { participants: -1, frob: true }, photoUpload: { model: 'sideways' } };
    let message = '';
    try {
      validateProfileFile(bad, 'bad.json');
    } catch (error) {
      expect(error).toBeInstanceOf(ConfigError);
      message = (error as Error).message;
    }
    expect(message).toContain('invalid profile bad.json');
    for (const part of ['/name', '/duration', '/chatStreams/participants', '"frob"', '/photoUpload/model']) expect(message).toContain(part);
    expect(message.split('\n')).toHaveLength(1);
  });

  it('fills defaults and converts units', () => {
    const profile = resolveProfile(
      { name: 'tiny', duration: '2m', keepAliveTolerance: '20%', target: { keepAlive: '5s' }, photoUpload: { imageSizes: ['16KiB', 2048] } },
      'tiny.json',
    );
    expect(profile.durationMs).toBe(120_000);
    expect(profile.target.keepAliveMs).toBe(5_000);
    expect(profile.photoUpload.imageSizes).toEqual([16_384, 2_048]);
    expect(profile.chatStreams.participants).toBe(100);
  });

  it('rejects a reopen cap below the base', () => {
    expect(() => resolveProfile({ name: 'x', chatStreams: { reopenBase: '5s', reopenMax: '1s' } }, 'x.json')).toThrow(/reopenMax/);
  });

  it('bounds SSE frames at 1 MiB unless chatStreams.maxFrameBytes says otherwise, and refuses a bound under 1 KiB', () => {
    expect(resolveProfile({ name: 'x' }, 'x.json').chatStreams.maxFrameBytes).toBe(1024 * 1024);
    expect(resolveProfile({ name: 'x', chatStreams: { maxFrameBytes: '4MiB' } }, 'x.json').chatStreams.maxFrameBytes).toBe(4 * 1024 * 1024);
    expect(() => resolveProfile({ name: 'x', chatStreams: { maxFrameBytes: 512 } }, 'x.json')).toThrow(
      /x.json: chatStreams.maxFrameBytes: must be at least 1024/,
    );
    expect(() => validateProfileFile({ name: 'x', chatStreams: { maxFrameBytes: 'huge' } }, 'x.json')).toThrow(/\/chatStreams\/maxFrameBytes/);
  });
});
