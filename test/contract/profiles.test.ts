import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { builtInProfiles, loadProfile, validateProfileFile } from '../../src/contract/profile/load-profile.js';
import type { ProfileFile } from '../../src/contract/profile/profile-file.js';
import { resolveProfile } from '../../src/contract/profile/resolve-profile.js';
import { parseThresholds } from '../../src/metrics/thresholds.js';
import { parseSearch } from '../../src/orchestration/capacity/search-plan.js';
import { ConfigError } from '../../src/util/errors.js';
import { parseJsonText } from '../../src/util/json-text.js';

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

describe('profile arrivals and seed (docs/design.md §6)', () => {
  it('places arrivals uniformly with seed 1 unless the profile says otherwise', () => {
    const profile = resolveProfile({ name: 'x' }, 'x.json');
    expect([profile.photoUpload.arrivals, profile.tagLink.arrivals, profile.chatStreams.messageArrivals, profile.seed]).toEqual([
      'uniform',
      'uniform',
      'uniform',
      1,
    ]);
  });

  it('reads poisson arrivals for uploads, tags and injected messages, and the seed', () => {
    const file: ProfileFile = {
      name: 'x',
      seed: 42,
      photoUpload: { arrivals: 'poisson' },
      tagLink: { arrivals: 'poisson', stages: [{ duration: '10s', target: 5 }] },
      chatStreams: { messageArrivals: 'poisson' },
    };
    validateProfileFile(file, 'x.json');
    const profile = resolveProfile(file, 'x.json');
    expect([profile.photoUpload.arrivals, profile.tagLink.arrivals, profile.chatStreams.messageArrivals, profile.seed]).toEqual([
      'poisson',
      'poisson',
      'poisson',
      42,
    ]);
  });

  it('refuses poisson arrivals in the closed model, naming the field', () => {
    expect(() => resolveProfile({ name: 'x', photoUpload: { model: 'closed', arrivals: 'poisson' } }, 'x.json')).toThrow(
      /^x.json: photoUpload.arrivals: "poisson" needs the open model/,
    );
    expect(resolveProfile({ name: 'x', photoUpload: { model: 'closed', arrivals: 'uniform' } }, 'x.json').photoUpload.model).toBe('closed');
  });

  it.each([
    [{ name: 'x', photoUpload: { arrivals: 'bursty' } }, '/photoUpload/arrivals'],
    [{ name: 'x', chatStreams: { messageArrivals: 'exponential' } }, '/chatStreams/messageArrivals'],
    [{ name: 'x', chatStreams: { arrivals: 'poisson' } }, '"arrivals"'],
    [{ name: 'x', seed: -1 }, '/seed'],
    [{ name: 'x', seed: 4_294_967_296 }, '/seed'],
    [{ name: 'x', seed: 1.5 }, '/seed'],
  ])('refuses %j in the schema', (file, where) => {
    expect(() => validateProfileFile(file, 'x.json')).toThrow(where);
  });
});

describe('profile durations', () => {
  it('accept compound durations and days', () => {
    const profile = resolveProfile({ name: 'x', duration: '1h30m15s', chatStreams: { switchEvery: '2m30s', reopenBase: '1.5s', reopenMax: '1m' } }, 'x.json');
    expect(profile.durationMs).toBe(5_415_000);
    expect(profile.chatStreams.switchEveryMs).toBe(150_000);
    expect(profile.chatStreams.reopenBaseMs).toBe(1_500);
    expect(validateProfileFile({ name: 'x', duration: '7d', expectKeepAlive: '1m30s', keepAliveTolerance: '1.5s' }, 'x.json').duration).toBe('7d');
  });

  it.each([
    [{ duration: '30' }, '/duration: "30" has no unit (units ms, s, m, h, d'],
    [{ expectKeepAlive: '15' }, '/expectKeepAlive: "15" has no unit'],
    [{ chatStreams: { switchEvery: '10x' } }, '/chatStreams/switchEvery: "10x" is not a duration'],
    [{ target: { keepAlive: '1s500' } }, '/target/keepAlive: "1s500": every number needs a unit'],
    [{ duration: '999999999h' }, '/duration: "999999999h" is longer than the maximum, 7d'],
    [{ photoUpload: { timeout: '5s10m' } }, '/photoUpload/timeout: "5s10m": write the units largest first'],
    [{ keepAliveTolerance: 'lots%' }, '/keepAliveTolerance: "lots%" is not a percentage (e.g. 10%)'],
    [{ keepAliveTolerance: '25' }, '/keepAliveTolerance: "25" has no unit'],
    [{ duration: -5 }, '/duration must be >= 0'],
  ])('%j is refused by the duration parser, naming the field', (fields, message) => {
    expect(() => validateProfileFile({ name: 'x', ...fields }, 'x.json')).toThrow(`invalid profile x.json: ${message}`);
  });

  it('lists a bad duration together with every other problem, on one line', () => {
    let message = '';
    try {
      validateProfileFile({ name: 'x', duration: '30', chatStreams: { participants: 0, switchEvery: 'often' } }, 'x.json');
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message).toContain('/duration: "30" has no unit');
    expect(message).toContain('/chatStreams/switchEvery: "often" is not a duration');
    expect(message).toContain('/chatStreams/participants must be >= 1');
    expect(message.split('\n')).toHaveLength(1);
  });

  it('checks a number of milliseconds against the maximum too', () => {
    expect(() => resolveProfile({ name: 'x', duration: 8 * 86_400_000 }, 'x.json')).toThrow(/^x\.json: duration: 691200000 ms is longer than the maximum, 7d$/);
  });
});

