/**
 * Report files handed to `report`, `compare` and `merge` are the user's input: a corrupt
 * HDR payload is refused up front with exit 2, naming the file and the field, instead of
 * surfacing halfway through as an internal error.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Report } from '../../src/contract/report.js';
import { hdrPayloads } from '../../src/contract/validate-report.js';
import { readReportFile } from '../../src/orchestration/commands/read-report.js';
import { ConfigError, ExitCode } from '../../src/util/errors.js';
import { makeReport } from '../support/make-report.js';
import { runCli } from '../support/run-cli.js';

let dir = '';
let good = '';
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'coachbench-read-report-'));
  good = await save('good.json', makeReport());
});
afterAll(() => rm(dir, { recursive: true, force: true }));

async function save(name: string, report: Report | string): Promise<string> {
  const path = join(dir, name);
  await writeFile(path, typeof report === 'string' ? report : JSON.stringify(report));
  return path;
}

/** A valid report with the HDR payload at `pointer` replaced by `base64`. */
function withHdr(pointer: string, base64: string): Report {
  const report = makeReport();
  const keys = pointer.split('/').slice(1);
  const last = keys.pop() as string;
  const parent = keys.reduce<Record<string, unknown>>((node, key) => node[key] as Record<string, unknown>, report as unknown as Record<string, unknown>);
  expect(typeof parent[last], `${pointer} holds an HDR payload`).toBe('string');
  parent[last] = base64;
  return report;
}

const EVENT_LATENCY = '/scenarios/chatStreams/eventLatencyMs/hdr';

describe('hdrPayloads', () => {
  it('finds the hdr of every latency summary and every entry of the histograms map', () => {
    const pointers = hdrPayloads(makeReport()).map((payload) => payload.pointer);
    expect(pointers).toContain(EVENT_LATENCY);
    expect(pointers).toContain('/generator/eventLoopDelayMs/hdr');
    expect(pointers).toContain('/metrics/histograms/chat.eventLatency');
    expect(pointers.every((pointer) => pointer.endsWith('/hdr') || pointer.startsWith('/metrics/histograms/'))).toBe(true);
  });
});

describe('readReportFile', () => {
  it('reads a good report', async () => {
    expect((await readReportFile(good)).runId).toBe(makeReport().runId);
  });

  const truncated = (): string => {
    const whole = hdrPayloads(makeReport()).find((payload) => payload.pointer === EVENT_LATENCY)!.base64;
    return whole.slice(0, Math.floor(whole.length / 8) * 4);
  };

  it.each<[string, string, () => string]>([
    ['valid base64 that is not a histogram', EVENT_LATENCY, () => Buffer.from('not a histogram at all').toString('base64')],
    ['a truncated histogram', EVENT_LATENCY, truncated],
    ['a foreign payload in the histograms map', '/metrics/histograms/chat.eventLatency', () => 'AAAA'],
  ])('refuses %s, naming the file and the field', async (_, pointer, payload) => {
    const path = await save('corrupt.json', withHdr(pointer, payload()));
    const error = await readReportFile(path).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as Error).message).toMatch(new RegExp(`^${path}: ${pointer.replaceAll('.', '\\.')} is not a valid HDR histogram \\(.+\\)$`));
  });
});

describe('report, compare and merge refuse a corrupt HDR payload with exit 2', () => {
  let corrupt = '';
  beforeAll(async () => {
    corrupt = await save('corrupt-cli.json', withHdr(EVENT_LATENCY, 'AAAA'));
  });

  it.each<[string, () => string[]]>([
    ['report', () => ['report', corrupt, '--html', join(dir, 'out.html')]],
    ['compare (candidate)', () => ['compare', good, corrupt]],
    ['compare (baseline)', () => ['compare', corrupt, good]],
    ['merge', () => ['merge', good, corrupt, '--out', join(dir, 'merged')]],
  ])('%s', async (_, argv) => {
    const result = await runCli(argv());
    expect(result.code).toBe(ExitCode.usage);
    expect(result.stderr).toContain(`${corrupt}: ${EVENT_LATENCY} is not a valid HDR histogram`);
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
    expect(result.stderr).not.toContain('internal error');
  });

  it('report /bin/ls-like input: exit 2, an escaped excerpt, no raw bytes', async () => {
    const binary = await save('binary.json', `\u007fELF\u0002\u0001\u0001\u0000${'\u0000'.repeat(64)}\u001b[2J`);
    const result = await runCli(['report', binary]);
    expect(result.code).toBe(ExitCode.usage);
    expect(result.stderr).toBe(`coachbench: ${binary}:1:1: not valid JSON: unexpected character at "\\x7fELF\\x02\\x01\\x01\\x00…"\n`);
  });
});
