/**
 * When token renewal goes wrong (docs/design.md §2.13): a token command that hands back the
 * tokens the target just refused, one that starts failing mid-run, one that fails at once;
 * each is reported as what it is, in one line or the check auth.token.refresh, never with a
 * token in it, and never as a retry loop.
 */
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Report } from '../../src/contract/report.js';
import type { RunningTarget } from '../../src/reference-service/target-types.js';
import { runBin } from '../support/bin-helpers.js';
import { profileFile, quickProfile } from '../support/profiles.js';
import { expiringTarget, issuedTokens, NODE, tokenCommand } from '../support/token-helpers.js';

let dir: string;
let target: RunningTarget;
let fixtures: string;
let profile: string;

beforeAll(async () => {
  ({ dir, target, fixtures } = await expiringTarget({ prefix: 'coachbench-token-faults-' }, 1_500));
  profile = await profileFile(
    dir,
    'profile',
    quickProfile({
      duration: '4s',
      keepAliveTolerance: '100%',
      chatStreams: { participants: 12, rampPerSec: 200, switchEvery: '1s', messageRatePerSec: 10, churnRatePerSec: 0 },
      photoUpload: { enabled: true, model: 'open', ratePerSec: 20, imageSizes: ['2KiB'] },
      generator: { maxEventLoopDelayP99: '2s' },
    }),
  );
});
afterAll(() => target.close());

async function run(out: string, command: string, flags: string[] = []) {
  const args = ['run', '-p', profile, '-t', target.url, '-f', fixtures, '--expect-keepalive', '500ms', '-o', out, '--token-command', command, ...flags];
  const result = await runBin(args, {
    env: { TOKEN_API_KEY: target.fixtures.apiKey },
  });
  const text = await readFile(join(out, 'report.json'), 'utf8').catch(() => null);
  return { result, text, report: text === null ? null : (JSON.parse(text) as Report) };
}

const check = (report: Report, id: string) => report.checks.find((c) => c.id === id)!;

describe('auth.token.refresh fails', () => {
  it('when the command hands back the tokens that were just refused: counted once each, not retried in a loop', async () => {
    // Fresh tokens on the first run (just before the preflight, which they pass), expiring
    // 1.5 s later, mid-run; every later run prints the same ones again.
    const stale = join(dir, 'stale.json');
    const script = join(dir, 'same-tokens.mjs');
    await writeFile(
      script,
      `import { existsSync, readFileSync, writeFileSync } from 'node:fs';
const saved = ${JSON.stringify(stale)};
if (!existsSync(saved)) {
  const answer = await fetch(${JSON.stringify(`${target.url}/_coachbench/tokens`)}, { method: 'POST', headers: { 'x-api-key': process.env.TOKEN_API_KEY } });
  const body = await answer.json();
  writeFileSync(saved, JSON.stringify({ coachToken: body.coachToken, participants: body.participants }));
}
process.stdout.write(readFileSync(saved, 'utf8'));
`,
    );
    const { result, report } = await run(join(dir, 'stale'), `${NODE} ${JSON.stringify(script)}`);
    expect(result.code).toBe(1);
    const auth = report!.auth!;
    expect(auth.rejectedAfterRefresh).toBeGreaterThan(0);
    // A refresh at most about once a second (FRESH_MS) on each loop that renews its own tokens
    // (the run's, and its request thread's: docs/design.md §2.13), never one per refused request.
    const loops = report!.generator.requestLoopDelayMs === undefined ? 1 : 2;
    expect(auth.refreshes).toBeLessThanOrEqual(5 * loops);
    expect(auth.refreshes).toBeLessThan(report!.scenarios.photoUpload!.errors / 4);
    expect(check(report!, 'auth.token.refresh')).toMatchObject({ status: 'fail' });
    expect(check(report!, 'auth.token.refresh').detail).toMatch(/^\d+ answers 401 to a token renewed just before, 0 token command runs failed/);
    // The refusals the renewal could not fix are the target's answers, and reported as such.
    expect(report!.scenarios.photoUpload!.errors).toBeGreaterThan(0);
  }, 60_000);

  it('when the command starts failing mid-run: its stderr is kept with the tokens masked', async () => {
    const own = await mkdtemp(join(dir, 'failing-'));
    const { command, issuedLog } = await tokenCommand(own, target, { failAfter: 1 });
    const { result, report, text } = await run(join(dir, 'failing'), command, ['--threshold', 'auth.refreshFailures == 0']);
    expect(result.code).toBe(1);
    expect(report!.auth!.refreshFailures).toBeGreaterThan(0);
    // The same count is a metric a threshold holds the run to.
    expect(report!.thresholds).toEqual([{ expression: 'auth.refreshFailures == 0', status: 'fail', observed: report!.auth!.refreshFailures }]);
    // Not run in a loop: after a failure it waits 5 s before the next try.
    expect(report!.auth!.refreshFailures).toBeLessThanOrEqual(2);
    expect(check(report!, 'auth.token.refresh')).toMatchObject({ status: 'fail' });
    const said = report!.metrics.samples.auth ?? [];
    expect(said[0]).toBe('--token-command failed (exit 1): identity provider unreachable; still holding *** and Bearer ***');
    const tokens = await issuedTokens(issuedLog);
    expect(tokens.length).toBeGreaterThan(0);
    for (const token of tokens) expect(`${text}${result.stdout}${result.stderr}`.includes(token)).toBe(false);
  }, 60_000);
});

describe('a token command that cannot give the first tokens', () => {
  it('stops the run before it starts: exit 3, one line, secrets masked', async () => {
    const secret = target.fixtures.participants[0]!.token;
    const command = `${NODE} -e ${JSON.stringify(`console.error("login refused for token ${secret}"); process.exit(4)`)}`;
    const { result, report } = await run(join(dir, 'first'), command);
    expect(result.code).toBe(3);
    expect(report).toBeNull();
    expect(result.stderr.trim().split('\n')).toEqual(['coachbench: --token-command failed (exit 4): login refused for token ***; the run did not start']);
  }, 30_000);

  it('set as COACHBENCH_TOKEN_COMMAND, is named as the variable, not as a flag never given', async () => {
    const command = `${NODE} -e ${JSON.stringify('console.error("idp down"); process.exit(4)')}`;
    const out = join(dir, 'first-from-variable');
    const result = await runBin(['run', '-p', profile, '-t', target.url, '-f', fixtures, '--expect-keepalive', '500ms', '-o', out], {
      env: { TOKEN_API_KEY: target.fixtures.apiKey, COACHBENCH_TOKEN_COMMAND: command },
    });
    expect(result.code).toBe(3);
    expect(result.stderr.trim().split('\n')).toEqual(['coachbench: COACHBENCH_TOKEN_COMMAND failed (exit 4): idp down; the run did not start']);
  }, 30_000);

  it('is refused for the embedded target, whose tokens never expire (exit 2)', async () => {
    const result = await runBin(['run', '-p', profile, '--token-command', 'echo t']);
    expect(result.code).toBe(2);
    expect(result.stderr.trim()).toBe('coachbench: --token-command is for --target runs: the embedded target issues tokens that do not expire');
  });
});
