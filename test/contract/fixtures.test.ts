import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadFixtures } from '../../src/contract/fixtures.js';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'coachbench-fixtures-'));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

async function fixturesFile(name: string, text: string): Promise<string> {
  const path = join(dir, name);
  await writeFile(path, text);
  return path;
}

describe('loadFixtures', () => {
  it('reads a valid file', async () => {
    const path = await fixturesFile('ok.json', JSON.stringify({ apiKey: 'k', participants: [{ userId: 'u1', token: 't1', chatSessionIds: ['s1'] }] }));
    expect(await loadFixtures(path)).toEqual({ apiKey: 'k', participants: [{ userId: 'u1', token: 't1', chatSessionIds: ['s1'] }] });
  });

  it('names the line and column of a syntax error', async () => {
    const path = await fixturesFile('broken.json', '{\n  "apiKey": "k",\n  "participants": [\n    { "userId": "u1" "token": "t1" }\n  ]\n}\n');
    await expect(loadFixtures(path)).rejects.toThrow(`${path}:4:22: not valid JSON`);
  });

  it('says where a truncated file ends', async () => {
    const path = await fixturesFile('cut.json', '{ "participants": [');
    await expect(loadFixtures(path)).rejects.toThrow(/cut\.json:1:\d+: not valid JSON: .*at the end of the file/);
  });
});
