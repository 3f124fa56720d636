/**
 * KEEP_ALIVE cadence: the gap distribution against the expected interval and its tolerance
 * band, and how long after opening the first KEEP_ALIVE came.
 */

import type { ChatStreamsSummary, Report } from '../../contract/report.js';
import { formatCount, formatMs } from '../format.js';
import { recordedValues } from '../hdr-curve.js';
import { binValues, distributionChart } from '../svg/distribution-chart.js';
import { percentileChart } from '../svg/percentile-chart.js';
import { tickLabel } from '../svg/scale.js';
import { figure, grid, section } from './parts.js';
import { percentileNote } from './section-latency.js';

const BINS = 60;

const seconds = (ms: number): string => tickLabel(ms / 1_000);

/**
 * The axis spans the band with room either side, and the data; but stops at 3 × expected so
 * that one 60 s stall does not squeeze the band into a single pixel (the last bin takes it).
 */
function axisRange(chat: ChatStreamsSummary): [number, number] {
  const expected = chat.expectedKeepAliveMs;
  const tolerance = chat.keepAliveToleranceMs;
  const gaps = chat.keepAliveGapMs;
  const lo = Math.max(0, Math.min(gaps.min, expected - 2 * tolerance));
  const cap = expected > 0 ? expected * 3 : gaps.max;
  const hi = Math.min(Math.max(gaps.max, expected + 2 * tolerance), cap);
  return hi > lo ? [lo, hi] : [lo, lo + 1];
}

function gapChart(chat: ChatStreamsSummary): string {
  const [lo, hi] = axisRange(chat);
  const expected = chat.expectedKeepAliveMs;
  const tolerance = chat.keepAliveToleranceMs;
  return distributionChart({
    kind: 'keepalive-gaps',
    label: 'Distribution of gaps between consecutive KEEP_ALIVE frames, with the expected interval and tolerance band',
    xTitle: 'Gap between KEEP_ALIVE frames (s)',
    seriesName: `gaps (n=${formatCount(chat.keepAliveGapMs.count)})`,
    bins: binValues(recordedValues(chat.keepAliveGapMs.hdr), lo, hi, BINS),
    band: { name: `tolerance ±${seconds(tolerance)} s`, from: expected - tolerance, to: expected + tolerance },
    markers: [{ name: `expected ${seconds(expected)} s`, value: expected }],
    xTickLabel: seconds,
  });
}

/**
 * Each bound of the first KEEP_ALIVE is drawn over the curve it is judged on (docs/design.md
 * §6): late from the headers, early from the request. Reports older than the request curve
 * show the headers curve and the late bound alone.
 */
function firstKeepAliveChart(chat: ChatStreamsSummary): string {
  const expected = chat.expectedKeepAliveMs;
  const tolerance = chat.keepAliveToleranceMs;
  const fromRequest = chat.firstKeepAliveFromRequestMs;
  return percentileChart({
    label: "Time to each stream's first KEEP_ALIVE, from its headers and from its request, by percentile",
    series: [
      { name: 'headers → first KEEP_ALIVE', hdr: chat.firstKeepAliveMs.hdr },
      ...(fromRequest ? [{ name: 'request → first KEEP_ALIVE', hdr: fromRequest.hdr }] : []),
    ],
    references: [
      { name: `late after ${formatMs(expected + tolerance)} (from the headers)`, valueMs: expected + tolerance },
      ...(fromRequest
        ? [{ name: `early before ${formatMs(Math.max(0, expected - tolerance))} (from the request)`, valueMs: Math.max(0, expected - tolerance) }]
        : []),
    ],
  });
}

/**
 * One stream's first KEEP_ALIVE has no gap before it, so the gap count is the frame count
 * less the first KEEP_ALIVEs; the intro says so, lest the two numbers read as a discrepancy.
 */
function framesIntro(chat: ChatStreamsSummary): string {
  const frames = (chat.events.KEEP_ALIVE ?? 0) + (chat.mainStreams.events.KEEP_ALIVE ?? 0);
  const gaps = chat.keepAliveGapMs.count;
  const firsts = chat.firstKeepAliveMs.count;
  return (
    `<p class="muted">${formatCount(frames)} KEEP_ALIVE frames on chat-session and main streams: ` +
    `${formatCount(firsts)} first KEEP_ALIVEs after a stream opened (right) and ${formatCount(gaps)} gaps, one per later frame (left).</p>`
  );
}

export function keepAliveSection(report: Report): string {
  const chat = report.scenarios.chatStreams;
  if (!chat) return '';
  const expected = chat.expectedKeepAliveMs;
  const tolerance = chat.keepAliveToleranceMs;
  const band = `${formatMs(expected - tolerance)} – ${formatMs(expected + tolerance)}`;
  const gapNote = `${percentileNote('gaps', chat.keepAliveGapMs)} | ${formatCount(chat.keepAliveViolations)} outside ${band}; worst gap per stream p99 ${formatMs(chat.worstGapMs.p99)}`;
  const first = firstKeepAliveChart(chat);
  const early = chat.firstKeepAliveEarly === undefined ? '' : `, ${formatCount(chat.firstKeepAliveEarly)} early`;
  const held = chat.firstKeepAliveWithHeaders ? `, ${formatCount(chat.firstKeepAliveWithHeaders)} with the headers (held by an intermediary?)` : '';
  const firstNote = `${percentileNote('first KEEP_ALIVE', chat.firstKeepAliveMs)} | ${formatCount(chat.firstKeepAliveLate)} late${early}${held}`;
  const figures = [
    figure('KEEP_ALIVE gap distribution', gapChart(chat), gapNote, `expected every ${formatMs(expected)} ± ${formatMs(tolerance)}`),
    figure(
      'First KEEP_ALIVE after open',
      first,
      firstNote,
      'late beyond expected + tolerance after the headers; early before expected − tolerance after the request',
    ),
  ];
  return section('keepalive', 'KEEP_ALIVE cadence', framesIntro(chat) + grid(figures));
}
