/**
 * docs/benchmarks.md's results table is generated from the latest bench/results/<benchmark>.json
 * (bench/lib/results-table.ts): a doc that says otherwise fails here, and `npm run
 * docs:benchmarks` rewrites it. bench/results/ holds one file per benchmark, each written by the
 * script of its name.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { type PeersResults, renderPeersSummary, splicePeersSummary } from '../../bench/lib/peers-readme.js';
import { BENCHMARKS, renderResultsTable, spliceResultsTable } from '../../bench/lib/results-table.js';

const root = new URL('../../', import.meta.url);
const text = (path: string): string => readFileSync(new URL(path, root), 'utf8');
const results = (benchmark: string): unknown => {
  try {
    return JSON.parse(text(`bench/results/${benchmark}.json`));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
};
const scripts = readdirSync(new URL('bench/', root)).filter((name) => name.endsWith('.js'));

describe('the figures behind the code', () => {
  it('names only files that exist (a figure for removed code goes with the code)', () => {
    const doc = text('docs/benchmarks.md');
    const table = doc.slice(doc.indexOf('## Figures behind the code'), doc.indexOf('## Peers'));
    const paths = [...table.matchAll(/^\| `([^`]+)` \|/gm)].map((match) => match[1]!);
    expect(paths.length).toBeGreaterThan(10);
    for (const path of paths) expect(existsSync(new URL(path, root)), path).toBe(true);
  });
});

describe("the README's quote of the peers measurement", () => {
  it('is the table bench/peers.js renders from bench/results/peers.json (node bench/peers.js --table-only rewrites it)', () => {
    const readme = text('README.md');
    const peers = results('peers') as PeersResults;
    expect(splicePeersSummary(readme, renderPeersSummary(peers))).toBe(readme);
    const moved = { ...peers, workloads: { ...peers.workloads, closed: { ...peers.workloads.closed, medians: { coachbench: { cpuUsPerRequest: 9_876 } } } } };
    expect(splicePeersSummary(readme, renderPeersSummary(moved))).toContain('| 9876 µs |');
  });

  it('leaves the README within its 300 lines', () => {
    expect(text('README.md').trimEnd().split('\n').length).toBeLessThanOrEqual(300);
  });
});

describe('the benchmark results table', () => {
  it('docs/benchmarks.md holds the table of the latest results files (npm run docs:benchmarks rewrites it)', () => {
    const doc = text('docs/benchmarks.md');
    expect(spliceResultsTable(doc, renderResultsTable(results))).toBe(doc);
  });

  it('tells apart a results file whose figure moved, and refuses a doc without markers', () => {
    const doc = text('docs/benchmarks.md');
    const moved = (benchmark: string) => {
      const record = results(benchmark) as { medianFixedCpuSeconds?: number } | null;
      return benchmark === 'startup' && record ? { ...record, medianFixedCpuSeconds: 9.87 } : record;
    };
    const rewritten = spliceResultsTable(doc, renderResultsTable(moved));
    expect(rewritten).not.toBe(doc);
    expect(rewritten).toContain('fixed CPU per run **9.87 s**');
    expect(() => spliceResultsTable('# no table here\n', renderResultsTable(results))).toThrow(/results:start/);
  });

  it('has a row for every benchmark of npm run bench, from its own file', () => {
    const runAll = text('bench/run-all.js');
    const inRunAll = [...runAll.matchAll(/\['([a-z0-9-]+)\.js'/g)].map((match) => match[1]!);
    expect(inRunAll.length).toBeGreaterThan(5);
    for (const benchmark of inRunAll) {
      expect(BENCHMARKS, `bench/${benchmark}.js`).toContain(benchmark);
      expect(results(benchmark), `bench/results/${benchmark}.json`).not.toBeNull();
    }
  });

  it('keeps one results file per benchmark, named for the script that writes it', () => {
    for (const file of readdirSync(new URL('bench/results/', root))) {
      expect(file, 'a results file is <benchmark>.json').toMatch(/^[a-z0-9-]+\.json$/);
      expect(scripts, `bench/results/${file} is written by bench/${file.replace(/json$/, 'js')}`).toContain(file.replace(/json$/, 'js'));
    }
  });

  it('has every benchmark script write bench/results/<its name>.json and no other name', () => {
    for (const script of scripts) {
      const calls = [...text(`bench/${script}`).matchAll(/writeResults\(\s*([^,]+),/g)].map((match) => match[1]!.trim());
      for (const name of calls) expect(name, `bench/${script}`).toBe(`'${script.replace(/\.js$/, '')}'`);
    }
  });
});
