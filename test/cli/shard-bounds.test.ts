/**
 * `--shard I/N` splits what the profile holds and no more (docs/design.md §2.2): past 1,000
 * shards, more shards than participants, more shards than closed-model connections, or shards
 * of a capacity search is exit 2 with one line, before anything starts. In-process (src/, no build).
 */
import { mkdtemp, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeProfile } from '../support/profiles.js';
import { runCli } from '../support/run-cli.js';

let dir = '';
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'coachbench-shard-bounds-'));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

async function refused(argv: string[]): Promise<string> {
  const result = await runCli(argv);
  const lines = result.stderr.trim().split('\n');
  expect({ code: result.code, lines: lines.length }, result.stderr).toEqual({ code: 2, lines: 1 });
  return lines[0]!;
}

describe('--shard is bounded by what it splits', () => {
  it('refuses more shards than a closed model has connections (each shard must open one)', async () => {
    const { path } = await writeProfile({
      name: 'closed',
      chatStreams: { participants: 40 },
      photoUpload: { enabled: true, model: 'closed', connections: 4 },
      tagLink: { enabled: false },
    });
    const line = await refused(['run', '--profile', path, '--shard', '0/5', '--out', join(dir, 'never')]);
    expect(line).toContain(
      `--shard 0/5: 5 shards but ${path}'s photoUpload has 4 closed-model connections; each shard must open at least one, so use at most 4 shards`,
    );
    // As many shards as connections splits them one each.
    expect((await runCli(['plan', path, '--shard', '3/4'])).code).toBe(0);
  });

  it('counts the participants a fixtures file caps the run at', async () => {
    const { path } = await writeProfile({ name: 'capped', chatStreams: { participants: 40 }, photoUpload: { enabled: false }, tagLink: { enabled: false } });
    const fixtures = join(dir, 'fixtures.json');
    const participants = [1, 2, 3].map((n) => ({ userId: `p-${n}`, token: `pt_${n}`, chatSessionIds: [`cs-${n}`] }));
    await writeFile(fixtures, JSON.stringify({ apiKey: 'ak_test', participants }));
    const line = await refused([
      'run',
      '--profile',
      path,
      '--target',
      'http://127.0.0.1:9',
      '--fixtures',
      fixtures,
      '--shard',
      '0/4',
      '--out',
      join(dir, 'never'),
    ]);
    expect(line).toContain(
      '--shard 0/4: 4 shards but the fixtures file holds 3 participants; each shard holds every N-th participant, so use at most 3 shards',
    );
  });

  it('refuses to shard a capacity search, whose steps each shard would choose on its own', async () => {
    const search = { variable: 'chatStreams.participants', start: 10, max: 40, slos: ['chatStreams.opened > 0'] };
    const { path } = await writeProfile({
      name: 'search',
      chatStreams: { participants: 40 },
      photoUpload: { enabled: false },
      tagLink: { enabled: false },
      search,
    });
    const out = join(dir, 'never-search');
    const line = await refused(['run', '--profile', path, '--shard', '0/2', '--out', out]);
    expect(line).toBe(
      'coachbench: --shard: a capacity search chooses each step from its SLOs, so shards would search apart and cannot merge; search in one run (--workers for more cores)',
    );
    await expect(stat(out)).rejects.toThrow();
  });
});
