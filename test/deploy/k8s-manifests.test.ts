/**
 * deploy/k8s: the manifests parse, carry the fields Kubernetes requires, wire
 * JOB_COMPLETION_INDEX into --shard I/N with N equal to completions, take secrets only from
 * a Secret, mount what they declare, share one report volume with the merge Job, and give
 * the PodMonitor the shard pods' `metrics` port where coachbench serves /metrics. The
 * shell wiring is run for real with a stub `coachbench` that records its arguments. The
 * Dockerfile pins one exact Node 24 release, the one CI tests.
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { chmod, cp, mkdir, mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { parseAllDocuments } from 'yaml';
import { parseLiveOutputFlags } from '../../src/orchestration/outputs/output-config.js';
import { BIN } from '../support/bin-helpers.js';
import { profileFile } from '../support/profiles.js';
import { readRunReport } from '../support/run-report.js';
import { startTargetWithFixtures } from '../support/target-helpers.js';

const K8S = new URL('../../deploy/k8s/', import.meta.url).pathname;

/* The shapes these tests read. Parsed YAML is cast to them; every field read is asserted. */
interface Ref {
  name: string;
  key: string;
}
interface EnvVar {
  name: string;
  value?: string;
  valueFrom?: { secretKeyRef?: Ref; configMapKeyRef?: Ref };
}
interface Container {
  image: string;
  command?: string[];
  args: string[];
  env?: EnvVar[];
  resources: { requests: Record<string, string>; limits: Record<string, string> };
  volumeMounts: Array<{ name: string; mountPath: string }>;
  ports?: Array<{ name: string; containerPort: number; protocol?: string }>;
}
interface Volume {
  name: string;
  secret?: { secretName: string };
  persistentVolumeClaim?: { claimName: string };
}
interface Manifest {
  apiVersion: string;
  kind: string;
  metadata: { name: string };
}
interface JobManifest extends Manifest {
  spec: {
    completionMode?: string;
    completions?: number;
    parallelism?: number;
    backoffLimit?: number;
    template: {
      metadata?: { labels?: Record<string, string> };
      spec: { restartPolicy: string; securityContext: { runAsUser: number }; containers: Container[]; volumes: Volume[] };
    };
  };
}
interface PvcManifest extends Manifest {
  spec: { accessModes: string[] };
}
interface ConfigMapManifest extends Manifest {
  data: Record<string, string>;
}
interface SecretManifest extends Manifest {
  stringData: Record<string, string>;
}
interface Kustomization {
  kind: string;
  resources: string[];
}
interface PodMonitorManifest extends Manifest {
  spec: { selector: { matchLabels: Record<string, string> }; podMetricsEndpoints: { port: string; path: string; interval: string; scrapeTimeout: string }[] };
}

async function load<T>(file: string): Promise<T> {
  const docs = parseAllDocuments(await readFile(join(K8S, file), 'utf8'));
  expect(docs, file).toHaveLength(1);
  expect(docs[0]!.errors, file).toEqual([]);
  return docs[0]!.toJS() as T;
}

let job: JobManifest;
let merge: JobManifest;
let pvc: PvcManifest;
let runConfig: ConfigMapManifest;
let secret: SecretManifest;
let kustomization: Kustomization;
let podMonitor: PodMonitorManifest;

beforeAll(async () => {
  job = await load<JobManifest>('job.yaml');
  merge = await load<JobManifest>('merge-job.yaml');
  pvc = await load<PvcManifest>('pvc.yaml');
  runConfig = await load<ConfigMapManifest>('run-config.yaml');
  secret = await load<SecretManifest>('secret.example.yaml');
  kustomization = await load<Kustomization>('kustomization.yaml');
  podMonitor = await load<PodMonitorManifest>('podmonitor.yaml');
});

