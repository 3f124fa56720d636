/**
 * Event ids no header can carry as they stand (issue 27, item 6), driven through
 * bin/coachbench.js: every stream's events carry one `id:` and the target ends every stream
 * after two of them, so every stream reconnects. An id outside Latin-1 (valid per WHATWG) goes
 * back as its UTF-8 bytes, as a browser sends it; an id with a control character, or longer
 * than the 1 KiB bound, cannot go back at all: the stream reconnects without it, and the
 * target is blamed in stream.resume, never in stream.open. Needs dist/ (npm run build).
 */
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type IdServer, startIdServer } from '../support/bound-servers.js';
import { expectContained, type HostileRun, hostileProfile, normalPeakRss, runAgainst } from '../support/hostile-run.js';

const MiB = 1024 * 1024;
/** What "bounded" means here: the driver's peak RSS over the same run against a healthy server. */
const HEADROOM_BYTES = 50 * MiB;

let server: IdServer | undefined;
let normal = 0;

/** The hostile streams; only the ids are under test, so a loaded machine's late KEEP_ALIVE must not fail the cadence. */
const idProfile = (): Record<string, unknown> => hostileProfile({ keepAliveTolerance: '90%' });

beforeAll(async () => {
  normal = await normalPeakRss(idProfile());
});

afterEach(async () => {
  await server?.close();
  server = undefined;
});

/** The run, with what every case shares: it reconnected, undici never refused a header, memory stayed near normal. */
async function runWithIds(id: string, failing: string[]): Promise<HostileRun> {
  server = await startIdServer(id);
  const run = await runAgainst(server.url, idProfile());
  // A target that ends every stream after two events keeps every stream reconnecting: the
  // stream-seconds held sit at load.achieved's 90 % bound (90–93 % in repeated runs, before and
  // after the stream reader's dispatch() change), so that check is judged with evidence either way.
  expectContained(run, failing, normal, ['load.achieved']);
  expect(run.peakRssBytes).toBeLessThan(normal + HEADROOM_BYTES);
  const chat = run.report!.scenarios.chatStreams!;
  expect(Object.keys(chat.openFailures), JSON.stringify(chat.openFailures)).toEqual([]);
  expect(chat.resume!.reconnects).toBeGreaterThan(0);
  // Every stream was opened again after the target ended it: 6 at the start, more after.
  expect(server.seen.streams).toBeGreaterThan(6 + 3);
  expect(server.seen.others).toBe(0);
  return run;
}

describe('hostile target: event ids (bin/coachbench.js run --target)', () => {
  it('an id outside Latin-1 (msg-✓-42) is sent back as its UTF-8 bytes: every reconnect resumes from it', async () => {
    const id = 'msg-✓-42';
    const run = await runWithIds(id, ['stream.open']);
    // node:http reads header bytes as Latin-1: the UTF-8 bytes of the id, as a browser sends them.
    const wire = Buffer.from(id, 'utf8').toString('latin1');
    expect(server!.seen.lastEventIds.length).toBeGreaterThan(0);
    expect(new Set(server!.seen.lastEventIds)).toEqual(new Set([wire]));
    expect(run.report!.scenarios.chatStreams!.resume!.idsUnsendable).toBe(0);
  });

  it.each([
    ['with a control character', 'msg-\u0001-42'],
    ['longer than the 1 KiB bound', `msg-${'9'.repeat(4 * 1024)}`],
  ])('an id %s cannot go back: the stream reconnects without it, and stream.resume blames the target', async (_what, id) => {
    const run = await runWithIds(id, ['stream.open', 'stream.resume']);
    expect(server!.seen.lastEventIds).toEqual([]);
    const resume = run.report!.scenarios.chatStreams!.resume!;
    expect(resume.idsUnsendable).toBeGreaterThan(0);
    expect(resume.idsUnsendable).toBe(resume.reconnects);
    const check = run.report!.checks.find((c) => c.id === 'stream.resume');
    expect(check?.detail).toMatch(/could not send the target's last event id back/);
  });
});
