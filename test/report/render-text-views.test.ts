import { describe, expect, it } from 'vitest';
import { renderJunit } from '../../src/report/render-junit.js';
import { renderMarkdown } from '../../src/report/render-markdown.js';
import { expectGolden } from '../support/golden.js';
import { makeReport } from '../support/make-report.js';

/** The fixed report the goldens pin: a failed check, a skipped one, a failed and a passed threshold, a warning. */
function goldenReport() {
  const report = makeReport({
    failChecks: ['stream.keepalive.cadence'],
    lateKeepAlives: 3,
    tagLink: false,
    thresholds: [
      { expression: 'chatStreams.eventLatencyMs.p99 < 5ms', status: 'fail', observed: 5.747 },
      { expression: 'photoUpload.errorRate < 0.5%', status: 'pass', observed: 2 / 1_800 },
      { expression: 'photoUpload.latencyMs.p999 < 250', status: 'fail', observed: null },
    ],
  });
  report.warnings.push('worker 2 exited early; its last interval is missing');
  return report;
}

const HOSTILE = '<img src=x onerror=alert(1)>|*_`\u0001]]></x>&amp;';

describe('summary.md', () => {
  it('matches the golden file', async () => {
    await expectGolden('summary.md', renderMarkdown(goldenReport()));
  });

  it('leads with the verdict and lists each failed item with its observed value', () => {
    const md = renderMarkdown(goldenReport());
    const lines = md.split('\n');
    expect(lines[0]).toBe('## ❌ coachbench FAIL: smoke');
    const failed = md.slice(md.indexOf('### Failed (3)'), md.indexOf('### Key figures'));
    expect(failed).toContain('| check stream.keepalive.cadence | 3 |');
    expect(failed).toContain('| threshold chatStreams.eventLatencyMs.p99 &lt; 5ms | 5.75 ms |');
    expect(failed).toContain('| threshold photoUpload.latencyMs.p999 &lt; 250 | — \\(metric absent or no samples\\) |');
    expect(md).toContain('| Tag link | off |');
  });

  it('a passing run has no Failed section', () => {
    const md = renderMarkdown(makeReport());
    expect(md.startsWith('## ✅ coachbench PASS: smoke')).toBe(true);
    expect(md).not.toContain('### Failed');
  });

  it('neutralises hostile strings: no raw HTML, no broken table row', () => {
    const md = renderMarkdown(makeReport({ hostile: HOSTILE, failChecks: ['stream.stall'] }));
    expect(md).not.toContain('<img');
    expect(md).not.toContain('\u0001');
    const row = md.split('\n').find((line) => line.startsWith('| check stream.stall'));
    // 3 columns → exactly 4 unescaped pipes however many the hostile text carried.
    expect(row?.replace(/\\\|/g, '').split('|').length).toBe(5);
  });
});

describe('junit.xml', () => {
  it('matches the golden file', async () => {
    await expectGolden('junit.xml', renderJunit(goldenReport()));
  });

  it('has one testcase per check and per threshold, with failures and skips counted', () => {
    const report = goldenReport();
    const xml = renderJunit(report);
    expect(xml.match(/<testcase /g)?.length).toBe(report.checks.length + report.thresholds.length);
    expect(xml).toContain(`<testsuites name="coachbench smoke" tests="${report.checks.length + 3}" failures="3" errors="0" time="30.500">`);
    // Skips are counted on the suite (Jenkins' schema has no skipped on <testsuites>).
    expect(xml).toContain('<testsuite name="coachbench.checks" tests="18" failures="1" errors="0" skipped="3"');
    expect(xml).toMatch(/<testcase name="tags.role.required"[^>]*>\n\s*<skipped message="tagLink scenario is off"\/>/);
    expect(xml).toContain('<failure type="threshold" message="observed 5.75 ms; required chatStreams.eventLatencyMs.p99 &lt; 5ms">');
    expect(xml).toContain('<failure type="check" message="observed 3: 3 violations; first: gap of 17.2 s on cs-000004-1">');
  });

  it('omits the thresholds suite when none were set', () => {
    expect(renderJunit(makeReport())).not.toContain('coachbench.thresholds');
  });

  it('escapes hostile text and shows characters XML 1.0 forbids as visible escapes', () => {
    const xml = renderJunit(makeReport({ hostile: HOSTILE, failChecks: ['stream.stall'] }));
    expect(xml).not.toContain('<img');
    expect(xml).not.toContain(']]></x>');
    expect(xml).not.toContain('\u0001');
    expect(xml).toContain('&lt;img src=x onerror=alert(1)&gt;|*_`\\x01]]&gt;&lt;/x&gt;&amp;amp;');
  });
});
