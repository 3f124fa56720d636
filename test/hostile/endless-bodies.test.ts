/**
 * A target whose answers never end (issue 27, item 4), driven through bin/coachbench.js:
 * uploads, tag links, message posts and membership calls are all answered 200 with an
 * endless body. Every body coachbench reads is bounded (1 MiB, docs/design.md §6): the run
 * ends on time, counts the requests as failed under `body-too-large`, and its memory stays
 * within 50 MiB of the same run against a well-behaved server, in the open and the closed
 * model alike. A head without end (header lines that never stop) is held to the same bound in
 * the closed model, whose parser is autocannon's, not undici's. Needs dist/ (npm run build).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { type BodyServer, startBodyServer, startHeadServer } from '../support/bound-servers.js';
import { DURATION_MS, expectContained, GRACE_MS, type HostileRun, hostileProfile, runAgainst } from '../support/hostile-run.js';

const MiB = 1024 * 1024;
/** What "bounded" means here: the driver's peak RSS over the same run against a well-behaved server. */
const HEADROOM_BYTES = 50 * MiB;

let server: BodyServer | undefined;

afterEach(async () => {
  await server?.close();
  server = undefined;
});

/** Uploads and tag links at a few a second, message posts and membership calls on the healthy streams. */
function bodyProfile(model: 'open' | 'closed'): Record<string, unknown> {
  const throughput = model === 'open' ? { ratePerSec: 4 } : { model: 'closed', connections: 1 };
  return hostileProfile({
    // The streams are not under test here: a loaded machine's late KEEP_ALIVE must not fail the run's cadence.
    keepAliveTolerance: '90%',
    chatStreams: { messageRatePerSec: 2, churnRatePerSec: 2 },
    photoUpload: { enabled: true, imageSizes: ['16KiB'], formats: ['jpeg'], timeout: '5s', ...throughput },
    tagLink: { enabled: true, timeout: '5s', ...throughput },
  });
}

async function peakAgainstWellBehaved(profile: Record<string, unknown>): Promise<number> {
  const healthy = await startBodyServer(false);
  try {
    const run = await runAgainst(healthy.url, profile);
    expect(run.peakRssBytes, run.stderr).toBeGreaterThan(0);
    expect(healthy.seen.answered).toBeGreaterThan(0);
    return run.peakRssBytes;
  } finally {
    await healthy.close();
  }
}

const errorsByKind = (run: HostileRun, scenario: 'photoUpload' | 'tagLink'): Record<string, number> =>
  (run.report!.scenarios[scenario]?.errorsByKind ?? {}) as Record<string, number>;

/** The checks the probes judge on the same endless answers; the streams stay healthy, so no stream check fails. */
const PROBED = ['photo.upload', 'photo.fieldname.override', 'tags.link', 'tags.role.required', 'auth.apikey.required'];

function expectBounded(run: HostileRun, normalPeak: number): void {
  expectContained(run, PROBED, normalPeak);
  expect(run.peakRssBytes).toBeLessThan(normalPeak + HEADROOM_BYTES);
  const report = run.report!;
  for (const scenario of ['photoUpload', 'tagLink'] as const) {
    expect(errorsByKind(run, scenario)['body-too-large'], JSON.stringify(report.scenarios[scenario])).toBeGreaterThan(0);
  }
  // A probe's failure names the bound, not a missing answer.
  expect(report.checks.find((check) => check.id === 'photo.upload')?.detail).toMatch(/no complete answer \(body-too-large: /);
  expect(server!.seen.answered).toBeGreaterThan(4);
}

describe('hostile target: endless answers (bin/coachbench.js run --target)', () => {
  it('open model: every answer read stops at 1 MiB, counted as body-too-large, memory stays flat', async () => {
    const profile = bodyProfile('open');
    const normal = await peakAgainstWellBehaved(profile);
    server = await startBodyServer(true);
    const run = await runAgainst(server.url, profile);
    expectBounded(run, normal);
    const chat = run.report!.scenarios.chatStreams!;
    // Message posts answered without end are failed posts, not sent ones.
    expect(chat.messagesSent).toBe(0);
    expect(chat.messagesFailed).toBeGreaterThan(0);
    expect(chat.membershipOpsFailed).toBeGreaterThan(0);
  });

  it('closed model: autocannon connections stop reading at 1 MiB, reconnect, and count body-too-large', async () => {
    const profile = bodyProfile('closed');
    const normal = await peakAgainstWellBehaved(profile);
    server = await startBodyServer(true);
    const run = await runAgainst(server.url, profile);
    expectBounded(run, normal);
    // Each connection reconnects after an oversized answer and sends again.
    expect(run.report!.scenarios.photoUpload!.requests).toBeGreaterThan(2);
  });

  it('closed model: a head without end stops at 1 MiB, counted as net:UND_ERR_HEADERS_OVERFLOW, memory stays flat', async () => {
    // Closed-model uploads alone: the head is what is under test.
    const profile = hostileProfile({
      chatStreams: { enabled: false },
      photoUpload: { enabled: true, model: 'closed', connections: 2, imageSizes: ['16KiB'], formats: ['jpeg'], timeout: '5s' },
    });
    const normal = await peakAgainstWellBehaved(profile);
    server = await startHeadServer();
    const run = await runAgainst(server.url, profile);
    expect(run.elapsedMs, run.stderr).toBeLessThan(DURATION_MS + GRACE_MS);
    expect(run.code, run.stderr).toBe(1);
    const photo = run.report!.scenarios.photoUpload!;
    expect(errorsByKind(run, 'photoUpload')['net:UND_ERR_HEADERS_OVERFLOW'], JSON.stringify(photo)).toBeGreaterThan(2);
    expect(run.peakRssBytes).toBeLessThan(normal + HEADROOM_BYTES);
    expect(server.seen.maxBodyBytes).toBeLessThan(16 * MiB);
  });
});
