/**
 * A target whose words a sample quotes may make them as long as a frame allows (docs/design.md
 * §6, "Bounded samples"): every stream here carries, twice a second, a message of another
 * session whose id is 512 KiB. The run fails stream.session.isolation, and every sample it
 * keeps, of the scenario and of the checks, is cut to the bound, so the report stays small.
 * Needs dist/ (npm run build).
 */
import type { ServerResponse } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { MAX_SAMPLE_CHARS } from '../../src/metrics/metric-set.js';
import { hostileProfile, runAgainst } from '../support/hostile-run.js';
import { type HostileServer, startStreamServer } from '../support/hostile-servers.js';

const KiB = 1024;
const FOREIGN_SESSION = `other-${'s'.repeat(512 * KiB)}`;
const KEEP_ALIVE = 'data: {"eventType":"KEEP_ALIVE","payload":null}\n\n';
const FOREIGN_MESSAGE = `data: ${JSON.stringify({
  eventType: 'MESSAGE_SENT',
  payload: [{ id: 'm-1', chatSessionId: FOREIGN_SESSION, senderId: 'p-9', senderType: 'PARTICIPANT', text: 'hello', sentAt: '2026-01-01T00:00:00Z' }],
})}\n\n`;

let server: HostileServer | undefined;

afterEach(async () => {
  await server?.close();
  server = undefined;
});

function foreignMessages(res: ServerResponse, written: (bytes: number) => void): void {
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-store' });
  res.flushHeaders();
  const timer = setInterval(() => {
    res.write(KEEP_ALIVE + FOREIGN_MESSAGE);
    written(KEEP_ALIVE.length + FOREIGN_MESSAGE.length);
  }, 500);
  res.on('close', () => clearInterval(timer));
}

/** Every sample a report keeps: the chat scenario's, each check's, and the raw metrics'. */
function samplesIn(report: Record<string, unknown>): string[] {
  const found: string[] = [];
  const walk = (value: unknown, key: string): void => {
    if (Array.isArray(value)) {
      for (const item of value) if (/samples$/i.test(key) && typeof item === 'string') found.push(item);
      for (const item of value) walk(item, key);
    } else if (value !== null && typeof value === 'object') {
      for (const [name, inner] of Object.entries(value)) walk(inner, /samples$/i.test(key) ? key : name);
    }
  };
  walk(report, '');
  return found;
}

describe('hostile target: long words in samples (bin/coachbench.js run --target)', () => {
  it('a session id of 512 KiB is quoted at most MAX_SAMPLE_CHARS long', async () => {
    server = await startStreamServer(foreignMessages);
    const run = await runAgainst(server.url, hostileProfile({ keepAliveTolerance: '90%' }));
    expect(run.code, run.stderr).toBe(1);
    const report = run.report!;
    expect(report.scenarios.chatStreams!.isolationViolations).toBeGreaterThan(0);
    expect(report.checks.find((check) => check.id === 'stream.session.isolation')?.status).toBe('fail');
    const samples = samplesIn(report as unknown as Record<string, unknown>);
    const quoting = samples.filter((sample) => sample.includes('carried an event of session other-sss'));
    expect(quoting.length).toBeGreaterThan(0);
    for (const sample of samples) expect(sample.length).toBeLessThanOrEqual(MAX_SAMPLE_CHARS);
    // Five samples of the whole id would have made it megabytes.
    expect(JSON.stringify(report).length).toBeLessThan(512 * KiB);
  });
});
