import { describe, expect, it } from 'vitest';
import { loadProfile } from '../../src/contract/profile/load-profile.js';
import type { ScenarioPlan } from '../../src/contract/profile/stage-plan.js';
import { reportPlan } from '../../src/report/build-report.js';
import { writeProfile } from '../support/profiles.js';
import { runCli } from '../support/run-cli.js';

const staged = {
  name: 'shape',
  chatStreams: {
    stages: [
      { duration: '1m', target: 1_000, name: 'up' },
      { duration: '5m', target: 'hold', name: 'peak' },
      { duration: '30s', target: 0 },
    ],
  },
  tagLink: { enabled: true, stages: [{ duration: '6m30s', target: 40, name: 'tags' }] },
};

describe('a capacity search with stages', () => {
  it('is refused: the search steps the load itself', async () => {
    const { path } = await writeProfile({ ...staged, search: { variable: 'chatStreams.participants', start: 10, max: 40, slos: ['chatStreams.opened > 0'] } });
    const result = await runCli(['run', '--profile', path]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(`${path}: a capacity search steps the load itself; remove the stages (or the search)`);
  });
});

describe('a capacity search with --shard', () => {
  it('is refused by plan as by run: no shard of a search runs, so none has a plan', async () => {
    const message =
      'coachbench: --shard: a capacity search chooses each step from its SLOs, so shards would search apart and cannot merge; search in one run (--workers for more cores)\n';
    for (const command of ['run', 'plan']) {
      const result = await runCli(command === 'run' ? ['run', '--profile', 'capacity', '--shard', '0/2'] : ['plan', 'capacity', '--shard', '0/2']);
      expect(result.code, command).toBe(2);
      expect(result.stdout, command).toBe('');
      expect(result.stderr, command).toBe(message);
    }
    expect((await runCli(['plan', 'capacity'])).code).toBe(0);
  });
});

describe('coachbench plan', () => {
  it('prints every stage of every scenario as a table', async () => {
    const { path } = await writeProfile(staged);
    const result = await runCli(['plan', path]);
    expect(result.code).toBe(0);
    const lines = result.stdout.split('\n');
    expect(lines[0]).toBe(`${path}: 6m30s in all; values are chatStreams in participants, tagLink in requests/s`);
    expect(lines.slice(2, 7).map((line) => line.split(/\s+/))).toEqual([
      ['scenario', 'stage', 'start', 'end', 'from', 'to'],
      ['chatStreams', 'up', '0s', '1m00s', '0', '1000'],
      ['chatStreams', 'peak', '1m00s', '6m00s', '1000', '1000'],
      ['chatStreams', 'stage-3', '6m00s', '6m30s', '1000', '0'],
      ['tagLink', 'tags', '0s', '6m30s', '0', '40'],
    ]);
    expect(result.stdout).toContain('named windows for thresholds ({stage:NAME}): up, tags, peak');
  });

  it('shows what one shard applies: its participants by rank, its part of each rate', async () => {
    const { path } = await writeProfile(staged);
    const result = await runCli(['plan', path, '--shard', '1/3']);
    const row = (stage: string): string[] =>
      result.stdout
        .split('\n')
        .find((line) => line.split(/\s+/)[1] === stage)!
        .split(/\s+/);
    // Ranks 1, 4, 7, ..., 997 of 0..999: 333 participants; 40 req/s / 3.
    expect(row('up').slice(-2)).toEqual(['0', '333']);
    expect(row('tags').slice(-2)).toEqual(['0', '13.33']);
  });

  it('names the shard and what it applies above the table', async () => {
    const { path } = await writeProfile(staged);
    const lines = (await runCli(['plan', path, '--shard', '1/3'])).stdout.split('\n');
    expect(lines[1]).toBe('shard 1/3 applies the participants of ranks 1, 4, 7, … and 1/3 of every rate (its columns below)');
    expect(lines[2]).toBe('');
  });

  it('with --json --shard keeps the whole plan and adds the shard: which one, and its share of every stage', async () => {
    const { path } = await writeProfile(staged);
    const whole = JSON.parse((await runCli(['plan', path, '--json'])).stdout);
    expect(whole.shard).toBeUndefined();
    const result = await runCli(['plan', path, '--json', '--shard', '1/3']);
    expect(result.code).toBe(0);
    const { shard, ...plan } = JSON.parse(result.stdout);
    expect(plan).toEqual(whole);
    expect(shard.index).toBe(1);
    expect(shard.count).toBe(3);
    const stages = (name: string) => shard.scenarios.find((s: { scenario: string }) => s.scenario === name).stages;
    // The same figures as the text's shard columns: ranks 1, 4, ..., 997 of 0..999 (333 participants); 40 req/s / 3.
    expect(stages('chatStreams').map((stage: { name: string; from: number; to: number }) => [stage.name, stage.from, stage.to])).toEqual([
      ['up', 0, 333],
      ['peak', 333, 333],
      ['stage-3', 333, 0],
    ]);
    expect(stages('tagLink')).toEqual([{ name: 'tags', named: true, startMs: 0, endMs: 390_000, from: 0, to: 40 / 3 }]);
  });

  it("shows each shard the plan its report.json holds, when the shards do not divide the participants; the shards' plans sum to the whole", async () => {
    const { path } = await writeProfile(staged);
    const profile = await loadProfile(path);
    const whole = JSON.parse((await runCli(['plan', path, '--json'])).stdout);
    const shards: ScenarioPlan[][] = [];
    for (const index of [0, 1, 2]) {
      const { shard } = JSON.parse((await runCli(['plan', path, '--json', '--shard', `${index}/3`])).stdout);
      // report.json `plan` of shard I/3 (buildReport's own reportPlan), fixtures holding every participant.
      expect(shard.scenarios).toEqual(reportPlan(profile, { shard: { index, count: 3 } }).scenarios);
      shards.push(shard.scenarios);
    }
    const peaks = shards.map((scenarios) => scenarios[0]!.stages[1]!.to);
    expect(peaks).toEqual([334, 333, 333]);
    for (const [s, scenario] of (whole.scenarios as ScenarioPlan[]).entries()) {
      for (const [i, stage] of scenario.stages.entries()) {
        expect(shards.reduce((sum, scenarios) => sum + scenarios[s]!.stages[i]!.to, 0)).toBeCloseTo(stage.to, 9);
        expect(shards.reduce((sum, scenarios) => sum + scenarios[s]!.stages[i]!.from, 0)).toBeCloseTo(stage.from, 9);
      }
    }
  });

  it('prints the same plan as report.json with --json', async () => {
    const { path } = await writeProfile(staged);
    const plan = JSON.parse((await runCli(['plan', path, '--json'])).stdout);
    expect(plan.durationMs).toBe(390_000);
    expect(plan.scenarios.map((s: { scenario: string }) => s.scenario)).toEqual(['chatStreams', 'tagLink']);
    expect(plan.windows).toEqual([
      { name: 'up', startMs: 0, endMs: 60_000 },
      { name: 'tags', startMs: 0, endMs: 390_000 },
      { name: 'peak', startMs: 60_000, endMs: 360_000 },
    ]);
  });

  it('shows a profile without stages as its ramp-and-hold', async () => {
    const result = await runCli(['plan', 'smoke']);
    expect(result.stdout).toMatch(/chatStreams\s+ramp\s+0s\s+2s\s+0\s+300/);
    expect(result.stdout).toMatch(/chatStreams\s+hold\s+2s\s+30s\s+300\s+300/);
  });

  it.each<[string[], string | RegExp]>([
    // plan takes its profile as an argument: the line names the argument, run names its flag.
    [['plan', 'no-such-profile'], /^coachbench: profile "no-such-profile": no such file or built-in profile \(see coachbench profiles\)$/m],
    [['run', '--profile', 'no-such-profile'], /^coachbench: --profile "no-such-profile": no such file or built-in profile/m],
    [['plan', 'smoke', '--shard', '2/2'], '--shard: "2/2" must be I/N'],
    [['plan', 'smoke', '--shard', '0/1001'], '--shard: "0/1001" splits the run into 1001 shards; at most 1000'],
    [['plan', 'smoke', '--shard', '300/301'], '--shard 300/301: 301 shards but profiles/smoke.json holds 300 participants'],
    [['run', '--profile', 'release', '--duration', '1m'], '--duration: profiles/release.json shapes its load with stages'],
  ])('%j exits 2 with one line', async (argv, message) => {
    const result = await runCli(argv);
    expect(result.code).toBe(2);
    if (typeof message === 'string') expect(result.stderr).toContain(message);
    else expect(result.stderr).toMatch(message);
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
  });
});

describe('coachbench plan: arrivals (docs/design.md §6)', () => {
  it('says every open-model schedule is uniform by default, and keeps plan.arrivals out of the JSON', async () => {
    const { path } = await writeProfile(staged);
    expect((await runCli(['plan', path])).stdout).toContain('arrivals: uniform (evenly spaced) on every open-model schedule');
    expect(JSON.parse((await runCli(['plan', path, '--json'])).stdout).arrivals).toBeUndefined();
  });

  it('says nothing of arrivals for a profile without an open-model schedule', async () => {
    const { path } = await writeProfile({
      name: 'closed-only',
      duration: '1m',
      chatStreams: { participants: 10, messageRatePerSec: 0 },
      photoUpload: { enabled: true, model: 'closed', connections: 2 },
      tagLink: { enabled: false },
    });
    const result = await runCli(['plan', path]);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/chatStreams\s+hold/);
    expect(result.stdout).not.toContain('arrivals');
  });

  it('names the Poisson schedules and the seed they draw from', async () => {
    const { path } = await writeProfile({
      ...staged,
      seed: 5,
      photoUpload: { enabled: true, ratePerSec: 20, arrivals: 'poisson' },
      tagLink: { ...staged.tagLink, arrivals: 'uniform' },
      chatStreams: { ...staged.chatStreams, messageRatePerSec: 4, messageArrivals: 'poisson' },
    });
    const text = (await runCli(['plan', path])).stdout;
    expect(text).toContain(
      'arrivals: photoUpload poisson (exponential gaps), tagLink uniform (evenly spaced), chatStreams messages poisson (exponential gaps); seed 5 (--seed)',
    );
    expect(JSON.parse((await runCli(['plan', path, '--json'])).stdout).arrivals).toEqual({
      seed: 5,
      schedules: [
        { workload: 'photoUpload', process: 'poisson' },
        { workload: 'tagLink', process: 'uniform' },
        { workload: 'chatMessages', process: 'poisson' },
      ],
    });
  });
});

describe('run --seed', () => {
  it.each(['-1', '1.5', 'abc', '4294967296'])('refuses %s with exit 2, naming the flag', async (seed) => {
    const result = await runCli(['run', '--seed', seed, '--quiet']);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(`--seed: "${seed}" must be a whole number in 0..4294967295`);
  });
});