const containerOf = (j: JobManifest): Container => j.spec.template.spec.containers[0]!;
const envOf = (j: JobManifest): EnvVar[] => containerOf(j).env ?? [];
const volumesOf = (j: JobManifest): Volume[] => j.spec.template.spec.volumes;
const mountsOf = (j: JobManifest): Container['volumeMounts'] => containerOf(j).volumeMounts;
const shardCount = (): number => job.spec.completions ?? 0;
const shardEnvOf = (index: number, profile: string, target: string): Record<string, string> => ({
  JOB_COMPLETION_INDEX: String(index),
  COACHBENCH_SHARDS: String(shardCount()),
  COACHBENCH_RUN_ID: 'r1',
  COACHBENCH_TARGET: target,
  COACHBENCH_PROFILE: profile,
});
const scriptOf = (j: JobManifest): string => {
  const c = containerOf(j);
  expect(c.command).toEqual(['sh', '-c']);
  expect(c.args).toHaveLength(1);
  return c.args[0]!;
};

describe('deploy/k8s manifests', () => {
  it('are Kubernetes objects with apiVersion, kind and a name', async () => {
    const docs: Array<[Manifest, string]> = [
      [job, 'Job'],
      [merge, 'Job'],
      [pvc, 'PersistentVolumeClaim'],
      [runConfig, 'ConfigMap'],
      [secret, 'Secret'],
    ];
    for (const [doc, kind] of docs) {
      expect(doc.kind).toBe(kind);
      expect(doc.apiVersion).toBe(kind === 'Job' ? 'batch/v1' : 'v1');
      expect(doc.metadata.name).toMatch(/^coachbench-[a-z-]+$/);
    }
    expect(kustomization.kind).toBe('Kustomization');
    for (const resource of kustomization.resources) expect(existsSync(join(K8S, resource)), resource).toBe(true);
    // Only what one run needs: Secrets are created from a shell; the merge waits for the shards.
    expect(kustomization.resources).not.toContain('secret.example.yaml');
  });

  it('runs the shards as an Indexed Job whose N is the same everywhere', () => {
    const n = shardCount();
    expect(job.spec.completionMode).toBe('Indexed');
    expect(Number.isInteger(n) && n >= 2).toBe(true);
    expect(job.spec.parallelism).toBe(n);
    expect(envOf(job).find((e) => e.name === 'COACHBENCH_SHARDS')).toEqual({ name: 'COACHBENCH_SHARDS', value: String(n) });
    expect(job.spec.template.spec.restartPolicy).toBe('Never');
    expect(job.spec.backoffLimit).toBe(0);
    const script = scriptOf(job);
    expect(script).toContain('"${JOB_COMPLETION_INDEX:?');
    expect(script).toContain('--shard "$i/$n"');
  });

  it('gives each shard pod two whole cores, with requests equal to limits', () => {
    const { requests, limits } = containerOf(job).resources;
    expect(requests).toEqual(limits);
    expect(requests.cpu).toBe('2');
    expect(requests.memory).toMatch(/^\d+Gi$/);
  });

  it('takes keys and tokens only from the Secret, never as literal values', () => {
    const secretKeys = Object.keys(secret.stringData);
    for (const j of [job, merge]) {
      for (const env of envOf(j)) {
        if (!/KEY|TOKEN|SECRET|PASSWORD/.test(env.name)) continue;
        expect(env.value, env.name).toBeUndefined();
        expect(env.valueFrom?.secretKeyRef?.name, env.name).toBe(secret.metadata.name);
        expect(secretKeys, env.name).toContain(env.valueFrom?.secretKeyRef?.key);
      }
    }
    const fromSecret = envOf(job)
      .filter((e) => e.valueFrom?.secretKeyRef)
      .map((e) => e.name);
    expect(fromSecret.sort()).toEqual(['COACHBENCH_API_KEY', 'COACHBENCH_COACH_TOKEN', 'COACHBENCH_TOKEN']);
    for (const env of [...envOf(job), ...envOf(merge)]) {
      const ref = env.valueFrom?.configMapKeyRef;
      if (!ref) continue;
      expect(ref.name, env.name).toBe(runConfig.metadata.name);
      expect(Object.keys(runConfig.data), env.name).toContain(ref.key);
    }
    expect(volumesOf(job).find((v) => v.name === 'fixtures')?.secret?.secretName).toBe('coachbench-fixtures');
  });

  it('mounts exactly the volumes it declares, and both Jobs share the RWX report claim', () => {
    for (const j of [job, merge]) {
      expect(
        mountsOf(j)
          .map((m) => m.name)
          .sort(),
      ).toEqual(
        volumesOf(j)
          .map((v) => v.name)
          .sort(),
      );
      expect(volumesOf(j).find((v) => v.name === 'reports')?.persistentVolumeClaim?.claimName).toBe(pvc.metadata.name);
      expect(mountsOf(j).find((m) => m.name === 'reports')?.mountPath).toBe('/reports');
    }
    expect(pvc.spec.accessModes).toContain('ReadWriteMany');
    const fixturesMount = mountsOf(job).find((m) => m.name === 'fixtures');
    expect(fixturesMount).toBeDefined();
    expect(scriptOf(job)).toContain(`--fixtures ${fixturesMount?.mountPath}/fixtures.json`);
  });
});

