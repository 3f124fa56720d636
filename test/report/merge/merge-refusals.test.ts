/**
 * Reports that are not shards of one run are refused with one ConfigError line (exit 2)
 * naming the file and the difference; differences that do not change what was measured
 * only warn.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Report } from '../../../src/contract/report.js';
import { mergeReports } from '../../../src/report/merge/merge-reports.js';
import { ConfigError } from '../../../src/util/errors.js';
import { type ShardBench, shardBench } from '../../support/shard-runs.js';

let bench: ShardBench;
let a: Report;
let b: Report;

beforeAll(async () => {
  bench = await shardBench();
  const target = await bench.target();
  const [first, second] = await Promise.all([bench.shard(target.url, 0, 2), bench.shard(target.url, 1, 2)]);
  a = first!.report;
  b = second!.report;
});
afterAll(() => bench.close());

/** A copy of the second shard, changed as `edit` says. */
const variant = (edit: (r: Report) => void): Report => {
  const copy = structuredClone(b);
  edit(copy);
  return copy;
};

function refusal(reports: Report[], sources: string[]): ConfigError {
  try {
    mergeReports(reports, sources);
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return error as ConfigError;
  }
  throw new Error('the merge was not refused');
}

describe('merge refuses', () => {
  it.each<[string, (r: Report) => void, RegExp]>([
    [
      'a different profile',
      (r) => {
        (r.profile as Record<string, unknown>).durationMs = 9_000;
      },
      /b\.json: profile differs from a\.json at durationMs \(2000 vs 9000\)/,
    ],
    [
      'a different nested profile setting',
      (r) => {
        ((r.profile as Record<string, unknown>).chatStreams as Record<string, unknown>).messageRatePerSec = 41;
      },
      /at chatStreams\.messageRatePerSec \(40 vs 41\)/,
    ],
    [
      'a different shard count',
      (r) => {
        r.shard = { index: 1, count: 3 };
      },
      /b\.json: is shard 1\/3 but a\.json is shard 0\/2: shard counts differ/,
    ],
    [
      'an overlapping shard',
      (r) => {
        r.shard = { index: 0, count: 2 };
      },
      /b\.json: shard 0\/2 overlaps a\.json/,
    ],
    [
      'an unsharded report',
      (r) => {
        r.shard = null;
      },
      /b\.json: is not a shard report \(run each part with --shard I\/N\)/,
    ],
    [
      'another schema major',
      (r) => {
        r.schemaVersion = '2.0.0';
      },
      /schemaVersion 2\.0\.0 cannot merge with 1\./,
    ],
    [
      'an embedded target mixed with an external one',
      (r) => {
        r.target = { url: 'http://127.0.0.1:1', embedded: true };
      },
      /b\.json: ran its own embedded target but a\.json did not/,
    ],
    [
      'another KEEP_ALIVE expectation',
      (r) => {
        r.scenarios.chatStreams!.expectedKeepAliveMs = 15_000;
      },
      /held streams to KEEP_ALIVE 15000 ± 500 ms, a\.json to 500 ± 500 ms/,
    ],
    [
      'a capacity search',
      (r) => {
        r.capacity = {
          variable: 'chatStreams.participants',
          loadUnit: 'participants',
          slos: [],
          steps: [],
          maxSustainableLoad: null,
          firstFailingLoad: null,
          stoppedBecause: 'max',
        };
      },
      /b\.json: is a capacity search: shards search on their own/,
    ],
    [
      'a hand-made profile',
      (r) => {
        r.profile = { name: 'merge-test' };
      },
      /profile differs from a\.json/,
    ],
  ])('%s', (_name, edit, message) => {
    const error = refusal([a, variant(edit)], ['a.json', 'b.json']);
    expect(error.message).toMatch(/^cannot merge: /);
    expect(error.message).toMatch(message);
    expect(error.message).not.toContain('\n');
    expect(error.exitCode).toBe(2);
  });

  it('the same report given twice', () => {
    expect(refusal([a, a], ['a.json', 'a-again.json']).message).toMatch(/a-again\.json: shard 0\/2 overlaps a\.json/);
  });

  it('lists every problem at once', () => {
    const message = refusal(
      [
        a,
        variant((r) => {
          r.shard = null;
        }),
        variant((r) => {
          r.profile = { ...r.profile, durationMs: 1 };
        }),
      ],
      ['a.json', 'b.json', 'c.json'],
    ).message;
    expect(message).toMatch(/b\.json: is not a shard report/);
    expect(message).toMatch(/c\.json: profile differs/);
  });

  it('a report whose profile cannot be read, when it leads', () => {
    const bare = variant((r) => {
      r.profile = { name: 'merge-test' };
    });
    expect(refusal([bare], ['b.json']).message).toMatch(/b\.json: profile is not a resolved coachbench profile/);
  });
});

