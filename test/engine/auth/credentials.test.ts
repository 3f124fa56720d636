/**
 * Token renewal in one driver process (engine/auth/credentials.ts), with real commands and a
 * real fixtures file: one command run for a burst of refusals, successors for tokens already
 * replaced, no loop when the renewed token is refused too, and the file re-read on change.
 */
import { mkdtemp, readFile, rename, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { type CredentialSources, Credentials, sendRenewing } from '../../../src/engine/auth/credentials.js';
import type { RunFixtures } from '../../../src/engine/scenario.js';
import { MetricSet } from '../../../src/metrics/metric-set.js';
import { AUTH } from '../../../src/metrics/names.js';

const NODE = JSON.stringify(process.execPath);

let dir: string;
let metrics: MetricSet;

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'coachbench-credentials-'));
  metrics = new MetricSet();
});

function fixtures(): RunFixtures {
  return {
    apiKey: 'ak_test',
    coachToken: 'ct_0',
    participants: [
      { userId: 'p-1', token: 'pt_1_0', chatSessionIds: ['s'] },
      { userId: 'p-2', token: 'pt_2_0', chatSessionIds: ['s'] },
    ],
  };
}

/**
 * A token command that counts its runs in a file, takes `delayMs`, and prints generation N's
 * tokens (`pt_<user>_<N>`, `ct_<N>`); with `same`, it prints generation 0 every time.
 */
async function countingCommand(delayMs: number, same = false): Promise<{ command: string; runs: () => Promise<number> }> {
  const counter = join(dir, 'runs');
  await writeFile(counter, '');
  const script = `
    const fs = require('node:fs');
    fs.appendFileSync(${JSON.stringify(counter)}, 'x');
    const n = ${same ? '0' : `fs.readFileSync(${JSON.stringify(counter)}, 'utf8').length`};
    setTimeout(() => console.log(JSON.stringify({ coachToken: 'ct_' + n, participants: { 'p-1': 'pt_1_' + n, 'p-2': 'pt_2_' + n } })), ${delayMs});`;
  const file = join(dir, 'token-command.cjs');
  await writeFile(file, script);
  return { command: `${NODE} ${JSON.stringify(file)}`, runs: async () => (await readFile(counter, 'utf8')).length };
}

const credentialsWith = (held: RunFixtures, sources: Partial<CredentialSources>): Credentials =>
  new Credentials(held, { tokenCommand: null, fixturesPath: null, ...sources }, () => metrics);

