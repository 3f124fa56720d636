import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHECK_IDS } from '../../src/contract/check-ids.js';
import { REPORT_SCHEMA_VERSION } from '../../src/contract/report.js';
import { loadReport, REPORT_SCHEMA_URL, validateReport } from '../../src/contract/validate-report.js';
import { ConfigError } from '../../src/util/errors.js';
import { makeCapacity, makeReport } from '../support/make-report.js';

/** A deep copy as plain JSON, so tests can break it without the type system objecting. */
function mutable(value: unknown): Record<string, unknown> {
  return JSON.parse(JSON.stringify(value)) as Record<string, unknown>;
}

function at(root: Record<string, unknown>, path: string): Record<string, unknown> {
  return path.split('.').reduce<Record<string, unknown>>((node, key) => node[key] as Record<string, unknown>, root);
}

describe('report schema', () => {
  it('accepts built reports: full, scenarios off, failing, interrupted, with capacity', () => {
    const variants = [
      makeReport(),
      makeReport({ chatStreams: false, photoUpload: false, tagLink: false }),
      makeReport({ failChecks: ['stream.stall'], thresholds: [{ expression: 'chatStreams.dropped == 0', status: 'fail', observed: null }] }),
      makeReport({ interrupted: true, hostile: '<script>alert(1)</script>' }),
      { ...makeReport(), capacity: makeCapacity(), mergedFrom: ['a.json'], shard: { index: 0, count: 2 } },
      {
        ...makeReport(),
        workers: [
          { index: 0, participants: 150, counters: { 'chat.opened': 150 } },
          { index: 1, participants: 150, counters: null },
        ],
      },
    ];
    for (const report of variants) expect(validateReport(JSON.parse(JSON.stringify(report)))).toEqual({ valid: true, errors: [] });
  });

  it('pins the check ids and the schema version to the TypeScript contract', async () => {
    const schema = JSON.parse(await readFile(REPORT_SCHEMA_URL, 'utf8')) as {
      $defs: { check: { properties: { id: { enum: string[] } } } };
      properties: { schemaVersion: { pattern: string } };
    };
    expect(schema.$defs.check.properties.id.enum).toEqual([...CHECK_IDS]);
    expect(new RegExp(schema.properties.schemaVersion.pattern).test(REPORT_SCHEMA_VERSION)).toBe(true);
  });

  it.each([
    ['a missing top-level field', (r: Record<string, unknown>) => delete r.schemaVersion, "report must have required property 'schemaVersion'"],
    [
      'a missing scenario field',
      (r: Record<string, unknown>) => delete at(r, 'scenarios.chatStreams').duplicates,
      "/scenarios/chatStreams must have required property 'duplicates'",
    ],
    [
      'a mistyped number',
      (r: Record<string, unknown>) => {
        at(r, 'scenarios.photoUpload').errorRate = '0.1%';
      },
      '/scenarios/photoUpload/errorRate must be number',
    ],
    [
      'a negative count',
      (r: Record<string, unknown>) => {
        at(r, 'scenarios.tagLink').errors = -1;
      },
      '/scenarios/tagLink/errors must be >= 0',
    ],
    [
      'an unknown check id',
      (r: Record<string, unknown>) => {
        (r.checks as Record<string, unknown>[])[0]!.id = 'stream.nope';
      },
      '/checks/0/id must be one of',
    ],
    [
      'a bad verdict',
      (r: Record<string, unknown>) => {
        r.verdict = 'ok';
      },
      '/verdict must be one of ["pass","fail","incomplete"]',
    ],
    [
      'a histogram without hdr',
      (r: Record<string, unknown>) => delete at(r, 'generator.eventLoopDelayMs').hdr,
      "/generator/eventLoopDelayMs must have required property 'hdr'",
    ],
    [
      'a non-base64 hdr',
      (r: Record<string, unknown>) => {
        at(r, 'scenarios.chatStreams.eventLatencyMs').hdr = 'not base64!';
      },
      '/scenarios/chatStreams/eventLatencyMs/hdr must match pattern',
    ],
    [
      'a bad timestamp',
      (r: Record<string, unknown>) => {
        r.startedAt = 'yesterday';
      },
      '/startedAt must match pattern',
    ],
    [
      'a scenario of the wrong type',
      (r: Record<string, unknown>) => {
        at(r, 'scenarios').tagLink = 'off';
      },
      '/scenarios/tagLink must be object',
    ],
    [
      'a capacity step without its values',
      (r: Record<string, unknown>) => {
        r.capacity = makeCapacity();
        delete (at(r, 'capacity').steps as Record<string, unknown>[])[1]!.values;
      },
      "/capacity/steps/1 must have required property 'values'",
    ],
    [
      'a timeseries point missing a field',
      (r: Record<string, unknown>) => delete (r.timeseries as Record<string, unknown>[])[3]!.rssBytes,
      "/timeseries/3 must have required property 'rssBytes'",
    ],
  ])('rejects %s', (_name, breakIt, message) => {
    const report = mutable(makeReport());
    breakIt(report);
    const result = validateReport(report);
    expect(result.valid).toBe(false);
    expect(result.errors.some((error) => error.startsWith(message))).toBe(true);
  });

  it('reports a null-or-object scenario error once, not once per oneOf branch', () => {
    const report = mutable(makeReport());
    delete at(report, 'scenarios.chatStreams').stalled;
    expect(validateReport(report).errors).toEqual(["/scenarios/chatStreams must have required property 'stalled'"]);
  });

  it('refuses another major schema version with a clear reason', () => {
    const report = mutable(makeReport());
    report.schemaVersion = '2.0.0';
    expect(validateReport(report)).toEqual({ valid: false, errors: ['schemaVersion 2.0.0 is not supported (this coachbench reads 1.x)'] });
  });

  it('rejects non-objects', () => {
    expect(validateReport(null).valid).toBe(false);
    expect(validateReport([]).valid).toBe(false);
  });
});

describe('loadReport', () => {
  let dir = '';
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'coachbench-load-'));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('returns a valid report', async () => {
    const path = join(dir, 'ok.json');
    const report = makeReport();
    await writeFile(path, JSON.stringify(report));
    expect(await loadReport(path)).toEqual(JSON.parse(JSON.stringify(report)));
  });

  it.each([
    ['missing.json', null, /missing\.json: ENOENT, no such file or directory$/],
    ['broken.json', '{"schemaVersion": ', /broken\.json:1:19: not valid JSON: expected a value at the end of the file$/],
    [
      'invalid.json',
      JSON.stringify({ schemaVersion: '1.0.0' }),
      /invalid\.json: not a valid coachbench report: report must have required property 'tool'; .* \(\+\d+ more\)$/,
    ],
  ])('throws a one-line ConfigError naming %s', async (name, content, pattern) => {
    const path = join(dir, name);
    if (content !== null) await writeFile(path, content);
    const error = await loadReport(path).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as Error).message).toMatch(pattern);
    expect((error as Error).message).not.toContain('\n');
  });
});
