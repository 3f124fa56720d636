/**
 * What reaches a terminal or a report (issue 27, items 11 and 12), through bin/coachbench.js
 * (dist/): a target that answers with terminal escapes, a carriage return and bidi controls
 * in a photoUrl and in a problem answer's media type, and that echoes each participant's
 * token (holding `/`, `+`, `=` and `.`) back in the photoUrl. Nothing it sent reaches stdout,
 * stderr or a report file raw, and no token reaches any of them at all. Then `compare` and
 * `trend` read report.json files with a hostile profile name, runId and threshold.
 */
import { mkdtemp, readdir, readFile, writeFile } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Report } from '../../src/contract/report.js';
import { type BinResult, runBin } from '../support/bin-helpers.js';
import { hostileRequestProfile } from '../support/hostile-run.js';
import { readRunReport } from '../support/run-report.js';
import { GOOD_HEADERS, startServer, type TestServer } from '../support/throughput-helpers.js';

/** ESC [2J (clear screen), BEL, CR (back to the line start), RLO and an isolate: what a terminal or viewer acts on. */
const HOSTILE = '\u001b[2J\u0007\r\u202e\u2066';
/** CSI as one C1 character: the only control a header value can carry (Node and undici refuse C0 there). */
const C1_CSI = '\u009b';
const TOKENS = ['abc/def+ghi=', 'tok.en/with.dots==', 'x+y/z.w=/v', 'slash/only/token'];
/** What must never be written raw: C0 controls but line feed and tab, DEL, C1, bidi controls. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: the controls are what must be absent.
const RAW_CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/u;

const KEEP_ALIVE = 'data: {"eventType":"KEEP_ALIVE","payload":null}\n\n';

const bearerOf = (req: IncomingMessage): string => /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1] ?? 'none';

/** Streams get an invalid frame echoing the token, then a KEEP_ALIVE every 500 ms; a photo upload gets a photoUrl with escapes and the caller's token; anything else a 400 with a hostile media type. */
function hostileEcho(req: IncomingMessage, res: ServerResponse): void {
  if (req.method === 'OPTIONS') return void res.writeHead(204, GOOD_HEADERS).end();
  if (req.method === 'GET' && /\/stream$/.test(req.url ?? '')) {
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-store' });
    // A frame that is no event, with the caller's token where the sample's 80-character excerpt ends.
    res.write(`data: ${'x'.repeat(70)}${bearerOf(req)}${'y'.repeat(40)}\n\n`);
    const timer = setInterval(() => res.write(KEEP_ALIVE), 500);
    res.on('close', () => clearInterval(timer));
    return;
  }
  req.resume();
  req.on('end', () => {
    const token = bearerOf(req);
    if (req.method === 'PATCH') {
      const body = JSON.stringify({ userId: 'p', photoUrl: `${HOSTILE}https://x/${token}.txt` });
      res.writeHead(200, { ...GOOD_HEADERS, 'content-type': 'application/json' }).end(body);
    } else {
      const body = JSON.stringify({ title: `${HOSTILE} for ${token}`, status: 400 });
      res.writeHead(400, { ...GOOD_HEADERS, 'content-type': `application/problem${C1_CSI}2J+json` }).end(body);
    }
  });
}

let server: TestServer;
let dir: string;
let run: BinResult;
let report: Report;

beforeAll(async () => {
  server = await startServer(hostileEcho);
  dir = await mkdtemp(join(tmpdir(), 'coachbench-terminal-'));
  const participants = TOKENS.map((token, n) => ({ userId: `p-${n}`, token, chatSessionIds: [`cs-${n}-1`] }));
  await writeFile(join(dir, 'fixtures.json'), JSON.stringify({ coachToken: 'coach-terminal-safety', participants }));
  await writeFile(join(dir, 'profile.json'), JSON.stringify(hostileRequestProfile()));
  run = await runBin(['run', '-p', join(dir, 'profile.json'), '-t', server.url, '-f', join(dir, 'fixtures.json'), '--out', join(dir, 'out')], {
    env: { COACHBENCH_API_KEY: 'k-terminal-safety' },
  });
  report = await readRunReport(join(dir, 'out'));
}, 60_000);

afterAll(async () => {
  await server?.close();
});

