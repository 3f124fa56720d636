/**
 * Hostile targets that break every stream (issue 16, items b, e, f, g, h), driven through
 * bin/coachbench.js: each run ends on time, exits 1 with the right stream checks failing,
 * passes nothing without evidence, and keeps its memory near a run against a healthy server
 * even while 100 MB lines are on offer. Needs dist/ (npm run build).
 */
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { expectContained as expectContainedRun, type HostileRun, hostileProfile, normalPeakRss, runAgainst } from '../support/hostile-run.js';
import { behaviours, type HostileServer } from '../support/hostile-servers.js';

const MiB = 1024 * 1024;

let server: HostileServer | undefined;
let normal = 0;

beforeAll(async () => {
  normal = await normalPeakRss(hostileProfile());
});

afterEach(async () => {
  await server?.close();
  server = undefined;
});

/**
 * The suite's common expectations; and only streams were asked for, so nothing else reached the
 * server. A target that breaks every stream also keeps the run from holding its planned streams:
 * load.achieved fails beside the stream checks.
 */
function expectContained(run: HostileRun, failing: string[], either: string[] = []): void {
  expectContainedRun(run, failing, normal, either);
  expect(server!.seen.others).toBe(0);
}

const dropsOf = (run: HostileRun): Record<string, number> => run.report!.scenarios.chatStreams!.drops as Record<string, number>;

describe('hostile targets: every stream broken (bin/coachbench.js run --target)', () => {
  it('(b) a KEEP_ALIVE after the headers, then the socket destroyed: every stream counts as cut', async () => {
    server = await behaviours.resetAfterFirstFrame();
    const run = await runAgainst(server.url, hostileProfile());
    // A KEEP_ALIVE with the headers proves no cadence: each first one is early.
    expectContained(run, ['stream.open', 'stream.keepalive.cadence', 'load.achieved']);
    const drops = dropsOf(run);
    const resets = Object.entries(drops).filter(([code]) => code.startsWith('net:'));
    expect(resets.length, JSON.stringify(drops)).toBeGreaterThan(0);
    expect(server.seen.streams).toBeGreaterThan(6);
  });

  it('(e) one byte a second: no frame ever completes, so every stream stalls and is reopened', async () => {
    server = await behaviours.trickle();
    const run = await runAgainst(server.url, hostileProfile());
    // Each stream is held from its headers to its stall and reopened after a backoff: the
    // stream-seconds held sit at load.achieved's 90 % bar for this short run, on either side.
    expectContained(run, ['stream.stall'], ['load.achieved']);
    expect(run.report!.scenarios.chatStreams!.stalled).toBeGreaterThan(0);
  });

  it('(f) one 100 MB line: every stream fails as frame-too-large after about 1 MiB, memory stays flat', async () => {
    server = await behaviours.hugeLine();
    const run = await runAgainst(server.url, hostileProfile());
    expectContained(run, ['stream.open', 'load.achieved']);
    expect(dropsOf(run)['frame-too-large']).toBeGreaterThan(0);
    // 1 MiB read, the rest of what was written waits in socket buffers until the close.
    expect(server.seen.maxBytesOnOneConnection).toBeLessThan(16 * MiB);
  });

  it('(g) a 10 MB line every second: each stream fails at its first line, memory stays flat', async () => {
    server = await behaviours.bigLineEverySecond();
    const run = await runAgainst(server.url, hostileProfile());
    expectContained(run, ['stream.open', 'load.achieved']);
    expect(dropsOf(run)['frame-too-large']).toBeGreaterThan(0);
    expect(server.seen.maxBytesOnOneConnection).toBeLessThan(10 * MiB);
  });

  it('(h) a clean end after every event: every stream counts as ended by the target', async () => {
    server = await behaviours.closeAfterEveryEvent();
    const run = await runAgainst(server.url, hostileProfile());
    expectContained(run, ['stream.open', 'stream.keepalive.cadence', 'load.achieved']);
    expect(dropsOf(run).end).toBeGreaterThan(0);
  });
});
