/**
 * summary.md: what a CI job summary shows (GitHub `$GITHUB_STEP_SUMMARY` and the like):
 * verdict, the failed items with observed values, key figures, warnings; every check in a
 * collapsed table. Deterministic for a given report so it can be golden-tested.
 */

import type { Report } from '../contract/report.js';
import { describeAbort } from './describe-abort.js';
import { escapeMarkdown } from './escape.js';
import { formatCount, formatMemory, formatMs, formatObserved, formatValue } from './format.js';
import { markdownList, markdownTable, statusMark } from './markdown.js';
import {
  checksWithoutEvidence,
  checkTally,
  failedItems,
  formatThresholdObserved,
  noEvidenceText,
  runLength,
  startText,
  thresholdTally,
} from './report-facts.js';
import { REQUEST_KIND_COLUMNS, requestKindRows } from './request-kind-rows.js';
import { SCENARIO_COLUMNS, scenarioRows } from './scenario-rows.js';
import { STAGE_COLUMNS, stageRows } from './stage-rows.js';

function heading(report: Report): string {
  const interrupted =
    (report.aborted ? ' (aborted)' : report.interrupted ? ' (interrupted)' : '') + (report.transport?.insecure ? ' (INSECURE: TLS not verified)' : '');
  const [mark, word] = report.verdict === 'pass' ? ['✅', 'PASS'] : report.verdict === 'incomplete' ? ['⚠️', 'INCOMPLETE'] : ['❌', 'FAIL'];
  return `## ${mark} coachbench ${word}${interrupted}: ${escapeMarkdown(report.profile.name)}`;
}

function runLine(report: Report): string {
  const target = `${report.target.url}${report.target.embedded ? ' (embedded reference target)' : ''}`;
  const faults = report.target.faults?.length ? ` · faults: ${report.target.faults.join(', ')}` : '';
  const start = startText(report);
  return escapeMarkdown(`run ${report.runId} · target ${target}${faults} · ${runLength(report)} from ${report.startedAt}${start ? ` · ${start}` : ''}`);
}

/** Why an abortOnFail threshold stopped the load, when one did. */
function abortedLines(report: Report): string[] {
  return report.aborted ? [escapeMarkdown(`Aborted: ${describeAbort(report.aborted)}.`), ''] : [];
}

function tallyLine(report: Report): string {
  const checks = checkTally(report);
  const thresholds = thresholdTally(report);
  const thresholdText = thresholds.total === 0 ? 'none set' : `${thresholds.passed} of ${thresholds.total} passed`;
  return `**Checks:** ${checks.passed} passed, ${checks.failed} failed, ${checks.skipped} skipped · **Thresholds:** ${thresholdText}`;
}

function failedSection(report: Report): string[] {
  const items = failedItems(report);
  if (items.length === 0) return [];
  const rows = items.map((item) => [item.kind === 'check' ? `check ${item.name}` : `threshold ${item.name}`, item.observed, item.detail]);
  return [`### Failed (${items.length})`, '', markdownTable([{ title: 'Item' }, { title: 'Observed', numeric: true }, { title: 'Detail' }], rows), ''];
}

/** An incomplete run: the core checks without evidence, and why each was skipped. */
function noEvidenceSection(report: Report): string[] {
  if (report.verdict !== 'incomplete') return [];
  const rows = checksWithoutEvidence(report).map((check) => [`check ${check.id}`, check.detail]);
  return [
    `### No evidence (${rows.length})`,
    '',
    escapeMarkdown(`The run is INCOMPLETE: ${noEvidenceText(report)}.`),
    '',
    markdownTable([{ title: 'Item' }, { title: 'Why' }], rows),
    '',
  ];
}

