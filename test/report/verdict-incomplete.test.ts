/**
 * An incomplete verdict reads as such in every view: report.json validates, the HTML says
 * INCOMPLETE with the checks it has no evidence for, summary.md says so in its heading and
 * a table, and junit.xml fails each core check without evidence instead of skipping it.
 */
import { describe, expect, it } from 'vitest';
import type { Report } from '../../src/contract/report.js';
import { validateReport } from '../../src/contract/validate-report.js';
import { renderHtml } from '../../src/report/render-html.js';
import { renderJunit } from '../../src/report/render-junit.js';
import { renderMarkdown } from '../../src/report/render-markdown.js';
import { checksWithoutEvidence, verdictWord } from '../../src/report/report-facts.js';
import { makeReport } from '../support/make-report.js';

const CADENCE_REASON = 'no gap between two KEEP_ALIVEs on one stream (300 first KEEP_ALIVEs seen): no stream lived through two 15000 ms intervals';

/** A healthy report in which the cadence and tags.link had no evidence. */
function incompleteReport(): Report {
  const report = makeReport();
  report.coreChecks = ['stream.open', 'stream.keepalive.cadence', 'stream.stall', 'photo.upload', 'tags.link'];
  for (const check of report.checks) {
    if (check.id === 'stream.keepalive.cadence') Object.assign(check, { status: 'skip', observed: null, detail: CADENCE_REASON });
    if (check.id === 'tags.link') Object.assign(check, { status: 'skip', observed: null, detail: 'no create-and-link naming a new tag was answered' });
    // Not core: its skip changes nothing.
    if (check.id === 'errors.problem_json') Object.assign(check, { status: 'skip', observed: null, detail: 'no 4xx or 5xx answer was seen' });
  }
  report.verdict = 'incomplete';
  return report;
}

describe('an incomplete verdict', () => {
  it('is valid report.json and names the core checks without evidence, in report order', () => {
    const report = incompleteReport();
    expect(validateReport(JSON.parse(JSON.stringify(report)))).toEqual({ valid: true, errors: [] });
    expect(checksWithoutEvidence(report).map((check) => check.id)).toEqual(['stream.keepalive.cadence', 'tags.link']);
    expect(verdictWord(report)).toBe('INCOMPLETE');
  });

  it('HTML: an INCOMPLETE verdict box, never a green one, and the reasons', () => {
    const html = renderHtml(incompleteReport());
    expect(html).toContain('data-verdict="incomplete"');
    expect(html).not.toContain('data-verdict="pass"');
    expect(html).toContain('<span class="word">INCOMPLETE</span>');
    expect(html).toContain('no evidence for stream.keepalive.cadence, tags.link');
    expect(html).toMatch(/id="no-evidence"><strong>No evidence \(2\)<\/strong>.*stream\.keepalive\.cadence<\/code><\/strong>: no gap between two KEEP_ALIVEs/);
  });

  it('Markdown: the heading and a No evidence table', () => {
    const markdown = renderMarkdown(incompleteReport());
    expect(markdown.split('\n')[0]).toBe('## ⚠️ coachbench INCOMPLETE: smoke');
    expect(markdown).toContain('### No evidence (2)');
    expect(markdown).toContain('The run is INCOMPLETE: no evidence for stream.keepalive.cadence, tags.link.');
    // Cells are escaped: KEEP_ALIVE reads KEEP\_ALIVE in the source.
    expect(markdown).toMatch(/\| check stream\.keepalive\.cadence \| no gap between two KEEP\\_ALIVEs/);
  });

  it('JUnit: each core check without evidence is a no-evidence failure, other skips stay skipped', () => {
    const junit = renderJunit(incompleteReport());
    expect(junit).toContain('<property name="verdict" value="incomplete"/>');
    expect(junit).toMatch(
      /<testcase name="stream\.keepalive\.cadence"[^>]*>\s*<failure type="no-evidence" message="no evidence: no gap between two KEEP_ALIVEs/,
    );
    expect(junit).toMatch(/<testcase name="tags\.link"[^>]*>\s*<failure type="no-evidence"/);
    expect(junit).toMatch(/<testcase name="errors\.problem_json"[^>]*>\s*<skipped message="no 4xx or 5xx answer was seen"\/>/);
    expect(junit).toMatch(/<testsuite name="coachbench\.checks" tests="18" failures="2" errors="0" skipped="1"/);
  });

  it('a pass and a fail render as before', () => {
    expect(renderHtml(makeReport())).toContain('data-verdict="pass"');
    const failed = makeReport({ failChecks: ['stream.stall'] });
    expect(renderMarkdown(failed).split('\n')[0]).toBe('## ❌ coachbench FAIL: smoke');
    expect(renderJunit(failed)).not.toContain('no-evidence');
  });
});