describe('deploy/k8s/podmonitor.yaml and the shard pods it scrapes', () => {
  it('selects the shard pods and scrapes their /metrics, within the scrape interval', () => {
    expect(podMonitor.apiVersion).toBe('monitoring.coreos.com/v1');
    expect(podMonitor.kind).toBe('PodMonitor');
    expect(podMonitor.metadata.name).toMatch(/^coachbench-[a-z-]+$/);
    // Every label the monitor selects on is on the shard pods, with the same value; not on the merge pod.
    const podLabels = job.spec.template.metadata?.labels ?? {};
    const mergeLabels = merge.spec.template.metadata?.labels ?? {};
    const selected = Object.entries(podMonitor.spec.selector.matchLabels);
    expect(selected.length).toBeGreaterThan(0);
    for (const [key, value] of selected) expect(podLabels[key], key).toBe(value);
    expect(selected.every(([key, value]) => mergeLabels[key] === value)).toBe(false);
    const [endpoint] = podMonitor.spec.podMetricsEndpoints;
    expect(endpoint).toMatchObject({ port: 'metrics', path: '/metrics' });
    expect(Number.parseInt(endpoint!.scrapeTimeout, 10)).toBeLessThan(Number.parseInt(endpoint!.interval, 10));
  });

  it('finds a container port of that name on the shard pods, where coachbench serves /metrics on all addresses', () => {
    const port = containerOf(job).ports?.find((p) => p.name === podMonitor.spec.podMetricsEndpoints[0]?.port);
    expect(port).toMatchObject({ name: 'metrics', protocol: 'TCP' });
    const flags = /--metrics-port (\S+) --metrics-host (\S+)/.exec(scriptOf(job));
    expect(flags, 'the shard script passes --metrics-port and --metrics-host').not.toBeNull();
    // The flags as `run` reads them: the container's port, on every address of the pod.
    expect(parseLiveOutputFlags({ metricsPort: flags?.[1], metricsHost: flags?.[2] })).toMatchObject({ metricsPort: port?.containerPort, host: '0.0.0.0' });
  });

  it('is not applied by kustomization.yaml (the kind needs the Prometheus Operator CRDs)', () => {
    expect(kustomization.resources).not.toContain('podmonitor.yaml');
  });
});

