/**
 * Expiring tokens end to end (docs/design.md §2.13), through the CLI as users run it: the
 * reference target refuses tokens 2 s after it issued them, and a run several lifetimes long
 * renews them with --token-command (or from a fixtures file rewritten beside it) without a
 * single request, stream open or message failing, and without a token in anything it wrote.
 */
import { mkdtemp, readFile, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Report } from '../../src/contract/report.js';
import type { IssuedTokens } from '../../src/reference-service/http/token-issuer.js';
import type { RunningTarget } from '../../src/reference-service/target-types.js';
import { runBin } from '../support/bin-helpers.js';
import { profileFile, quickProfile } from '../support/profiles.js';
import { readRunReport } from '../support/run-report.js';
import { expiringTarget, issuedTokens, tokenCommand } from '../support/token-helpers.js';

let dir: string;
let target: RunningTarget;
let fixtures: string;

beforeAll(async () => {
  ({ dir, target, fixtures } = await expiringTarget({ prefix: 'coachbench-tokens-' }, 2_000));
});
afterAll(() => target.close());

/** A quickProfile with the loop-delay slack of a run about tokens, written into the test's folder. */
const tokenProfile = (name: string, overrides: Record<string, unknown>): Promise<string> =>
  profileFile(dir, name, quickProfile({ generator: { maxEventLoopDelayP99: '2s' }, ...overrides }));

async function runAgainstTarget(profile: string, out: string, flags: string[] = []) {
  const result = await runBin(['run', '-p', profile, '-t', target.url, '-f', fixtures, '--expect-keepalive', '500ms', '-o', out, ...flags], {
    env: { TOKEN_API_KEY: target.fixtures.apiKey },
  });
  const text = await readFile(join(out, 'report.json'), 'utf8');
  return { result, report: JSON.parse(text) as Report, written: `${text}${await readFile(join(out, 'report.html'), 'utf8')}${result.stdout}${result.stderr}` };
}

const statusOf = (report: Report, id: string) => report.checks.find((check) => check.id === id);

describe('--token-command against a target whose tokens expire every 2 s', () => {
  it('renews every kind of request and stream open, and no token reaches the report', async () => {
    const { command, issuedLog } = await tokenCommand(join(dir), target);
    const profile = await tokenProfile('mixed', {
      duration: '6500ms',
      keepAliveTolerance: '100%',
      chatStreams: { participants: 24, rampPerSec: 200, switchEvery: '1200ms', messageRatePerSec: 20, churnRatePerSec: 4 },
      photoUpload: { enabled: true, model: 'open', ratePerSec: 20, imageSizes: ['2KiB'] },
      tagLink: { enabled: true, model: 'open', ratePerSec: 10 },
    });
    const thresholds = ['auth.refreshes >= 2', 'auth.refreshFailures == 0', 'auth.refreshMs.p99 < 5s'];
    const { result, report, written } = await runAgainstTarget(profile, join(dir, 'mixed'), [
      '--token-command',
      command,
      ...thresholds.flatMap((t) => ['--threshold', t]),
    ]);
    expect(result.code, result.stderr).toBe(0);
    const auth = report.auth!;
    expect(report.thresholds.filter((t) => thresholds.includes(t.expression)).map((t) => [t.expression, t.status])).toEqual(thresholds.map((t) => [t, 'pass']));
    // One run at the start, then one per expiry: at least two inside 6.5 s of 2 s tokens.
    expect(auth.refreshes).toBeGreaterThanOrEqual(2);
    expect(auth.resent).toBeGreaterThan(0);
    expect(auth.rejectedAfterRefresh + auth.refreshFailures).toBe(0);
    expect(statusOf(report, 'auth.token.refresh')?.status).toBe('pass');
    expect(written).toContain('<section id="auth"><h2>Token renewal</h2>');
    expect(report.scenarios.photoUpload!.errors).toBe(0);
    expect(report.scenarios.tagLink!.errors).toBe(0);
    const chat = report.scenarios.chatStreams!;
    expect(chat.openFailures).toEqual({});
    expect(chat.messagesFailed).toBe(0);
    expect(chat.mainStreams.peakConcurrent).toBe(24);
    const tokens = await issuedTokens(issuedLog);
    expect(tokens.length).toBeGreaterThan(90);
    for (const token of tokens) expect(written.includes(token), 'a token in the report, the HTML or the output').toBe(false);
  }, 60_000);

  it('the closed model drops the answers to tokens being replaced and keeps its requests clean', async () => {
    const { command } = await tokenCommand(await mkdtemp(join(dir, 'closed-')), target);
    // Two renewals take two token lifetimes plus two runs of the command, and each run is a
    // Node start that a loaded 2-core machine stretches to seconds: the run leaves room for both.
    const profile = await tokenProfile('closed', {
      duration: '10s',
      chatStreams: { enabled: false },
      photoUpload: { enabled: true, model: 'closed', connections: 2, imageSizes: ['2KiB'] },
    });
    const { result, report } = await runAgainstTarget(profile, join(dir, 'closed'), ['--token-command', command]);
    expect(result.code, result.stderr).toBe(0);
    expect(report.auth!.refreshes).toBeGreaterThanOrEqual(2);
    expect(report.auth!.staleAnswers).toBeGreaterThan(0);
    expect(report.scenarios.photoUpload!.errors).toBe(0);
    expect(report.scenarios.photoUpload!.requests).toBeGreaterThan(100);
    expect(statusOf(report, 'auth.token.refresh')?.status).toBe('pass');
  }, 60_000);
});

