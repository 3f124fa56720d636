/**
 * deploy/grafana/coachbench-dashboard.json reads only what `run --metrics-port` exports:
 * every PromQL expression names only series of src/metrics/exported-metrics.ts, and every
 * exported metric the dashboard is about is drawn. Where Debian's promtool is installed
 * (package prometheus), every expression also parses as PromQL.
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { EXPORTED, seriesNames } from '../../src/metrics/exported-metrics.js';

const DASHBOARD = new URL('../../deploy/grafana/coachbench-dashboard.json', import.meta.url).pathname;
const PROMTOOL = '/usr/bin/promtool';
/** The dashboard's data source variable: filled by the picker, on import and under file provisioning alike. */
const DATASOURCE_VARIABLE = ['$', '{datasource}'].join('');

interface Panel {
  title: string;
  datasource?: { uid: string };
  targets?: { expr: string }[];
}

async function expressions(): Promise<{ panel: string; expr: string }[]> {
  const dashboard = JSON.parse(await readFile(DASHBOARD, 'utf8')) as { panels: Panel[] };
  return dashboard.panels.flatMap((panel) => (panel.targets ?? []).map(({ expr }) => ({ panel: panel.title, expr })));
}

const exportedSeries = new Set(Object.values(EXPORTED).flatMap(seriesNames));

describe('the Grafana dashboard', () => {
  it('names only metrics the endpoint exports', async () => {
    const all = await expressions();
    expect(all.length).toBeGreaterThan(10);
    const used = new Set<string>();
    for (const { panel, expr } of all) {
      const names = expr.match(/\bcoachbench_[a-z0-9_]+/g) ?? [];
      expect(names.length, `${panel}: ${expr}`).toBeGreaterThan(0);
      for (const name of names) {
        expect(exportedSeries, `${panel}: ${name}`).toContain(name);
        used.add(name.replace(/_(bucket|sum|count)$/, ''));
      }
    }
    for (const key of ['events', 'requests', 'openStreams', 'requestDuration', 'keepAliveGap', 'eventDelivery', 'checkStatus', 'thresholdStatus'] as const) {
      expect(used, key).toContain(EXPORTED[key].name);
    }
  });

  it('takes its data source from a variable, never a fixed uid or an import-only input', async () => {
    const dashboard = JSON.parse(await readFile(DASHBOARD, 'utf8')) as {
      panels: Panel[];
      __inputs?: unknown;
      templating: { list: { name: string; type: string }[] };
    };
    // `__inputs` is filled only by the import dialog; a provisioned file would keep the placeholder.
    expect(dashboard.__inputs).toBeUndefined();
    expect(dashboard.templating.list.find((v) => v.name === 'datasource')?.type).toBe('datasource');
    for (const panel of dashboard.panels) expect(panel.datasource?.uid, panel.title).toBe(DATASOURCE_VARIABLE);
  });

  it('scopes every series to the namespace and run picked (PodMonitor labels)', async () => {
    const dashboard = JSON.parse(await readFile(DASHBOARD, 'utf8')) as { templating: { list: { name: string }[] } };
    expect(dashboard.templating.list.map((v) => v.name)).toEqual(['datasource', 'namespace', 'run']);
    for (const { panel, expr } of await expressions()) {
      for (const series of expr.matchAll(/\bcoachbench_[a-z0-9_]+(\{[^}]*\})?/g)) {
        expect(series[1] ?? '', `${panel}: ${expr}`).toMatch(/namespace=~"\$namespace", run=~"\$run"/);
      }
    }
    const monitor = await readFile(new URL('../../deploy/k8s/podmonitor.yaml', import.meta.url), 'utf8');
    expect(monitor).toMatch(/targetLabel: run/);
  });

  it.skipIf(!existsSync(PROMTOOL))(`parses as PromQL (promtool check rules)${existsSync(PROMTOOL) ? '' : ` (SKIPPED: no ${PROMTOOL})`}`, async () => {
    const dir = await mkdtemp(join(tmpdir(), 'coachbench-grafana-'));
    try {
      // Grafana's $__rate_interval is filled in at query time; any range stands for it here.
      const rules = (await expressions()).map(
        ({ expr }, i) => `      - record: coachbench:panel_${i}\n        expr: '${expr.replaceAll('$__rate_interval', '1m').replaceAll("'", "''")}'`,
      );
      await writeFile(join(dir, 'rules.yml'), `groups:\n  - name: dashboard\n    rules:\n${rules.join('\n')}\n`);
      const check = spawnSync(PROMTOOL, ['check', 'rules', join(dir, 'rules.yml')], { encoding: 'utf8' });
      expect(check.status, `${check.stdout}${check.stderr}`).toBe(0);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
