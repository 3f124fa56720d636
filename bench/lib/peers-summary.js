// The figures bench/peers.js derives from its rows: per tool the median of each numeric field,
// the open model's marginal CPU per request between the base rate and each rate, and issue 30's
// goals judged from them. Kept apart from the runs so that `peers.js --table-only` derives them
// again from the rows in bench/results/peers.json, the same way.
import { median } from './median.js';
import { latencyMedians } from './peers-latency.js';
import { judgeGoals } from './peers-table.js';
import { rounder } from './round.js';

const round = rounder(1);

/** Per tool, the median of each numeric field over its repetitions that did not fail. */
export function medians(rows) {
  const byTool = new Map();
  for (const row of rows) byTool.set(row.tool, [...(byTool.get(row.tool) ?? []), row]);
  const out = {};
  for (const [tool, list] of byTool) {
    const ok = list.filter((row) => !row.failed);
    if (ok.length === 0) {
      out[tool] = { failed: list[0].failed.split('\n')[0] };
      continue;
    }
    const fields = Object.keys(ok[0]).filter((key) => key !== 'repetition' && typeof ok[0][key] === 'number');
    out[tool] = {
      runs: ok.length,
      ...Object.fromEntries(fields.map((key) => [key, round(median(ok.map((row) => row[key]).filter((v) => v !== null && v !== undefined)), 3)])),
    };
  }
  return out;
}

/** Per tool, CPU per request at the margin between the base rate and `rate`: ΔCPU / Δrequests of the medians. */
export function marginal(atRate, atBase) {
  const out = {};
  for (const [tool, m] of Object.entries(atRate.medians)) {
    const base = atBase.medians[tool];
    if (!base || m.failed || base.failed || !(m.requests > base.requests)) continue;
    out[tool] = round(((m.processCpuSeconds - base.processCpuSeconds) * 1e6) / (m.requests - base.requests));
  }
  return out;
}

/** `results` with every median, marginal and goal derived again from its rows. */
export function summarise(results) {
  const workloads = { ...results.workloads };
  for (const name of ['closed', 'streams']) {
    if (workloads[name]?.rows) workloads[name] = { ...workloads[name], medians: medians(workloads[name].rows) };
  }
  if (workloads.latency?.rows) workloads.latency = { ...workloads.latency, medians: latencyMedians(workloads.latency.rows) };
  const open = workloads.open;
  if (open?.byRate) {
    const byRate = Object.fromEntries(Object.entries(open.byRate).map(([rate, block]) => [rate, { ...block, medians: medians(block.rows) }]));
    const marginalUsPerRequest = Object.fromEntries(open.rates.map((rate) => [rate, marginal(byRate[rate], byRate[open.baseRatePerSec])]));
    workloads.open = { ...open, byRate, marginalUsPerRequest };
  }
  return { ...results, workloads, goals: judgeGoals(workloads) };
}