describe('deploy/k8s shell wiring (run with a stub coachbench)', () => {
  let stubDir: string;
  beforeAll(async () => {
    stubDir = await mkdtemp(join(tmpdir(), 'coachbench-k8s-'));
    const stub = join(stubDir, 'coachbench');
    // biome-ignore lint/suspicious/noTemplateCurlyInString: a shell script's own parameter expansion.
    await writeFile(stub, '#!/bin/sh\nprintf "%s\\n" "$@" > "$STUB_ARGS"\nexit "${STUB_EXIT:-0}"\n');
    await chmod(stub, 0o755);
  });

  function run(script: string, env: Record<string, string>, exit = 0): { code: number | null; args: string[]; stderr: string } {
    const argsFile = join(stubDir, `args-${Math.random().toString(36).slice(2)}`);
    const result = spawnSync('sh', ['-c', script], {
      env: { PATH: `${stubDir}:${process.env.PATH ?? ''}`, STUB_ARGS: argsFile, STUB_EXIT: String(exit), ...env },
      encoding: 'utf8',
    });
    const args = existsSync(argsFile)
      ? readFileSync(argsFile, 'utf8')
          .split('\n')
          .filter((line) => line !== '')
      : [];
    return { code: result.status, args, stderr: result.stderr };
  }
  const shardEnv = (index: number): Record<string, string> => shardEnvOf(index, 'release', 'http://svc:8080');

  it('passes the completion index as --shard I/N and writes to that shard folder', () => {
    const n = shardCount();
    const { code, args } = run(scriptOf(job), shardEnv(n - 1));
    expect(code).toBe(0);
    expect(args).toEqual([
      'run',
      '--profile',
      'release',
      '--target',
      'http://svc:8080',
      '--fixtures',
      '/fixtures/fixtures.json',
      '--shard',
      `${n - 1}/${n}`,
      '--out',
      `/reports/r1/shard-${n - 1}`,
      '--progress-every',
      '60s',
      '--metrics-port',
      '9464',
      '--metrics-host',
      '0.0.0.0',
    ]);
    // Progress lines in `kubectl logs`, not silence.
    expect(args).not.toContain('--quiet');
  });

  it.each([
    [0, 0],
    [1, 0],
    [2, 2],
    [3, 3],
    [130, 130],
    [143, 143],
  ])('maps coachbench exit %i to pod exit %i (a failed check is judged by the merge)', (exit, pod) => {
    expect(run(scriptOf(job), shardEnv(0), exit).code).toBe(pod);
  });

  it('refuses an index outside N and a pod outside an Indexed Job', () => {
    const outside = run(scriptOf(job), shardEnv(shardCount()));
    expect(outside.code).toBe(2);
    expect(outside.stderr).toMatch(/set completions, parallelism and COACHBENCH_SHARDS to the same N/);
    expect(outside.args).toEqual([]);
    const { JOB_COMPLETION_INDEX: _index, ...noIndex } = shardEnv(0);
    void _index;
    expect(run(scriptOf(job), noIndex).code).not.toBe(0);
  });

  it('refuses to start over an existing shard report (a run id used twice)', async () => {
    const reports = await mkdtemp(join(tmpdir(), 'coachbench-k8s-reports-'));
    await mkdir(join(reports, 'r1', 'shard-1'), { recursive: true });
    await writeFile(join(reports, 'r1', 'shard-1', 'report.json'), '{}');
    const script = scriptOf(job).replaceAll('/reports', reports);
    const stale = run(script, shardEnv(1));
    expect(stale.code).toBe(2);
    expect(stale.stderr).toMatch(/already holds a report: set a new run-id/);
    expect(stale.args).toEqual([]);
    expect(run(script, shardEnv(0)).args).toContain(join(reports, 'r1', 'shard-0'));
  });

  const mergeEnv = (waitSeconds: number): Record<string, string> => ({
    COACHBENCH_RUN_ID: 'r1',
    COACHBENCH_SHARDS: '3',
    COACHBENCH_MERGE_WAIT_SECONDS: String(waitSeconds),
    COACHBENCH_MERGE_POLL_SECONDS: '1',
  });
  const writeShard = async (reports: string, i: number): Promise<void> => {
    await mkdir(join(reports, 'r1', `shard-${i}`), { recursive: true });
    await writeFile(join(reports, 'r1', `shard-${i}`, 'report.json'), '{}');
  };

  it('waits for the same N as the shards Job, reading the profile and start instant they run', () => {
    const env = envOf(merge);
    expect(env.find((e) => e.name === 'COACHBENCH_SHARDS')?.value).toBe(String(shardCount()));
    expect(env.find((e) => e.name === 'COACHBENCH_PROFILE')?.valueFrom?.configMapKeyRef).toEqual({ name: 'coachbench-run', key: 'profile' });
    expect(env.find((e) => e.name === 'COACHBENCH_START_AT')?.valueFrom?.configMapKeyRef).toMatchObject({ name: 'coachbench-run', key: 'start-at' });
    expect(env.find((e) => e.name === 'COACHBENCH_MERGE_WAIT_SECONDS')).toBeUndefined();
    expect(kustomization.resources).toContain('merge-job.yaml');
  });

  it("waits no longer than the profile's duration, the time to start-at and the margin (coachbench plan)", async () => {
    const reports = await mkdtemp(join(tmpdir(), 'coachbench-k8s-reports-'));
    await writeShard(reports, 0);
    // A coachbench that plans 2 s and records the merge it is asked for.
    const bin = await mkdtemp(join(tmpdir(), 'coachbench-k8s-plan-'));
    await writeFile(
      join(bin, 'coachbench'),
      `#!/bin/sh\nif [ "$1" = plan ]; then echo '{ "durationMs": 1500, "scenarios": [] }'; exit 0; fi\nprintf "%s\\n" "$@" > "$STUB_ARGS"\nexit 1\n`,
    );
    await chmod(join(bin, 'coachbench'), 0o755);
    const started = performance.now();
    const result = spawnSync('sh', ['-c', scriptOf(merge).replaceAll('/reports', reports)], {
      env: {
        PATH: `${bin}:${dirname(process.execPath)}:${process.env.PATH ?? ''}`,
        STUB_ARGS: join(bin, 'args'),
        COACHBENCH_RUN_ID: 'r1',
        COACHBENCH_SHARDS: '2',
        COACHBENCH_PROFILE: 'release',
        COACHBENCH_START_AT: new Date(Date.now() + 1_000).toISOString(),
        COACHBENCH_MERGE_MARGIN_SECONDS: '1',
        COACHBENCH_MERGE_POLL_SECONDS: '1',
      },
      encoding: 'utf8',
      timeout: 20_000,
    });
    // 2 s of profile + 1 s to the start instant + 1 s of margin: 4 s, not the shards' 10 h deadline.
    expect(result.stderr).toMatch(/waiting up to 4s for 2 shards of r1/);
    expect(result.stderr).toMatch(/after 4s still no report from: shard-1; merging what exists/);
    expect(performance.now() - started).toBeLessThan(15_000);
    expect(result.status).toBe(1);
  }, 30_000);

  it('stops waiting at once for a shard that ended without a report, naming it and its exit code', async () => {
    const reports = await mkdtemp(join(tmpdir(), 'coachbench-k8s-reports-'));
    // The shard script, with coachbench exiting 2 before writing anything.
    const shard = run(scriptOf(job).replaceAll('/reports', reports), shardEnv(1), 2);
    expect(shard.code).toBe(2);
    expect(readFileSync(join(reports, 'r1', 'shard-1.exit'), 'utf8').trim()).toBe('2');
    for (const i of [0, 2]) await writeShard(reports, i);
    const started = performance.now();
    const merged = run(scriptOf(merge).replaceAll('/reports', reports), mergeEnv(3_600), 1);
    expect(performance.now() - started).toBeLessThan(5_000);
    expect(merged.stderr).toMatch(/ended without a report: shard-1 \(exit 2\); merging what exists/);
    expect(merged.args).toEqual(['merge', ...[0, 2].map((i) => join(reports, 'r1', `shard-${i}`, 'report.json')), '--out', join(reports, 'r1', 'merged')]);
    // A shard that wrote its report leaves no marker, whatever its exit code.
    await mkdir(join(reports, 'r1', 'shard-3'), { recursive: true });
    await writeFile(join(reports, 'r1', 'shard-3', 'report.json'), '{}');
    run(
      scriptOf(job)
        .replaceAll('/reports', reports)
        .replace(/if \[ -e "\$out\/report\.json" \]; then[\s\S]*?fi\n/, ''),
      shardEnv(3),
      1,
    );
    expect(existsSync(join(reports, 'r1', 'shard-3.exit'))).toBe(false);
  });

  it('merges every shard report of the run id once all are there, and refuses when there is none', async () => {
    const reports = await mkdtemp(join(tmpdir(), 'coachbench-k8s-reports-'));
    const script = scriptOf(merge).replaceAll('/reports', reports);
    const empty = run(script, mergeEnv(0));
    expect(empty.code).toBe(2);
    expect(empty.stderr).toMatch(/still no report from: shard-0 shard-1 shard-2; merging what exists/);
    expect(empty.stderr).toMatch(/no shard reports under/);
    for (const i of [0, 1, 2]) await writeShard(reports, i);
    const { code, args, stderr } = run(script, mergeEnv(60), 1);
    expect(code).toBe(1);
    expect(stderr).not.toMatch(/waiting for/);
    expect(args).toEqual(['merge', ...[0, 1, 2].map((i) => join(reports, 'r1', `shard-${i}`, 'report.json')), '--out', join(reports, 'r1', 'merged')]);
  });

  it('waits for a shard that is still running, and merges what exists when one never comes, naming it', async () => {
    const reports = await mkdtemp(join(tmpdir(), 'coachbench-k8s-reports-'));
    const script = scriptOf(merge).replaceAll('/reports', reports);
    await writeShard(reports, 0);
    await writeShard(reports, 2);
    const late = setTimeout(() => void writeShard(reports, 1), 1_500);
    const waited = await new Promise<{ code: number | null; stderr: string }>((resolve) => {
      const child = spawn('sh', ['-c', script], {
        env: { PATH: `${stubDir}:${process.env.PATH ?? ''}`, STUB_ARGS: join(stubDir, 'late-args'), ...mergeEnv(30) },
      });
      let stderr = '';
      child.stderr.on('data', (chunk: Buffer) => {
        stderr += chunk.toString();
      });
      child.on('exit', (code) => resolve({ code, stderr }));
    });
    clearTimeout(late);
    expect(waited.code).toBe(0);
    expect(waited.stderr).toMatch(/waiting for shard-1/);
    expect(readFileSync(join(stubDir, 'late-args'), 'utf8')).toContain(join(reports, 'r1', 'shard-1', 'report.json'));

    const lost = await mkdtemp(join(tmpdir(), 'coachbench-k8s-reports-'));
    await writeShard(lost, 0);
    const given = run(scriptOf(merge).replaceAll('/reports', lost), mergeEnv(2), 1);
    expect(given.stderr).toMatch(/after \ds still no report from: shard-1 shard-2; merging what exists/);
    expect(given.args).toEqual(['merge', join(lost, 'r1', 'shard-0', 'report.json'), '--out', join(lost, 'r1', 'merged')]);
    expect(given.code).toBe(1);
  }, 20_000);
});

