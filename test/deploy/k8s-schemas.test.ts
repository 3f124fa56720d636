/**
 * Every manifest of deploy/k8s against the Kubernetes API types of the oldest version
 * docs/kubernetes.md supports (1.26, npm kubernetes-types@1.26.0, generated from that
 * release's OpenAPI spec). Each document is type-checked as an object literal of its kind,
 * so a field the API does not have is refused (as `kubectl apply --validate=strict` refuses
 * it), and so are a wrong type and a missing required field. The PodMonitor (a Prometheus
 * Operator CRD) and the Kustomization (a kustomize file, not an API object) have no such
 * types; k8s-manifests.test.ts reads them.
 */
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import ts from 'typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseAllDocuments } from 'yaml';

const K8S = new URL('../../deploy/k8s/', import.meta.url).pathname;
const TYPES = new URL('../../node_modules/kubernetes-types/', import.meta.url).pathname;
/** The module and type of each kind the manifests use. */
const KINDS: Record<string, { module: string; type: string }> = {
  Job: { module: 'kubernetes-types/batch/v1', type: 'Job' },
  Pod: { module: 'kubernetes-types/core/v1', type: 'Pod' },
  ConfigMap: { module: 'kubernetes-types/core/v1', type: 'ConfigMap' },
  Secret: { module: 'kubernetes-types/core/v1', type: 'Secret' },
  PersistentVolumeClaim: { module: 'kubernetes-types/core/v1', type: 'PersistentVolumeClaim' },
};
const WITHOUT_API_TYPES = new Set(['PodMonitor', 'Kustomization']);

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'coachbench-k8s-types-'));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

/** TypeScript's diagnostics for `objects`, each declared as its kind's API type. */
async function typeErrors(objects: readonly { name: string; object: Record<string, unknown> }[]): Promise<string[]> {
  const lines: string[] = [];
  for (const [i, { object }] of objects.entries()) {
    const kind = KINDS[object.kind as string];
    if (kind === undefined) throw new Error(`no API type for kind ${String(object.kind)}`);
    lines.push(`import type { ${kind.type} as T${i} } from '${kind.module}';`, `export const m${i}: T${i} = ${JSON.stringify(object, null, 2)};`);
  }
  const file = join(dir, `manifests-${Math.random().toString(36).slice(2)}.ts`);
  await writeFile(file, `${lines.join('\n')}\n`);
  const program = ts.createProgram([file], {
    strict: true,
    noEmit: true,
    types: [],
    module: ts.ModuleKind.ESNext,
    moduleResolution: ts.ModuleResolutionKind.Bundler,
    paths: { 'kubernetes-types/*': [`${TYPES}*`] },
  });
  return ts.getPreEmitDiagnostics(program).map((d) => {
    const where = d.file && d.start !== undefined ? d.file.getLineAndCharacterOfPosition(d.start) : null;
    return `${where ? `${where.line + 1}:${where.character + 1} ` : ''}${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`;
  });
}

async function manifests(): Promise<{ name: string; object: Record<string, unknown> }[]> {
  const files = (await readdir(K8S)).filter((name) => name.endsWith('.yaml')).sort();
  const all: { name: string; object: Record<string, unknown> }[] = [];
  for (const name of files) {
    for (const doc of parseAllDocuments(await readFile(join(K8S, name), 'utf8'))) {
      const object = doc.toJS() as Record<string, unknown>;
      if (!WITHOUT_API_TYPES.has(object.kind as string)) all.push({ name, object });
    }
  }
  return all;
}

describe('deploy/k8s against the Kubernetes 1.26 API types', () => {
  it('checks every API object of the folder', async () => {
    const kinds = (await manifests()).map(({ name, object }) => `${name}:${String(object.kind)}`);
    expect(kinds).toEqual([
      'fetch-pod.yaml:Pod',
      'job.yaml:Job',
      'merge-job.yaml:Job',
      'pvc.yaml:PersistentVolumeClaim',
      'run-config.yaml:ConfigMap',
      'secret.example.yaml:Secret',
    ]);
  });

  it('finds no unknown field, wrong type or missing required field', { timeout: 60_000 }, async () => {
    expect(await typeErrors(await manifests())).toEqual([]);
  });

  it('refuses an unknown field, a misspelt one and a wrong type (the check can fail)', { timeout: 60_000 }, async () => {
    const job = (await manifests()).find(({ name }) => name === 'job.yaml')!.object as {
      spec: { podFailurePolicy: unknown; template: { spec: { containers: Record<string, unknown>[] } } };
    };
    const unknown = structuredClone(job);
    unknown.spec.template.spec.containers[0]!.imagePullPolicyy = 'IfNotPresent';
    const wrongType = structuredClone(job);
    (wrongType.spec as Record<string, unknown>).backoffLimit = 'none';
    const errors = await typeErrors([
      { name: 'unknown', object: unknown as unknown as Record<string, unknown> },
      { name: 'wrongType', object: wrongType as unknown as Record<string, unknown> },
    ]);
    expect(errors.join('\n')).toMatch(/may only specify known properties, and '"imagePullPolicyy"' does not exist in type 'Container'/);
    expect(errors.join('\n')).toMatch(/Type 'string' is not assignable to type 'number'/);
  });
});