describe('a target that answers with terminal escapes and echoes tokens', () => {
  it('fails on it, and the closing lines show the escapes as text', () => {
    expect(run.code, run.stderr).toBe(1);
    const failed = report.checks.filter((check) => check.status === 'fail').map((check) => check.id);
    expect(failed).toContain('photo.upload');
    expect(failed).toContain('errors.problem_json');
    expect(run.stderr).not.toMatch(RAW_CONTROL);
    expect(run.stdout).not.toMatch(RAW_CONTROL);
    const photoLine = run.stderr.split('\n').find((line) => line.startsWith('  ✗ photo.upload:'));
    expect(photoLine, run.stderr).toContain('\\x1b[2J\\x07\\x0d\\u{202e}\\u{2066}https://x/');
    const problemLine = run.stderr.split('\n').find((line) => line.startsWith('  ✗ errors.problem_json:'));
    expect(problemLine, run.stderr).toContain('application/problem\\x9b2j+json');
  });

  it('writes no token and no raw control character to stderr or any report file', async () => {
    const files = await readdir(join(dir, 'out'));
    expect(files).toEqual(expect.arrayContaining(['report.json', 'report.html', 'summary.md', 'junit.xml']));
    const outputs: Record<string, string> = { stderr: run.stderr, stdout: run.stdout };
    for (const file of files) outputs[file] = await readFile(join(dir, 'out', file), 'utf8');
    for (const [name, text] of Object.entries(outputs)) {
      // Not even a piece of one: the stream's excerpt was cut in the middle of a token.
      for (const token of TOKENS) expect(text.includes(token.slice(0, 8)), `${token} in ${name}`).toBe(false);
      expect(RAW_CONTROL.exec(text)?.[0], name).toBeUndefined();
    }
    // The photoUrl was seen and masked, not dropped: the evidence still names what was wrong.
    expect(report.checks.find((check) => check.id === 'photo.upload')?.detail).toMatch(/https:\/\/x\/\*\*\*\.txt/);
    expect(report.scenarios.chatStreams?.samples.join('\n')).toContain(`"${'x'.repeat(70)}***`);
  });
});

describe('compare and trend of report.json files with hostile names', () => {
  const hostileReport = (n: number): Report => ({
    ...report,
    runId: `run-${n}${HOSTILE}\nPASS: forged`,
    profile: { ...report.profile, name: `evil${HOSTILE}${C1_CSI}31m` },
    thresholds: [{ expression: `chatStreams.eventLatencyMs.p99 < 5ms${HOSTILE}`, status: 'pass', observed: 1 }],
  });

  it('compare prints the profile name and runId escaped, on their own lines', async () => {
    const [a, b] = [join(dir, 'a.json'), join(dir, 'b.json')];
    await writeFile(a, JSON.stringify(hostileReport(1)));
    await writeFile(b, JSON.stringify(hostileReport(2)));
    const compared = await runBin(['compare', a, b]);
    expect(compared.code, compared.stderr).not.toBe(2);
    const text = compared.stdout + compared.stderr;
    expect(text).not.toMatch(RAW_CONTROL);
    expect(text).toContain('baseline: evil\\x1b[2J\\x07\\x0d\\u{202e}\\u{2066}\\x9b31m · run-1\\x1b[2J\\x07\\x0d\\u{202e}\\u{2066}\\x0aPASS: forged');
    expect(text.split('\n').some((line) => line.startsWith('PASS: forged'))).toBe(false);
  });

  it('trend prints the profile name, runIds and threshold text escaped', async () => {
    const paths = [1, 2, 3].map((n) => join(dir, `t${n}.json`));
    await Promise.all(paths.map((path, i) => writeFile(path, JSON.stringify({ ...hostileReport(i + 1), startedAt: `2026-11-2${i}T00:00:00.000Z` }))));
    const trended = await runBin(['trend', ...paths, '--out', join(dir, 'trend')]);
    expect(trended.code, trended.stderr).toBe(0);
    const text = trended.stdout + trended.stderr;
    expect(text).not.toMatch(RAW_CONTROL);
    expect(text).toContain('evil\\x1b[2J\\x07\\x0d\\u{202e}\\u{2066}\\x9b31m');
    for (const file of ['trend.md', 'trend.html', 'trend.json'])
      expect(RAW_CONTROL.exec(await readFile(join(dir, 'trend', file), 'utf8'))?.[0], file).toBeUndefined();
  });
});
