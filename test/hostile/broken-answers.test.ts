/**
 * Hostile targets that break every answer (issue 16, items a, c, d), driven through
 * bin/coachbench.js with streams, photo uploads and tag links: each run ends on time, exits
 * 1 with the right checks failing, passes nothing without evidence, and keeps its memory.
 * Needs dist/ (npm run build).
 */
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { expectContained, GRACE_MS, hostileRequestProfile, normalPeakRss, runAgainst } from '../support/hostile-run.js';
import { behaviours } from '../support/hostile-servers.js';
import type { TestServer } from '../support/throughput-helpers.js';

/** How long the reachability preflight waits for an answer (src/orchestration/run-target.ts). */
const PREFLIGHT_TIMEOUT_MS = 10_000;
let server: TestServer | undefined;
let normal = 0;

beforeAll(async () => {
  normal = await normalPeakRss(hostileRequestProfile());
});

afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe('hostile targets: every answer broken (bin/coachbench.js run --target)', () => {
  it('(a) 500 to everything: stream opens and every request check fail', async () => {
    server = await behaviours.internalError();
    const run = await runAgainst(server.url, hostileRequestProfile());
    expectContained(
      run,
      [
        'stream.open',
        'photo.upload',
        'photo.fieldname.override',
        'tags.link',
        'tags.role.required',
        'auth.apikey.required',
        'errors.problem_json',
        'load.achieved',
      ],
      normal,
    );
    const chat = run.report!.scenarios.chatStreams!;
    expect(chat.opened).toBe(0);
    expect(chat.openFailures['status:500']).toBe(chat.openFailed + chat.mainStreams.openFailed);
  });

  it('(c) 200 with random bytes to everything: garbage streams are cut, garbage answers fail their checks', async () => {
    server = await behaviours.randomBytes();
    const run = await runAgainst(server.url, hostileRequestProfile());
    // No 4xx/5xx ever came back, so errors.problem_json has nothing to judge.
    expectContained(
      run,
      ['stream.open', 'photo.upload', 'photo.fieldname.override', 'tags.link', 'tags.role.required', 'auth.apikey.required', 'load.achieved'],
      normal,
    );
    const chat = run.report!.scenarios.chatStreams!;
    expect(chat.opened).toBeGreaterThan(0);
    expect(chat.drops.end).toBeGreaterThan(0);
  });

  it('(d) accepted and never answered after the preflight: the run still ends on time, requests cut by its end judge nothing', async () => {
    server = await behaviours.stallAfterPreflight();
    const run = await runAgainst(server.url, hostileRequestProfile());
    expectContained(run, ['stream.open', 'load.achieved'], normal);
    const chat = run.report!.scenarios.chatStreams!;
    expect(chat.opened).toBe(0);
    // Every open still waiting when the run ended is a failed open, never nothing: 3 main and 3 chat streams.
    expect(chat.openFailures).toEqual({ 'timeout:headers': 6 });
    expect(chat.samples.join('\n')).toMatch(/still waiting for response headers when the run ended, after \d+ ms/);
  });

  it('(d) accepted and never answered, the preflight too: exit 3 once the preflight times out, one line, no report', async () => {
    server = await behaviours.stallEverything();
    const run = await runAgainst(server.url, hostileRequestProfile());
    expect(run.code, run.stderr).toBe(3);
    expect(run.elapsedMs).toBeLessThan(PREFLIGHT_TIMEOUT_MS + GRACE_MS);
    expect(run.stderr).toMatch(/not reachable/);
    expect(run.stderr.trim().split('\n')).toHaveLength(1);
    expect(run.report).toBeNull();
  });
});