describe('merge warns but goes on', () => {
  it('when shards drove different URLs of an external target', () => {
    const merged = mergeReports(
      [
        a,
        variant((r) => {
          r.target = { url: 'http://10.0.0.2:8080', embedded: false };
        }),
      ],
      ['a.json', 'b.json'],
    );
    expect(merged.warnings).toEqual([
      expect.stringMatching(/^shards drove different target URLs, merged as one service: .*\(shard 0\/2\); http:\/\/10\.0\.0\.2:8080 \(shard 1\/2\)$/),
    ]);
    expect(merged.target.url).toBe(`${a.target.url}, http://10.0.0.2:8080`);
  });

  it('when shards were given different --threshold flags: every one is judged on the merged data', () => {
    const extra = variant((r) => {
      r.thresholds = [...r.thresholds, { expression: 'chatStreams.openFailed == 0', status: 'pass', observed: 0 }];
    });
    const merged = mergeReports([a, extra], ['a.json', 'b.json']);
    expect(merged.thresholds.map((t) => t.expression)).toEqual(['chatStreams.opened > 0', 'chatStreams.openFailed == 0']);
    expect(merged.warnings.join('\n')).toMatch(/different --threshold flags/);
  });

  it('when shards did not overlap in time (a stale shard of another run)', () => {
    const later = (iso: string): string => new Date(Date.parse(iso) + 3_600_000).toISOString();
    const stale = variant((r) => {
      r.startedAt = later(r.startedAt);
      r.endedAt = later(r.endedAt);
    });
    const merged = mergeReports([a, stale], ['a.json', 'b.json']);
    expect(merged.warnings).toEqual([expect.stringMatching(/^shards did not run side by side: shard 1\/2 started at .*, after shard 0\/2 ended at /)]);
    expect(merged.endedAt).toBe(stale.endedAt);
  });

  it('fails when a shard failed outside its checks and thresholds (a worker died under the fail policy)', () => {
    const died = variant((r) => {
      r.verdict = 'fail';
      r.warnings = ['worker 0 exited with code 1'];
    });
    expect(died.checks.filter((c) => c.status === 'fail')).toEqual([]);
    const merged = mergeReports([a, died], ['a.json', 'b.json']);
    expect(merged.checks.filter((c) => c.status === 'fail')).toEqual([]);
    expect(merged.warnings).toEqual([
      '[shard 1/2] worker 0 exited with code 1',
      '[shard 1/2] failed for a reason outside its checks and thresholds (see its warnings), so the merged verdict is fail',
    ]);
    expect(merged.verdict).toBe('fail');
    expect(mergeReports([a, b], ['a.json', 'b.json']).verdict).toBe(a.verdict === 'pass' && b.verdict === 'pass' ? 'pass' : 'fail');
  });

  it('carries each shard warning and interruption, prefixed with the shard', () => {
    const merged = mergeReports(
      [
        a,
        variant((r) => {
          r.interrupted = true;
          r.warnings = ['worker 1 died (SIGKILL)'];
        }),
      ],
      ['a.json', 'b.json'],
    );
    expect(merged.interrupted).toBe(true);
    expect(merged.warnings).toEqual([
      '[shard 1/2] was interrupted: its figures cover only the part that ran, so the merged verdict is fail',
      '[shard 1/2] worker 1 died (SIGKILL)',
    ]);
    expect(merged.verdict).toBe('fail');
  });
});
