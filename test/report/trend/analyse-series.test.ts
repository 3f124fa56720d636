/**
 * Change points on synthetic histories (pure tables, seeded): a flat noisy series has none,
 * a +20 % step is found where it is with the right sign, a slow drift shows as a drift, one
 * outlier night is not a change, and the newest run alone is judged against its neighbours.
 */
import { describe, expect, it } from 'vitest';
import { analyseSeries } from '../../../src/report/trend/analyse-series.js';
import { history, SETTINGS, table } from '../../support/synthetic-history.js';

describe('analyseSeries on synthetic histories', () => {
  it('finds a change point in at most 8 % of flat noisy series (200 seeds, 60 runs, 5 % noise; level 5 %)', () => {
    let falseAlarms = 0;
    for (let seed = 1; seed <= 200; seed += 1) {
      if (analyseSeries(history(table(60, () => 100, 0.05, seed)), SETTINGS).changePoints.length > 0) falseAlarms += 1;
    }
    expect(falseAlarms).toBeLessThanOrEqual(16);
  });

  it('finds a +20 % step in p99 at run 30 of 60, within one run, as a regression whose 95 % interval holds +20 (20 seeds)', () => {
    let others = 0;
    let covered = 0;
    for (let seed = 1; seed <= 20; seed += 1) {
      const series = analyseSeries(history(table(60, (run) => (run >= 30 ? 120 : 100), 0.05, seed)), SETTINGS);
      const near = series.changePoints.filter((change) => Math.abs(change.run - 30) <= 1);
      expect(near, `seed ${seed}`).toHaveLength(1);
      const change = near[0]!;
      expect(change).toMatchObject({ kind: 'regression', provisional: false, labels: { release: `v1.${change.run}` } });
      expect(change.shift).toBeGreaterThan(15);
      expect(change.interval.lo).toBeGreaterThan(0);
      if (change.interval.lo < 20 && change.interval.hi > 20) covered += 1;
      expect(change.pValue).toBeLessThanOrEqual(0.05);
      if (series.changePoints.length > 1) others += 1;
      else expect(series.segments.map((segment) => segment.runs)).toEqual([change.run - 1, 61 - change.run]);
    }
    // A 95 % interval misses the true shift about once in 20; noise alone splits about 1 series in 20 (the level).
    expect(covered).toBeGreaterThanOrEqual(17);
    expect(others).toBeLessThanOrEqual(3);
  });

  it('reports a step down in a latency as an improvement and in a throughput as a regression', () => {
    const values = table(40, (run) => (run >= 20 ? 80 : 100), 0.03, 7);
    expect(analyseSeries(history(values), SETTINGS).changePoints.map((c) => c.kind)).toEqual(['improvement']);
    const throughput = analyseSeries(history(values, { metric: 'tagLink.throughputPerSec', unit: 'perSec', direction: 'higher', samplingCv: 0 }), SETTINGS);
    expect(throughput.changePoints.map((c) => [c.kind, c.run])).toEqual([['regression', 20]]);
  });

  it('shows a slow drift (+30 % over 60 runs) as a significant drift, every change point upwards', () => {
    const series = analyseSeries(history(table(60, (run) => 100 + 0.5 * (run - 1), 0.03, 3)), SETTINGS);
    expect(series.drift).toMatchObject({ significant: true });
    expect(series.drift!.slopePerRun).toBeGreaterThan(0.35);
    expect(series.drift!.slopePerRun).toBeLessThan(0.65);
    expect(series.drift!.relativePerRun).toBeCloseTo(0.005, 2);
    for (const change of series.changePoints) expect(change.shift).toBeGreaterThan(0);
    const flat = analyseSeries(history(table(60, () => 100, 0.03, 3)), SETTINGS);
    expect(flat.drift).toMatchObject({ significant: false });
  });

  it('does not call one outlier night (3 × p99 at run 30 of 60) a change point', () => {
    for (let seed = 1; seed <= 10; seed += 1) {
      const values = table(60, () => 100, 0.05, seed);
      values[29] = 300;
      expect(analyseSeries(history(values), SETTINGS).changePoints, `seed ${seed}`).toEqual([]);
    }
  });

  it('judges the newest run alone: outside the prediction interval it begins a (provisional) regression, inside it is a noisy night', () => {
    const flat = table(20, () => 100, 0.03, 11);
    const jumped = analyseSeries(history([...flat, 125]), SETTINGS);
    expect(jumped.changePoints).toHaveLength(1);
    expect(jumped.changePoints[0]).toMatchObject({ run: 21, kind: 'regression', provisional: true, pValue: null, runsBefore: 20, runsAfter: 1 });
    expect(jumped.segments.at(-1)).toMatchObject({ from: 21, to: 21, runs: 1 });
    const noisy = analyseSeries(history([...flat, 105]), SETTINGS);
    expect(noisy.changePoints).toEqual([]);
  });

  it('a regression continued by later runs is a confirmed change point, not a provisional one', () => {
    for (let seed = 1; seed <= 10; seed += 1) {
      const series = analyseSeries(history(table(20, (run) => (run >= 16 ? 125 : 100), 0.03, seed)), SETTINGS);
      expect(series.changePoints.at(-1), `seed ${seed}`).toMatchObject({ run: 16, kind: 'regression', provisional: false, runsAfter: 5 });
    }
  });

  it('ignores a shift below the unit floor however clean it is (0.4 ms on a 2 ms latency)', () => {
    const values = table(30, (run) => (run >= 15 ? 2.4 : 2), 0.001, 9);
    expect(analyseSeries(history(values, { samplingCv: 0 }), SETTINGS).changePoints).toEqual([]);
    expect(analyseSeries(history(values, { samplingCv: 0 }), { ...SETTINGS, floors: { ms: 0.1 } }).changePoints).toEqual([]);
  });

  it('refuses a change the runs’ own sampling noise explains (wide HDR intervals) even when the values step', () => {
    const values = table(30, (run) => (run >= 15 ? 104 : 100), 0.002, 4);
    expect(analyseSeries(history(values, { samplingCv: 0 }), SETTINGS).changePoints.map((c) => c.run)).toEqual([15]);
    expect(analyseSeries(history(values, { samplingCv: 0.08 }), SETTINGS).changePoints).toEqual([]);
  });
});