describe('--token-command over HTTPS and HTTP/2', () => {
  it('renews tokens of a TLS target speaking h2, the command trusting its CA as the run does', async () => {
    const own = await mkdtemp(join(dir, 'h2-'));
    const tls = await expiringTarget({ dir: own }, 2_000, { tls: 'self-signed', http2: true });
    try {
      const ca = join(own, 'ca.pem');
      await writeFile(ca, tls.target.certificate!);
      const { command } = await tokenCommand(own, tls.target);
      const profile = await tokenProfile('h2-tokens', {
        duration: '5s',
        keepAliveTolerance: '100%',
        chatStreams: { participants: 24, rampPerSec: 200, switchEvery: '1s', messageRatePerSec: 20, churnRatePerSec: 0 },
        photoUpload: { enabled: true, model: 'open', ratePerSec: 20, imageSizes: ['2KiB'] },
      });
      const out = join(own, 'out');
      const result = await runBin(
        [
          'run',
          '-p',
          profile,
          '-t',
          tls.target.url,
          '-f',
          tls.fixtures,
          '--ca',
          ca,
          '--http',
          '2',
          '--expect-keepalive',
          '500ms',
          '-o',
          out,
          '--token-command',
          command,
        ],
        // The command's own fetch trusts the target's CA the way a user's curl --cacert would.
        { env: { TOKEN_API_KEY: tls.target.fixtures.apiKey, NODE_EXTRA_CA_CERTS: ca } },
      );
      const report = await readRunReport(out);
      expect(result.code, result.stderr).toBe(0);
      expect(report.auth!.refreshes).toBeGreaterThanOrEqual(2);
      expect(report.auth!.resent).toBeGreaterThan(0);
      expect(report.scenarios.photoUpload!.errors).toBe(0);
      expect(report.scenarios.chatStreams!.openFailures).toEqual({});
      expect(report.transport!.protocols).toMatchObject({ streams: { h2: 24 } });
    } finally {
      await tls.target.close();
    }
  }, 60_000);
});

describe('the fixtures file rewritten during the run', () => {
  it('is re-read, and its fresh tokens are used before the old ones expire', async () => {
    const own = join(dir, 'rewritten.json');
    await writeFile(own, JSON.stringify(target.fixtures));
    let rewriting = true;
    // A token job beside the run: new tokens every 700 ms, written whole and renamed in.
    const job = (async () => {
      while (rewriting) {
        const answer = await request(`${target.url}/_coachbench/tokens`, { method: 'POST', headers: { 'x-api-key': target.fixtures.apiKey } });
        const issued = (await answer.body.json()) as IssuedTokens;
        const next = {
          ...target.fixtures,
          coachToken: issued.coachToken,
          participants: target.fixtures.participants.map((p) => ({ ...p, token: issued.participants[p.userId]! })),
        };
        await writeFile(`${own}.tmp`, JSON.stringify(next));
        await rename(`${own}.tmp`, own);
        await new Promise((resolve) => setTimeout(resolve, 700));
      }
    })();
    const profile = await tokenProfile('reread', {
      duration: '5s',
      keepAliveTolerance: '100%',
      chatStreams: { participants: 12, rampPerSec: 200, switchEvery: '1s', messageRatePerSec: 10, churnRatePerSec: 0 },
      photoUpload: { enabled: true, model: 'open', ratePerSec: 20, imageSizes: ['2KiB'] },
    });
    try {
      const out = join(dir, 'reread');
      const result = await runBin(['run', '-p', profile, '-t', target.url, '-f', own, '--expect-keepalive', '500ms', '-o', out]);
      const report = await readRunReport(out);
      expect(result.code, result.stderr).toBe(0);
      expect(report.auth!.fixturesReloads).toBeGreaterThanOrEqual(3);
      expect(report.scenarios.photoUpload!.errors).toBe(0);
      expect(report.scenarios.chatStreams!.openFailures).toEqual({});
      expect(statusOf(report, 'auth.token.refresh')?.status).toBe('pass');
    } finally {
      rewriting = false;
      await job;
    }
  }, 60_000);
});