describe('deploy/k8s shard Job under SIGTERM, as PID 1 (unshare --pid --fork --mount-proc)', () => {
  /*
   * The pod's PID 1 is the Job's shell, and PID 1 ignores every signal it has no handler for.
   * This runs the shard Job's own script (read from job.yaml) as PID 1 of a new PID namespace,
   * exactly as in the pod, with the real coachbench (dist/, `npm run build` first) against a
   * reference target, sends SIGTERM to that PID 1 as `kubectl delete` or the Job's deadline
   * would, and finds the partial report. No image is needed; a container runtime is not
   * available on the machines this runs on (docker has no daemon, podman is not installed),
   * which is why the namespace stands in for the pod.
   */
  it('forwards SIGTERM to coachbench, which writes its partial report (exit 143), and logs progress lines', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'coachbench-k8s-pid1-'));
    const bin = join(dir, 'bin');
    await mkdir(bin);
    await writeFile(join(bin, 'coachbench'), `#!/bin/sh\nexec "${process.execPath}" "${BIN}" "$@"\n`);
    await chmod(join(bin, 'coachbench'), 0o755);
    const { target, fixtures } = await startTargetWithFixtures({ dir }, { participants: 20 });
    try {
      const profile = await profileFile(dir, 'profile', {
        name: 'k8s-sigterm',
        duration: '60s',
        expectKeepAlive: '500ms',
        chatStreams: { participants: 20, rampPerSec: 100 },
      });
      // The pod's /metrics on all addresses becomes a free loopback port here: nothing listens beyond 127.0.0.1.
      const script = scriptOf(job)
        .replaceAll('/reports', join(dir, 'reports'))
        .replace('--fixtures /fixtures/fixtures.json', `--fixtures ${fixtures}`)
        .replace('--metrics-port 9464 --metrics-host 0.0.0.0', '--metrics-port 0 --metrics-host 127.0.0.1');
      expect(script).not.toContain('/fixtures/');
      expect(script).toContain('--metrics-port 0 --metrics-host 127.0.0.1');
      const child = spawn('unshare', ['--pid', '--fork', '--mount-proc', 'sh', '-c', script], {
        env: { PATH: `${bin}:${process.env.PATH ?? ''}`, ...shardEnvOf(0, profile, target.url) },
        stdio: ['ignore', 'ignore', 'pipe'],
      });
      let stderr = '';
      child.stderr.setEncoding('utf8');
      const progressSeen = new Promise<void>((resolve) => {
        child.stderr.on('data', (text: string) => {
          stderr += text;
          if (/^\[\d+(\.\d+)?s\/1m00s\] {2}streams/m.test(stderr)) resolve();
        });
      });
      const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
      await Promise.race([progressSeen, exited]);
      // The shell unshare forked is PID 1 of its namespace, as in the pod.
      const pid1 = Number(readFileSync(`/proc/${child.pid}/task/${child.pid}/children`, 'utf8').trim().split(/\s+/)[0]);
      expect(readFileSync(`/proc/${pid1}/status`, 'utf8')).toMatch(/^NSpid:\s+\d+\s+1$/m);
      await new Promise((resolve) => setTimeout(resolve, 1_500));
      process.kill(pid1, 'SIGTERM');
      const code = await exited;
      expect(code, stderr).toBe(143);
      expect(stderr).toContain('coachbench shard 0/4: exit 143');
      const report = await readRunReport(join(dir, 'reports', 'r1', 'shard-0'));
      expect(report.interrupted).toBe(true);
      expect(report.shard).toEqual({ index: 0, count: 4 });
      expect(report.durationMs).toBeLessThan(30_000);
    } finally {
      await target.close();
    }
  }, 60_000);
});