describe('Credentials.renew', () => {
  it('runs the command once for a burst of refusals; everyone waits for it and gets the successor', async () => {
    const { command, runs } = await countingCommand(300);
    const held = fixtures();
    const credentials = credentialsWith(held, { tokenCommand: command });
    const renewed = await Promise.all([
      ...Array.from({ length: 20 }, () => credentials.renew('Bearer pt_1_0')),
      credentials.renew('Bearer pt_2_0'),
      credentials.renew('Bearer ct_0'),
    ]);
    expect(await runs()).toBe(1);
    expect(renewed.slice(0, 20)).toEqual(Array(20).fill('Bearer pt_1_1'));
    expect(renewed.slice(20)).toEqual(['Bearer pt_2_1', 'Bearer ct_1']);
    expect(held.participants.map((p) => p.token)).toEqual(['pt_1_1', 'pt_2_1']);
    expect(held.coachToken).toBe('ct_1');
    expect(metrics.count(AUTH.refreshes)).toBe(1);
    expect(metrics.count(AUTH.waited)).toBe(22);
    expect(metrics.count(AUTH.resent)).toBe(22);
    expect(metrics.histogram(AUTH.refreshUs).totalCount).toBe(1);

    // A request still in flight with the replaced token gets the successor without a run.
    expect(await credentials.renew('Bearer pt_1_0')).toBe('Bearer pt_1_1');
    expect(await runs()).toBe(1);
    // Tokens that are not this run's are left alone.
    expect(await credentials.renew('Bearer someone-else')).toBeNull();
    expect(await credentials.renew(undefined)).toBeNull();
  });

  it('does not loop when the renewed token is refused too: the 401 stands and counts against the renewal', async () => {
    const { command, runs } = await countingCommand(0, true);
    const credentials = credentialsWith(fixtures(), { tokenCommand: command });
    expect(await credentials.renew('Bearer pt_1_0')).toBeNull();
    expect(await runs()).toBe(1);
    expect(metrics.count(AUTH.rejectedAfterRefresh)).toBe(1);
    // Refused again right after: no second run.
    expect(await credentials.renew('Bearer pt_1_0')).toBeNull();
    expect(await runs()).toBe(1);
    expect(metrics.count(AUTH.rejectedAfterRefresh)).toBe(2);
    // The command gave the refused token back: the second refusal is of a token no renewal replaced.
    expect(metrics.encode().samples.auth?.[1]).toMatch(/^a current token was refused \d+ ms after a renewal ended$/);
  });

  it('counts a failed command, keeps the tokens, and does not run it again at once', async () => {
    const held = fixtures();
    const credentials = credentialsWith(held, { tokenCommand: `${NODE} -e "console.error('idp down'); process.exit(2)"` });
    expect(await credentials.renew('Bearer pt_1_0')).toBeNull();
    expect(await credentials.renew('Bearer pt_2_0')).toBeNull();
    expect(metrics.count(AUTH.refreshFailures)).toBe(1);
    expect(metrics.encode().samples.auth).toEqual(['--token-command failed (exit 2): idp down']);
    expect(held.participants[0]!.token).toBe('pt_1_0');
  });

  it('names the command as it was given: COACHBENCH_TOKEN_COMMAND, not a flag never given', async () => {
    const credentials = credentialsWith(fixtures(), {
      tokenCommand: `${NODE} -e "console.error('idp down'); process.exit(2)"`,
      tokenCommandName: 'COACHBENCH_TOKEN_COMMAND',
    });
    expect(await credentials.renew('Bearer pt_1_0')).toBeNull();
    expect(metrics.encode().samples.auth).toEqual(['COACHBENCH_TOKEN_COMMAND failed (exit 2): idp down']);
  });

  it('counts a token over the size bound as a failed refresh, naming the limit, and keeps the tokens held', async () => {
    const held = fixtures();
    const credentials = credentialsWith(held, { tokenCommand: `${NODE} -e "process.stdout.write('x'.repeat(9000))"` });
    expect(await credentials.renew('Bearer pt_1_0')).toBeNull();
    expect(metrics.count(AUTH.refreshFailures)).toBe(1);
    expect(metrics.encode().samples.auth).toEqual(['--token-command printed a token of 9000 bytes, over the 8 KiB limit for one token']);
    expect(held.participants[0]!.token).toBe('pt_1_0');
  });

  it('without a command, a 401 to a current token stands when the file holds no newer one', async () => {
    const path = join(dir, 'fixtures.json');
    await writeFile(path, JSON.stringify(fixtures()));
    const credentials = credentialsWith(fixtures(), { fixturesPath: path });
    expect(await credentials.renew('Bearer pt_1_0')).toBeNull();
    expect(metrics.count(AUTH.waited)).toBe(0);
    expect(metrics.count(AUTH.fixturesReloads), 'a read that changed nothing is no reload').toBe(0);
  });

  it('without a command, a 401 reads the fixtures file at once: a token renamed in before the poll saw it is sent again', async () => {
    const path = join(dir, 'fixtures.json');
    const held = fixtures();
    await writeFile(path, JSON.stringify(held));
    const credentials = credentialsWith(held, { fixturesPath: path });
    // No watchFixtures(): only the 401 can make it read the file.
    await writeFile(path, JSON.stringify({ ...fixtures(), participants: [{ userId: 'p-1', token: 'pt_1_7', chatSessionIds: ['s'] }] }));
    const answers = await Promise.all([credentials.renew('Bearer pt_1_0'), credentials.renew('Bearer pt_1_0'), credentials.renew('Bearer pt_2_0')]);
    expect(answers).toEqual(['Bearer pt_1_7', 'Bearer pt_1_7', null]);
    expect(metrics.count(AUTH.resent)).toBe(2);
    expect(metrics.count(AUTH.fixturesReloads), 'one read for the burst').toBe(1);
  });
});

