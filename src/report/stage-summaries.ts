/**
 * The per-stage tables of report.json (docs/design.md §2.11): each named stage's headline
 * metrics, from the intervals summed into it during the run, or from shards' stages added
 * together by `coachbench merge`.
 */
import type { HistogramSummary, StageSummary } from '../contract/report.js';
import type { MetricView } from '../metrics/metric-view.js';
import type { StageTotal } from '../metrics/threshold-monitor.js';

const percentile = (summary: HistogramSummary, key: 'p50' | 'p99'): number | null => (summary.count > 0 ? summary[key] : null);

export function summarizeStage(stage: StageTotal, view: MetricView): StageSummary {
  const { chatStreams } = view.scenarios;
  const seconds = (stage.window.endMs - stage.window.startMs) / 1_000;
  // Request kinds (docs/design.md §2.15) each get a row beside photo upload and tag link.
  const kinds = Object.entries(view.scenarios.requests ?? {}).map(([name, summary]) => [`requests.${name}` as const, summary] as const);
  const builtIn = (['photoUpload', 'tagLink'] as const).map((scenario) => [scenario, view.scenarios[scenario]] as const);
  const requests = [...builtIn, ...kinds].flatMap(([scenario, summary]) => {
    if (!summary) return [];
    return [
      {
        scenario,
        requests: summary.requests,
        perSec: seconds > 0 ? Math.round((summary.requests / seconds) * 1_000) / 1_000 : 0,
        errorRate: summary.errorRate,
        latencyP99Ms: percentile(summary.latencyMs, 'p99'),
      },
    ];
  });
  return {
    name: stage.window.name,
    startSec: stage.window.startMs / 1_000,
    endSec: stage.window.endMs / 1_000,
    intervals: stage.intervals,
    chatStreams: chatStreams && {
      peakConcurrent: chatStreams.peakConcurrent,
      eventLatencyP50Ms: percentile(chatStreams.eventLatencyMs, 'p50'),
      eventLatencyP99Ms: percentile(chatStreams.eventLatencyMs, 'p99'),
      keepAliveViolations: chatStreams.keepAliveViolations,
    },
    requests,
    metrics: stage.set.encode(),
  };
}
