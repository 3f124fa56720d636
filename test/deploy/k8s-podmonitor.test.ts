/**
 * deploy/k8s/podmonitor.yaml: a PodMonitor that selects exactly the shard Job's pods, on the
 * port named in its own instructions, and stays out of kustomization.yaml (its kind needs the
 * Prometheus Operator's CRDs). The port and flags it asks the Job for are the ones `run`
 * accepts.
 */
import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { parseAllDocuments } from 'yaml';
import { parseLiveOutputFlags } from '../../src/orchestration/outputs/output-config.js';

const K8S = new URL('../../deploy/k8s/', import.meta.url).pathname;

interface PodMonitor {
  apiVersion: string;
  kind: string;
  metadata: { name: string };
  spec: { selector: { matchLabels: Record<string, string> }; podMetricsEndpoints: { port: string; path: string; interval: string; scrapeTimeout: string }[] };
}

async function loadOne<T>(file: string): Promise<{ doc: T; text: string }> {
  const text = await readFile(`${K8S}${file}`, 'utf8');
  const docs = parseAllDocuments(text);
  expect(docs, file).toHaveLength(1);
  expect(docs[0]!.errors, file).toEqual([]);
  return { doc: docs[0]!.toJS() as T, text };
}

describe('deploy/k8s/podmonitor.yaml', () => {
  it('selects the shard pods and scrapes their /metrics', async () => {
    const { doc: monitor } = await loadOne<PodMonitor>('podmonitor.yaml');
    const { doc: job } = await loadOne<{ spec: { template: { metadata: { labels: Record<string, string> } } } }>('job.yaml');
    expect(monitor.apiVersion).toBe('monitoring.coreos.com/v1');
    expect(monitor.kind).toBe('PodMonitor');
    expect(monitor.metadata.name).toMatch(/^coachbench-[a-z-]+$/);
    // Every label the monitor selects on is on the shard pods, with the same value.
    const podLabels = job.spec.template.metadata.labels;
    const selected = Object.entries(monitor.spec.selector.matchLabels);
    expect(selected.length).toBeGreaterThan(0);
    for (const [key, value] of selected) expect(podLabels[key], key).toBe(value);
    const [endpoint] = monitor.spec.podMetricsEndpoints;
    expect(endpoint).toMatchObject({ port: 'metrics', path: '/metrics' });
    expect(Number.parseInt(endpoint!.scrapeTimeout, 10)).toBeLessThan(Number.parseInt(endpoint!.interval, 10));
  });

  it('asks the Job for a port and flags that run accepts', async () => {
    const { text } = await loadOne<PodMonitor>('podmonitor.yaml');
    const port = /containerPort: (\d+)/.exec(text)?.[1];
    const flags = /`--metrics-port (\d+) --metrics-host (\S+)`/.exec(text);
    expect(port).toBeDefined();
    expect(flags?.[1]).toBe(port);
    expect(parseLiveOutputFlags({ metricsPort: flags?.[1], metricsHost: flags?.[2] })).toMatchObject({ metricsPort: Number(port), host: '0.0.0.0' });
    expect(text).toMatch(/- name: metrics\n#\s+containerPort:/);
  });

  it('is not applied by kustomization.yaml', async () => {
    const { doc } = await loadOne<{ resources: string[] }>('kustomization.yaml');
    expect(doc.resources).not.toContain('podmonitor.yaml');
  });
});
