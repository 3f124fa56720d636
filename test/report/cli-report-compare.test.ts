import { existsSync } from 'node:fs';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Report } from '../../src/contract/report.js';
import { validateReport } from '../../src/contract/validate-report.js';
import { renderHtml } from '../../src/report/render-html.js';
import { renderJunit } from '../../src/report/render-junit.js';
import { renderMarkdown } from '../../src/report/render-markdown.js';
import { writeReportFiles } from '../../src/report/write-report.js';
import { makeReport } from '../support/make-report.js';
import { runCli } from '../support/run-cli.js';
import { readRunReport } from '../support/run-report.js';

let dir = '';
let stdout = '';
let stderr = '';

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'coachbench-cli-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});
afterEach(() => {
  vi.restoreAllMocks();
});

/** Runs the CLI in-process, keeping what it printed for the assertions. */
async function cli(...argv: string[]): Promise<number> {
  const result = await runCli(argv);
  ({ stdout, stderr } = result);
  return result.code;
}

async function saveReport(name: string, report: Report): Promise<string> {
  const path = join(dir, name);
  await writeFile(path, JSON.stringify(report));
  return path;
}

describe('writeReportFiles', () => {
  it('writes report.json first and the three views beside it', async () => {
    const out = join(dir, 'run-folder');
    const report = makeReport();
    const written = await writeReportFiles(out, report);
    expect(written).toEqual(['report.json', 'report.html', 'junit.xml', 'summary.md'].map((name) => join(out, name)));
    expect(validateReport(await readRunReport(out)).valid).toBe(true);
    expect(await readFile(join(out, 'report.html'), 'utf8')).toBe(renderHtml(report));
    expect(await readFile(join(out, 'junit.xml'), 'utf8')).toBe(renderJunit(report));
    expect(await readFile(join(out, 'summary.md'), 'utf8')).toBe(renderMarkdown(report));
  });
});

describe('coachbench report', () => {
  it('regenerates the three views next to the report when no output is named', async () => {
    const sub = join(dir, 'regen');
    await writeReportFiles(sub, makeReport({ failChecks: ['stream.stall'] }));
    for (const name of ['report.html', 'junit.xml', 'summary.md']) await rm(join(sub, name));
    expect(await cli('report', join(sub, 'report.json'))).toBe(0);
    expect((await readdir(sub)).sort()).toEqual(['junit.xml', 'report.html', 'report.json', 'summary.md']);
    expect(stdout).toContain(`wrote ${join(sub, 'report.html')}`);
  });

  it('writes only the views it is asked for', async () => {
    const path = await saveReport('only-md.json', makeReport());
    const target = join(dir, 'custom-summary.md');
    expect(await cli('report', path, '--markdown', target)).toBe(0);
    expect(await readFile(target, 'utf8')).toContain('coachbench PASS');
    expect(existsSync(join(dir, 'report.html'))).toBe(false);
  });

  it('exits 2 with one line naming the file when the report is invalid', async () => {
    const path = await saveReport('broken.json', { ...makeReport(), verdict: 'maybe' } as unknown as Report);
    expect(await cli('report', path)).toBe(2);
    expect(stderr).toMatch(/^coachbench: .*broken\.json: not a valid coachbench report: \/verdict must be one of \["pass","fail","incomplete"\]\n$/);
  });
});

describe('coachbench compare', () => {
  it('exits 0 for two clean runs and prints the table', async () => {
    const baseline = await saveReport('clean-a.json', makeReport({ seed: 1 }));
    const candidate = await saveReport('clean-b.json', makeReport({ seed: 2 }));
    expect(await cli('compare', baseline, candidate)).toBe(0);
    expect(stdout).toContain('No regressions:');
    expect(stdout).toMatch(/^Metric +Baseline +Candidate +Change +Allowed +Verdict$/m);
  });

  it('exits 1 on a regression and writes the Markdown and HTML views', async () => {
    const baseline = await saveReport('base.json', makeReport({ seed: 1 }));
    const candidate = await saveReport('slow.json', makeReport({ seed: 2, latencyShiftMs: 20 }));
    const md = join(dir, 'compare.md');
    const html = join(dir, 'compare.html');
    expect(await cli('compare', baseline, candidate, '--markdown', md, '--html', html)).toBe(1);
    expect(stdout).toContain('REGRESSION');
    expect(await readFile(md, 'utf8')).toContain('### Regressions');
    expect(await readFile(html, 'utf8')).toContain('data-chart="percentile"');
  });

  it('honours --floor', async () => {
    const baseline = await saveReport('base3.json', makeReport({ seed: 1 }));
    const candidate = await saveReport('slow3.json', makeReport({ seed: 2, latencyShiftMs: 20 }));
    expect(await cli('compare', baseline, candidate, '--floor', 'ms=50')).toBe(0);
    expect(await cli('compare', baseline, candidate, '--floor', 'ms=5')).toBe(1);
  });

  it('honours --max-regression and --metric-regression', async () => {
    const baseline = await saveReport('base2.json', makeReport({ seed: 1 }));
    const candidate = await saveReport('slow2.json', makeReport({ seed: 2, latencyShiftMs: 20 }));
    const everything = ['chatStreams', 'photoUpload', 'tagLink'].flatMap((root) => ['--metric-regression', `${root}=100000%`]);
    expect(await cli('compare', baseline, candidate, '--max-regression', '5%', ...everything)).toBe(0);
  });

  it.each([
    [['--max-regression', '10'], /--max-regression: "10" is ambiguous/],
    [['--metric-regression', 'chatStreams.eventLatncyMs.p99=5%'], /unknown metric "chatStreams\.eventLatncyMs\.p99"/],
  ])('exits 2 on a bad limit %j', async (flags, message) => {
    const path = await saveReport('same.json', makeReport());
    expect(await cli('compare', path, path, ...flags)).toBe(2);
    expect(stderr).toMatch(message);
  });

  it('exits 2 when a report cannot be read', async () => {
    const path = await saveReport('ok.json', makeReport());
    expect(await cli('compare', path, join(dir, 'missing.json'))).toBe(2);
    expect(stderr).toContain('missing.json: ENOENT, no such file or directory');
  });
});