describe('sendRenewing', () => {
  it('sends once more with the renewed token, and counts a second 401', async () => {
    const { command } = await countingCommand(0);
    const credentials = credentialsWith(fixtures(), { tokenCommand: command });
    const sent: string[] = [];
    const refuseAll = async (headers: Record<string, string>) => {
      sent.push(headers.authorization!);
      return 401;
    };
    const { answer, resent } = await sendRenewing(credentials, { authorization: 'Bearer pt_2_0' }, refuseAll, (status) => status);
    expect({ answer, resent, sent }).toEqual({ answer: 401, resent: true, sent: ['Bearer pt_2_0', 'Bearer pt_2_1'] });
    expect(metrics.count(AUTH.rejectedAfterRefresh)).toBe(1);
    const ok = await sendRenewing(
      credentials,
      { authorization: 'Bearer pt_2_1' },
      async () => 200,
      (status) => status,
    );
    expect(ok).toEqual({ answer: 200, resent: false });
  });
});

describe('Credentials.staleAnswer (the closed model)', () => {
  it('drops 401s to a token being replaced and starts the refresh; not those to a token just renewed', async () => {
    const { command, runs } = await countingCommand(200);
    const credentials = credentialsWith(fixtures(), { tokenCommand: command });
    expect(credentials.staleAnswer('Bearer pt_1_0')).toBe(true);
    expect(credentials.staleAnswer('Bearer pt_2_0')).toBe(true);
    await credentials.refresh();
    expect(await runs()).toBe(1);
    expect(credentials.staleAnswer('Bearer pt_1_0')).toBe(true);
    expect(credentials.staleAnswer('Bearer pt_1_1')).toBe(false);
    expect(metrics.count(AUTH.staleAnswers)).toBe(3);
    expect(metrics.count(AUTH.rejectedAfterRefresh)).toBe(1);
    expect(credentials.staleAnswer('Bearer not-ours')).toBe(false);
  });
});

describe('Credentials.watchFixtures', () => {
  const waitFor = async (condition: () => boolean): Promise<void> => {
    for (let i = 0; i < 60 && !condition(); i++) await new Promise((resolve) => setTimeout(resolve, 100));
  };

  it('takes the tokens of a rewritten file, keeps them when a rewrite does not validate', async () => {
    const path = join(dir, 'fixtures.json');
    const file = (token: string) =>
      JSON.stringify({ coachToken: `ct_${token}`, participants: [{ userId: 'p-1', token: `pt_1_${token}`, chatSessionIds: ['s'] }] });
    await writeFile(path, file('0'));
    const held = fixtures();
    const credentials = credentialsWith(held, { fixturesPath: path });
    credentials.watchFixtures();
    try {
      await new Promise((resolve) => setTimeout(resolve, 50));
      // Written elsewhere and renamed into place, as a token job does.
      await writeFile(`${path}.tmp`, file('9'));
      await rename(`${path}.tmp`, path);
      await waitFor(() => held.participants[0]!.token === 'pt_1_9');
      expect(held.participants[0]!.token).toBe('pt_1_9');
      expect(held.participants[1]!.token, 'a participant the file does not name keeps its token').toBe('pt_2_0');
      expect(held.coachToken).toBe('ct_9');
      expect(await credentials.renew('Bearer pt_1_0')).toBe('Bearer pt_1_9');

      await writeFile(path, '{"participants": [');
      await waitFor(() => metrics.count(AUTH.fixturesReloadFailures) > 0);
      expect(metrics.count(AUTH.fixturesReloadFailures)).toBe(1);
      expect(held.participants[0]!.token).toBe('pt_1_9');
      expect(metrics.count(AUTH.fixturesReloads)).toBe(1);
    } finally {
      credentials.close();
    }
  }, 15_000);
});
