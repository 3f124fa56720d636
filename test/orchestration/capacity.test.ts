/**
 * A capacity search against the reference target (with a latency fault): steps up, refines,
 * reports the knee, and keeps each step's report and each SLO's value per load; a step whose
 * report could not be written to its folder is named in the search's own report, and falls
 * back to a folder of its own, apart from the search's report.
 */
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { quickProfile, TIMING_SLACK } from '../support/profiles.js';
import { runProfile } from '../support/run-helpers.js';
import { readRunReport } from '../support/run-report.js';

describe('capacity search', () => {
  it('finds the largest load that holds every SLO and records the curve', async () => {
    const { report, outDir, exitCode } = await runProfile(
      quickProfile({
        target: { keepAlive: '500ms', participants: 200, sessionsPerParticipant: 2, faults: ['latency=20'] },
        chatStreams: { participants: 20, rampPerSec: 400, switchEvery: '0s', messageRatePerSec: 20, churnRatePerSec: 0 },
        // A step passes only if no check failed: the cadence's slack keeps a loaded machine's late
        // reads from failing one (step 80 failed so under a CPU burner).
        ...TIMING_SLACK,
        // A saturated driver stops a search early (capacity-search.ts); here the stepping itself is under test.
        generator: { maxEventLoopDelayP99: '5s' },
        // peakConcurrent < 100 makes the knee deterministic (80) while the step runs are real.
        search: {
          variable: 'chatStreams.participants',
          start: 20,
          factor: 2,
          max: 320,
          stepDuration: '1500ms',
          refineSteps: 2,
          slos: ['chatStreams.peakConcurrent < 100', 'chatStreams.eventLatencyMs.p50 < 500'],
        },
      }),
    );
    const capacity = report.capacity!;
    expect(capacity.steps.map((s) => [s.load, s.pass])).toEqual([
      [20, true],
      [40, true],
      [80, true],
      [100, false],
      [120, false],
      [160, false],
    ]);
    expect(capacity.maxSustainableLoad).toBe(80);
    expect(capacity.firstFailingLoad).toBe(100);
    expect(capacity.stoppedBecause).toBe('slo');
    // The latency fault is measured at every step: delivery p50 sits just above 20 ms.
    for (const step of capacity.steps) {
      expect(step.values['chatStreams.eventLatencyMs.p50 < 500']).toBeGreaterThanOrEqual(20);
      expect(existsSync(join(outDir, step.reportDir, 'report.json'))).toBe(true);
    }
    expect(report.scenarios.chatStreams!.participants).toBe(80);
    expect(exitCode).toBe(0);
  });

  it("says so when a step's report could not be written to its folder, and keeps it apart from the search's", async () => {
    const dir = await mkdtemp(join(tmpdir(), 'coachbench-capacity-folder-'));
    const out = join(dir, 'report');
    // Folders where the first step's report.json and the search's own report.json go: those
    // files cannot be written, while the step's histogram log and run lock still can, as on a
    // disk that fills mid-search. Both reports fall back under the same run id (one step).
    await mkdir(join(out, 'steps', '01-10', 'report.json'), { recursive: true });
    await mkdir(join(out, 'report.json'), { recursive: true });
    let fallback: string | null = null;
    let stepFallback: string | null = null;
    try {
      const { report, outDir } = await runProfile(
        quickProfile({
          chatStreams: { participants: 10, rampPerSec: 400, switchEvery: '0s', messageRatePerSec: 0, churnRatePerSec: 0 },
          ...TIMING_SLACK,
          generator: { maxEventLoopDelayP99: '5s' },
          search: { variable: 'chatStreams.participants', start: 10, factor: 2, max: 10, stepDuration: '1s', slos: ['chatStreams.peakConcurrent < 100'] },
        }),
        { out },
      );
      fallback = outDir;
      expect(outDir).not.toBe(out);
      expect(report.warnings.some((line) => line.endsWith(`; this copy was written to ${outDir}`))).toBe(true);
      expect(report.capacity!.steps.map((step) => step.reportDir)).toEqual([join('steps', '01-10')]);
      const warning = report.warnings.find((line) => line.startsWith('step steps/01-10: '));
      expect(warning, report.warnings.join('\n')).toMatch(/^step steps\/01-10: its report could not be written to .*steps\/01-10; it is in (.+)$/);
      stepFallback = /; it is in (.+)$/.exec(warning!)![1]!;
      // The step's fallback mirrors the report folder: steps/01-10 inside the search's fallback.
      expect(stepFallback).toBe(join(outDir, 'steps', '01-10'));
      const stepReport = await readRunReport(stepFallback);
      const searchReport = await readRunReport(outDir);
      expect(stepReport.runId).toBe(searchReport.runId);
      expect(stepReport.capacity).toBeUndefined();
      expect(searchReport.capacity!.maxSustainableLoad).toBe(10);
    } finally {
      await rm(dir, { recursive: true, force: true });
      for (const left of [stepFallback, fallback]) if (left !== null) await rm(left, { recursive: true, force: true });
    }
  }, 60_000);
});