function keyFigures(report: Report): string[] {
  const lines: string[] = [];
  const chat = report.scenarios.chatStreams;
  if (chat) {
    const gaps = chat.keepAliveGapMs;
    const gapText = gaps.count === 0 ? 'no gaps measured' : `gap p99 ${formatMs(gaps.p99)}, max ${formatMs(gaps.max)}`;
    lines.push(
      `KEEP_ALIVE: expected every ${formatMs(chat.expectedKeepAliveMs)} ± ${formatMs(chat.keepAliveToleranceMs)}; ${gapText}; ` +
        `${formatCount(chat.keepAliveViolations)} outside tolerance, ${formatCount(chat.firstKeepAliveLate)} first late` +
        `${chat.firstKeepAliveEarly ? `, ${formatCount(chat.firstKeepAliveEarly)} first early` : ''}` +
        `${chat.firstKeepAliveWithHeaders ? `, ${formatCount(chat.firstKeepAliveWithHeaders)} first with the headers (an intermediary held them: slow opens)` : ''}.`,
    );
    lines.push(
      `Chat delivery: ${formatCount(chat.deliveriesReceived)} of ${formatCount(chat.deliveriesExpected)} received, ` +
        `${formatCount(chat.duplicates)} duplicates, ${formatCount(chat.isolationViolations)} isolation and ${formatCount(chat.schemaViolations)} schema violations.`,
    );
  }
  const generator = report.generator;
  lines.push(
    `Generator: event-loop delay p99 ${formatMs(generator.eventLoopDelayMs.p99)} (bound ${formatMs(generator.maxEventLoopDelayP99Ms)}), ` +
      `CPU ${formatValue(generator.cpuPercent, 'percent')}, peak RSS ${formatMemory(generator.peakRssBytes)}, ${generator.saturated ? 'SATURATED' : 'not saturated'}` +
      (generator.behind && generator.behind.intervals > 0
        ? `; fell behind in ${formatCount(generator.behind.intervals)} interval(s), ${formatValue(generator.behind.share * 100, 'percent')} of the judged run.`
        : '.'),
  );
  return ['### Key figures', '', markdownTable(SCENARIO_COLUMNS, scenarioRows(report)), '', markdownList(lines), ''];
}

function warningsSection(report: Report): string[] {
  const notes = [...report.warnings];
  if (report.interrupted) notes.unshift('The run was interrupted: figures cover only the part that ran.');
  if (notes.length === 0) return [];
  return [`### Warnings (${notes.length})`, '', markdownList(notes), ''];
}

function detailsSection(report: Report): string[] {
  const checks = report.checks.map((check) => [statusMark(check.status), check.id, formatObserved(check.observed), check.detail]);
  const parts = [
    `<details><summary>All checks (${report.checks.length})</summary>`,
    '',
    markdownTable([{ title: 'Status' }, { title: 'Check' }, { title: 'Observed', numeric: true }, { title: 'Detail' }], checks),
    '',
    '</details>',
    '',
  ];
  if (report.thresholds.length > 0) {
    const rows = report.thresholds.map((threshold) => [statusMark(threshold.status), threshold.expression, formatThresholdObserved(threshold)]);
    parts.push(
      `<details><summary>All thresholds (${report.thresholds.length})</summary>`,
      '',
      markdownTable([{ title: 'Status' }, { title: 'Threshold' }, { title: 'Observed', numeric: true }], rows),
      '',
      '</details>',
      '',
    );
  }
  return parts;
}

/** The request kinds (docs/design.md §2.15), when the profile has any. */
function requestKindsSection(report: Report): string[] {
  const rows = requestKindRows(report);
  return rows.length === 0 ? [] : ['### Request kinds', '', markdownTable(REQUEST_KIND_COLUMNS, rows), ''];
}

/** Headline metrics per named stage (docs/design.md §2.11), when the profile names stages. */
function stagesSection(report: Report): string[] {
  const rows = stageRows(report);
  return rows.length === 0 ? [] : ['### Stages', '', markdownTable(STAGE_COLUMNS, rows), ''];
}

/** Renders the Markdown summary. */
export function renderMarkdown(report: Report): string {
  return [
    heading(report),
    '',
    runLine(report),
    '',
    tallyLine(report),
    '',
    ...abortedLines(report),
    ...failedSection(report),
    ...noEvidenceSection(report),
    ...keyFigures(report),
    ...requestKindsSection(report),
    ...stagesSection(report),
    ...warningsSection(report),
    ...detailsSection(report),
    `<sub>coachbench ${escapeMarkdown(report.tool.version)} · report schema ${escapeMarkdown(report.schemaVersion)} · full charts in report.html</sub>`,
    '',
  ].join('\n');
}
