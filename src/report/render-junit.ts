/**
 * junit.xml for CI test tabs: one testcase per conformance check and per threshold.
 * A failure carries the observed value and the detail; a skipped check is `<skipped/>`,
 * except in an incomplete run, where a core check without evidence is a `no-evidence`
 * failure: the run exits 1 for it, and a CI test tab must not show it as merely skipped.
 * Each testcase's time is the span its evidence was gathered over (junit-times.ts).
 * Valid against Jenkins' JUnit schema (test/report/junit-xsd.test.ts).
 * Deterministic for a given report (no clock, no host name) so it can be golden-tested.
 */

import type { CheckId } from '../contract/check-ids.js';
import type { CheckResult, Report, ThresholdResult } from '../contract/report.js';
import { describeAbort } from './describe-abort.js';
import { escapeXml } from './escape.js';
import { formatObserved } from './format.js';
import { checkSeconds, thresholdSeconds } from './junit-times.js';
import { checksWithoutEvidence, checkTally, formatThresholdObserved, thresholdTally } from './report-facts.js';

const seconds = (ms: number): string => (ms / 1_000).toFixed(3);

function checkCase(report: Report, check: CheckResult, noEvidence: ReadonlySet<CheckId>): string {
  const open = `    <testcase name="${escapeXml(check.id)}" classname="coachbench.checks" time="${seconds(checkSeconds(report, check) * 1_000)}">`;
  const observed = formatObserved(check.observed);
  const out = `      <system-out>${escapeXml(`observed: ${observed}\ndetail: ${check.detail}`)}</system-out>`;
  if (check.status === 'pass') return [open, out, '    </testcase>'].join('\n');
  if (noEvidence.has(check.id)) {
    const message = `no evidence: ${check.detail}`;
    return [
      open,
      `      <failure type="no-evidence" message="${escapeXml(message)}">${escapeXml(`check: ${check.id}\nthe run is incomplete: this core check has no evidence\ndetail: ${check.detail}`)}</failure>`,
      '    </testcase>',
    ].join('\n');
  }
  if (check.status === 'skip') return [open, `      <skipped message="${escapeXml(check.detail)}"/>`, '    </testcase>'].join('\n');
  const message = `observed ${observed}: ${check.detail}`;
  return [
    open,
    `      <failure type="check" message="${escapeXml(message)}">${escapeXml(`check: ${check.id}\nobserved: ${observed}\ndetail: ${check.detail}`)}</failure>`,
    '    </testcase>',
  ].join('\n');
}

function thresholdCase(report: Report, threshold: ThresholdResult): string {
  const open = `    <testcase name="${escapeXml(threshold.expression)}" classname="coachbench.thresholds" time="${seconds(thresholdSeconds(report, threshold) * 1_000)}">`;
  const observed = formatThresholdObserved(threshold);
  if (threshold.status === 'pass') {
    return [open, `      <system-out>${escapeXml(`observed: ${observed}`)}</system-out>`, '    </testcase>'].join('\n');
  }
  const message = `observed ${observed}; required ${threshold.expression}`;
  return [
    open,
    `      <failure type="threshold" message="${escapeXml(message)}">${escapeXml(`threshold: ${threshold.expression}\nobserved: ${observed}`)}</failure>`,
    '    </testcase>',
  ].join('\n');
}

function properties(report: Report): string {
  const entries: [string, string][] = [
    ['runId', report.runId],
    ['profile', report.profile.name],
    ['target', report.target.url],
    ['verdict', report.verdict],
    ['interrupted', String(report.interrupted)],
    ...(report.aborted ? [['aborted', describeAbort(report.aborted)] as [string, string]] : []),
    ['coachbench', report.tool.version],
    ['schemaVersion', report.schemaVersion],
  ];
  const lines = entries.map(([name, value]) => `      <property name="${escapeXml(name)}" value="${escapeXml(value)}"/>`);
  return ['    <properties>', ...lines, '    </properties>'].join('\n');
}

/*
 * A fail verdict that no check or threshold explains (a merge missing a shard or holding an
 * interrupted one, a worker that died under the `fail` policy) is one more failed testcase:
 * a CI that reads only junit.xml must not show such a run green.
 */
function runCase(report: Report): string | null {
  if (report.verdict !== 'fail' || report.checks.some((c) => c.status === 'fail') || report.thresholds.some((t) => t.status === 'fail')) return null;
  const reason = report.warnings.find((warning) => /verdict is fail/.test(warning)) ?? 'the run failed outside its checks and thresholds (see its warnings)';
  return [
    `    <testcase name="verdict" classname="coachbench.run" time="${seconds(report.durationMs)}">`,
    `      <failure type="run" message="${escapeXml(reason)}">${escapeXml(report.warnings.join('\n'))}</failure>`,
    '    </testcase>',
  ].join('\n');
}

function suite(name: string, report: Report, counts: { tests: number; failures: number; skipped: number }, body: string[]): string {
  const head = `  <testsuite name="${name}" tests="${counts.tests}" failures="${counts.failures}" errors="0" skipped="${counts.skipped}" time="${seconds(report.durationMs)}" timestamp="${escapeXml(report.startedAt)}">`;
  return [head, ...body, '  </testsuite>'].join('\n');
}

/** Renders the JUnit XML document. */
export function renderJunit(report: Report): string {
  const noEvidence = new Set(report.verdict === 'incomplete' ? checksWithoutEvidence(report).map((check) => check.id) : []);
  const tally = checkTally(report);
  // Core checks without evidence count as failures here, not skips (see the file comment).
  const verdictCase = runCase(report);
  const extra = verdictCase === null ? 0 : 1;
  const checks = { total: tally.total + extra, failed: tally.failed + noEvidence.size + extra, skipped: tally.skipped - noEvidence.size };
  const thresholds = thresholdTally(report);
  const warnings = report.warnings.length ? [`    <system-err>${escapeXml(report.warnings.join('\n'))}</system-err>`] : [];
  const suites = [
    suite('coachbench.checks', report, { tests: checks.total, failures: checks.failed, skipped: checks.skipped }, [
      properties(report),
      ...report.checks.map((check) => checkCase(report, check, noEvidence)),
      ...(verdictCase === null ? [] : [verdictCase]),
      ...warnings,
    ]),
  ];
  if (report.thresholds.length > 0) {
    suites.push(
      suite(
        'coachbench.thresholds',
        report,
        { tests: thresholds.total, failures: thresholds.failed, skipped: 0 },
        report.thresholds.map((threshold) => thresholdCase(report, threshold)),
      ),
    );
  }
  const tests = checks.total + thresholds.total;
  const failures = checks.failed + thresholds.failed;
  // No `skipped` here: Jenkins' JUnit schema allows it on <testsuite> only (the suites carry it).
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="${escapeXml(`coachbench ${report.profile.name}`)}" tests="${tests}" failures="${failures}" errors="0" time="${seconds(report.durationMs)}">`,
    ...suites,
    '</testsuites>',
    '',
  ].join('\n');
}