describe('profile files are JSONC', () => {
  let dir = '';
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'coachbench-profiles-'));
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  async function save(name: string, text: string): Promise<string> {
    const path = join(dir, name);
    await writeFile(path, text);
    return path;
  }

  it('loads comments and trailing commas', async () => {
    const path = await save(
      'commented.json',
      '{\n  // the name\n  "name": "commented",\n  /* a block\n     comment */\n  "duration": "1m30s", // compound\n  "chatStreams": { "participants": 5, },\n}\n',
    );
    const profile = await loadProfile(path);
    expect(profile.name).toBe('commented');
    expect(profile.durationMs).toBe(90_000);
    expect(profile.chatStreams.participants).toBe(5);
  });

  it.each([
    [
      'missing-comma.json',
      '{\n  "name": "x"\n  "duration": "1s"\n}',
      ':3:3: not valid JSON (comments and trailing commas are allowed): expected "," at "\\"duration\\": \\"1s\\"',
    ],
    [
      'unclosed.json',
      '{\n  "name": "x",\n  "chatStreams": {\n',
      ':4:1: not valid JSON (comments and trailing commas are allowed): expected "}" at the end of the file',
    ],
    ['single-quotes.json', "{ 'name': 'x' }", ":1:3: not valid JSON (comments and trailing commas are allowed): unexpected character at \"'name': 'x' }\""],
  ])('%s: exit-2 error with file:line:column and what is wrong', async (name, text, message) => {
    const path = await save(name, text);
    await expect(loadProfile(path)).rejects.toThrow(ConfigError);
    await expect(loadProfile(path)).rejects.toThrow(`${path}${message}`);
  });

  it('refuses a binary file with a short escaped excerpt', async () => {
    const path = await save('binary.json', Buffer.from([0x7f, 0x45, 0x4c, 0x46, 0x02, 0x01, 0x01, 0x00, ...new Array<number>(300).fill(0)]).toString('latin1'));
    const error = (await loadProfile(path).catch((e: unknown) => e)) as Error;
    expect(error).toBeInstanceOf(ConfigError);
    expect(error.message).toMatch(/:1:1: not valid JSON .*: unexpected character at "\\x7fELF\\x02\\x01\\x01\\x00/);
    expect(error.message).not.toMatch(/\p{Cc}/u);
  });

  it("loads the README's commented walk-through of the smoke profile exactly as written, and it is profiles/smoke.json", async () => {
    const readme = await readFile(new URL('../../README.md', import.meta.url), 'utf8');
    const section = readme.slice(readme.indexOf('## A profile, walked through'));
    const example = /```jsonc\n([\s\S]*?)\n```/.exec(section)?.[1];
    expect(example, 'README: a ```jsonc block in "A profile, walked through"').toBeDefined();
    expect(example).toMatch(/\/\/ /);
    const fromReadme = await loadProfile(await save('readme-smoke.json', example as string));
    const smoke = await loadProfile('smoke');
    // The walk-through leaves out the description; everything that drives the run is the same.
    expect({ ...fromReadme, description: smoke.description, source: smoke.source }).toEqual(smoke);
  });

  it("shows the release profile's stages in the README's load-shapes section as they are in profiles/release.json", async () => {
    const readme = await readFile(new URL('../../README.md', import.meta.url), 'utf8');
    const section = readme.slice(readme.indexOf('## Load shapes'));
    const example = /```jsonc\n([\s\S]*?)\n```/.exec(section)?.[1];
    expect(example, 'README: a ```jsonc block in "Load shapes"').toBeDefined();
    const fromReadme = parseJsonText(`{${example}}`, 'README.md', { jsonc: true }) as Record<string, { stages: unknown }>;
    const release = JSON.parse(await readFile(new URL('../../profiles/release.json', import.meta.url), 'utf8')) as Record<string, { stages: unknown }>;
    expect(Object.keys(fromReadme)).toContain('chatStreams');
    // Each workload the README shows has its stages exactly as the profile has them.
    for (const [workload, shown] of Object.entries(fromReadme)) expect(shown.stages, workload).toEqual(release[workload]!.stages);
  });
});