describe('deploy/Dockerfile', () => {
  const dockerfile = (): Promise<string> => readFile(new URL('../../deploy/Dockerfile', import.meta.url), 'utf8');

  it('pins every stage to one exact Node 24 release that CI tests and package.json engines allows', async () => {
    const images = [...(await dockerfile()).matchAll(/^FROM (\S+)/gm)].map((m) => m[1]!);
    expect(images).toHaveLength(2);
    expect(new Set(images).size).toBe(1);
    // An exact x.y.z tag (optionally with a digest): never a moving tag such as node:24-slim.
    const pin = /^node:(\d+)\.(\d+)\.(\d+)-slim(@sha256:[0-9a-f]{64})?$/.exec(images[0]!);
    expect(pin, images[0]).not.toBeNull();
    const version = `${pin![1]}.${pin![2]}.${pin![3]}`;
    expect(Number(pin![1])).toBe(24);
    const pkg = JSON.parse(await readFile(new URL('../../package.json', import.meta.url), 'utf8')) as { engines: { node: string } };
    const floor = /^>=(\d+)(?:\.(\d+))?$/.exec(pkg.engines.node);
    expect(floor, pkg.engines.node).not.toBeNull();
    expect(Number(pin![1])).toBeGreaterThanOrEqual(Number(floor![1]));
    const ci = await readFile(new URL('../../.ci/run', import.meta.url), 'utf8');
    const lines = /^NODE_LINES=\(([^)]*)\)$/m.exec(ci)?.[1]?.trim().split(/\s+/) ?? [];
    expect(lines, 'the image runs a Node release that .ci/run tests').toContain(version);
    // Every line CI tests is one package.json allows (undici 8 needs 22.19).
    const atLeast = (v: string) => {
      const [major, minor] = v.split('.').map(Number);
      return major! > Number(floor![1]) || (major === Number(floor![1]) && minor! >= Number(floor![2] ?? 0));
    };
    for (const line of lines) expect(atLeast(line), `${line} against engines ${pkg.engines.node}`).toBe(true);
  });

  it('builds with npm ci, ships production dependencies only, and runs as a non-root user', async () => {
    const text = await dockerfile();
    expect(text).toMatch(/^FROM node:\S+ AS build$/m);
    expect(text).toMatch(/^ {4}npm ci --omit=dev/m);
    expect(text).toMatch(/^USER 1000:1000$/m);
    // The report folder the default `run` writes to belongs to that user (issue 28: EACCES).
    expect(text).toMatch(/chown 1000:1000 \/app\/reports/);
    // The CA bundle a build may need arrives as a secret, never as a layer.
    expect(text).not.toMatch(/^(COPY|ADD) .*ca-certificates/m);
    expect(text.match(/--mount=type=secret,id=npm-ca/g)).toHaveLength(2);
    expect(containerOf(job).image).toBe(containerOf(merge).image);
    expect(job.spec.template.spec.securityContext.runAsUser).toBe(1000);
  });

  it("builds from what its build stage copies: the stage's files alone compile, validators and bundle included", async () => {
    // Without a container engine here, the build stage is replayed in a folder: the files its
    // COPY lines name (before `RUN npm run build`), this checkout's node_modules, the same command.
    const stage = (await dockerfile()).split(/^FROM .*$/m)[1] ?? '';
    const beforeBuild = stage.slice(0, stage.indexOf('RUN npm run build'));
    const copied = [...beforeBuild.matchAll(/^COPY (.+) \S+$/gm)].flatMap((m) => m[1]!.split(/\s+/));
    expect(copied).toEqual(expect.arrayContaining(['src', 'tsconfig.json', 'package.json']));
    const dir = await mkdtemp(join(tmpdir(), 'coachbench-image-build-'));
    try {
      for (const path of copied) await cp(new URL(`../../${path}`, import.meta.url), join(dir, path), { recursive: true });
      await symlink(new URL('../../node_modules', import.meta.url).pathname, join(dir, 'node_modules'));
      const built = spawnSync('npm', ['run', 'build'], { cwd: dir, encoding: 'utf8' });
      expect(built.status, `${built.stdout}${built.stderr}`).toBe(0);
      expect(existsSync(join(dir, 'dist/validators/profile.cjs'))).toBe(true);
      expect(existsSync(join(dir, 'dist/bundle/main.js'))).toBe(true);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }, 120_000);
});
