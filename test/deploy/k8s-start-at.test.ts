/**
 * deploy/k8s and `--start-at`: the run's ConfigMap carries one start instant, every shard pod
 * reads it as COACHBENCH_START_AT (which `coachbench run` honours like the flag: see
 * test/orchestration/start-at.test.ts), and an empty value means "start when ready".
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { resolveRunConfig } from '../../src/orchestration/run-config.js';

const K8S = new URL('../../deploy/k8s/', import.meta.url).pathname;

interface EnvVar {
  name: string;
  valueFrom?: { configMapKeyRef?: { name: string; key: string; optional?: boolean } };
}

const job = parse(readFileSync(`${K8S}job.yaml`, 'utf8')) as { spec: { template: { spec: { containers: Array<{ env: EnvVar[] }> } } } };
const runConfig = parse(readFileSync(`${K8S}run-config.yaml`, 'utf8')) as { metadata: { name: string }; data: Record<string, string> };

describe('deploy/k8s start barrier', () => {
  it('passes the ConfigMap start-at to every shard pod as COACHBENCH_START_AT', () => {
    const env = job.spec.template.spec.containers[0]!.env.find((variable) => variable.name === 'COACHBENCH_START_AT');
    expect(env?.valueFrom?.configMapKeyRef).toEqual({ name: runConfig.metadata.name, key: 'start-at', optional: true });
    expect(Object.keys(runConfig.data)).toContain('start-at');
  });

  it('treats the shipped empty start-at as "start when ready"', async () => {
    const config = await resolveRunConfig({ profile: 'smoke' }, { COACHBENCH_START_AT: runConfig.data['start-at'] });
    expect(config.startAtMs).toBeNull();
  });

  it('takes an instant written the way the ConfigMap comment shows (date -u +%FT%TZ)', async () => {
    const inTwoMinutes = new Date(Math.ceil(Date.now() / 1_000) * 1_000 + 120_000).toISOString().replace(/\.000Z$/, 'Z');
    const config = await resolveRunConfig({ profile: 'smoke' }, { COACHBENCH_START_AT: inTwoMinutes });
    expect(config.startAtMs).toBe(Date.parse(inTwoMinutes));
  });
});
