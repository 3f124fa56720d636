/**
 * The container image, built and run for real (issue 28; docs/kubernetes.md "The image in
 * CI"): deploy/test-base/build-image.sh builds deploy/Dockerfile with podman on a stand-in
 * base made from Debian and the registry's Node, and the tests run what users run: the
 * image's default `run` with a mounted report folder, a stop by SIGTERM, and the shard and
 * merge Jobs' own scripts (read from the manifests, not copied) as PID 1 of non-root,
 * read-only containers with every capability dropped, against one reference service.
 *
 * Networking stays on loopback: each shard container has a network namespace of its own (as a
 * pod has), with only a loopback, where a forwarder listens on the target's port and relays
 * every connection over a Unix socket to the one `coachbench serve` on this machine's
 * 127.0.0.1. The shards' `--metrics-port 9464` then binds each namespace's own port, as in two pods.
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { chmod, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { connect, createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import type { Report } from '../../src/contract/report.js';
import { startTarget } from '../../src/reference-service/start-target.js';
import type { RunningTarget } from '../../src/reference-service/target-types.js';
import { readRunReport } from '../support/run-report.js';

const ROOT = new URL('../../', import.meta.url).pathname;
const PODMAN = '/usr/bin/podman';
const havePodman = existsSync(PODMAN) && existsSync('/usr/sbin/debootstrap');
/*
 * The image carries its own Node (the Dockerfile's FROM): whichever Node runs this suite, the
 * containers run the same. So it runs in one pass of .ci/run only, the one on the image's line.
 */
const imageNodeMajor = /^FROM node:(\d+)\./m.exec(readFileSync(join(ROOT, 'deploy/Dockerfile'), 'utf8'))?.[1];
const onImageLine = imageNodeMajor === process.versions.node.split('.')[0];
const skipReason = !havePodman
  ? ' (SKIPPED: podman or debootstrap not installed; .ci/run installs them)'
  : !onImageLine
    ? ` (SKIPPED: the image carries Node ${imageNodeMajor}; this pass runs Node ${process.versions.node}, and the Node ${imageNodeMajor} pass runs it)`
    : '';
const runImageTests = havePodman && onImageLine;
const CONTAINERS_CONF = join(ROOT, 'deploy/test-base/containers.conf');

interface JobYaml {
  spec: { template: { spec: { containers: { image: string; args: string[] }[] } } };
}
const jobOf = async (file: string): Promise<JobYaml> => parse(await readFile(join(ROOT, 'deploy/k8s', file), 'utf8')) as JobYaml;

interface Ran {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs podman to its end (bounded: a hang is killed by PID and fails the test). */
function podman(args: readonly string[], timeoutMs = 120_000): Promise<Ran> {
  return new Promise((resolve) => {
    const child = spawn(PODMAN, args, { env: { ...process.env, CONTAINERS_CONF }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
    });
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    const deadline = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.on('close', (code) => {
      clearTimeout(deadline);
      resolve({ code, stdout, stderr });
    });
  });
}

let image: string;
let dir: string;
let target: RunningTarget;
let bridge: Server;
const started: string[] = [];

/** A container name of this test file, removed at the end whatever happened. */
const named = (name: string): string => {
  const full = `coachbench-test-${process.pid}-${name}`;
  started.push(full);
  return full;
};

beforeAll(async () => {
  if (!runImageTests) return;
  const built = spawnSync('bash', [join(ROOT, 'deploy/test-base/build-image.sh')], { encoding: 'utf8', timeout: 600_000 });
  expect(built.status, `${built.stdout}${built.stderr}`).toBe(0);
  image = (await jobOf('job.yaml')).spec.template.spec.containers[0]!.image;
  dir = await mkdtemp(join(tmpdir(), 'coachbench-image-'));
  target = await startTarget({ participants: 40, sessionsPerParticipant: 2, keepAliveMs: 500 });
  // The host end of the shards' path to the target: a Unix socket relayed to serve's 127.0.0.1 port.
  await mkdir(join(dir, 'sockets'));
  await chmod(join(dir, 'sockets'), 0o777);
  const port = Number(new URL(target.url).port);
  bridge = createServer((socket) => {
    const upstream = connect(port, '127.0.0.1');
    socket.pipe(upstream).pipe(socket);
    socket.on('error', () => upstream.destroy());
    upstream.on('error', () => socket.destroy());
  });
  await new Promise<void>((resolve) => bridge.listen(join(dir, 'sockets', 'serve.sock'), resolve));
  await chmod(join(dir, 'sockets', 'serve.sock'), 0o777);
  await writeFile(join(dir, 'fixtures.json'), JSON.stringify(target.fixtures), { mode: 0o644 });
  await writeFile(
    join(dir, 'quick.json'),
    JSON.stringify({
      name: 'image-shards',
      duration: '3s',
      expectKeepAlive: '500ms',
      chatStreams: { participants: 40, rampPerSec: 200, messageRatePerSec: 10 },
    }),
    { mode: 0o644 },
  );
}, 660_000);

afterAll(async () => {
  if (!runImageTests) return;
  for (const name of started) await podman(['rm', '--force', '--time', '0', name]);
  bridge?.close();
  await target?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe.skipIf(!runImageTests)(`the image (podman)${skipReason}`, () => {
  it("runs the image's default `run` (the smoke profile) into a mounted report folder", { timeout: 120_000 }, async () => {
    const reports = join(dir, 'smoke');
    await mkdir(reports);
    const ran = await podman([
      'run',
      '--rm',
      '--name',
      named('smoke'),
      '--network',
      'none',
      '-v',
      `${reports}:/app/reports:U`,
      image,
      'run',
      '--duration',
      '4s',
    ]);
    expect([0, 1], ran.stderr).toContain(ran.code);
    // Progress in the container log, the report on the host.
    expect(ran.stderr).toMatch(/\[[\d.]+s\/4s\] {2}streams/);
    const [folder] = readdirSync(reports);
    const report = await readRunReport(join(reports, folder as string));
    expect(report.profile.name).toBe('smoke');
    /*
     * Every check and threshold of the image's run passes but one whose verdict is the host's:
     * generator.healthy is the driver judging its own event loop (docs/design.md §5.4), which a
     * CI runner loaded by other jobs fails under a correct image. The default run cannot be
     * given another bound (generator.maxEventLoopDelayP99 is the profile's, and the profile is
     * the point), so that check must have been judged (sampled), and whatever it says, the exit
     * code and the verdict must agree with it.
     */
    const failed = report.checks.filter((check) => check.status === 'fail').map((check) => check.id);
    const missed = report.thresholds.filter((threshold) => threshold.status !== 'pass').map((threshold) => threshold.expression);
    expect([...failed.filter((id) => id !== 'generator.healthy'), ...missed], ran.stderr).toEqual([]);
    expect(report.checks.find((check) => check.id === 'generator.healthy')?.status).toMatch(/^(pass|fail)$/);
    expect(report.generator.saturated).toBe(failed.includes('generator.healthy'));
    expect(report.verdict).toBe(failed.length === 0 ? 'pass' : 'fail');
    expect(ran.code, ran.stderr).toBe(failed.length === 0 ? 0 : 1);
  });

  it('stops a run on SIGTERM with exit 143 and an interrupted report', { timeout: 120_000 }, async () => {
    const reports = join(dir, 'stop');
    await mkdir(reports);
    const name = named('stop');
    const running = podman([
      'run',
      '--name',
      name,
      '--network',
      'none',
      '-v',
      `${reports}:/app/reports:U`,
      image,
      'run',
      '--duration',
      '60s',
      '--out',
      'reports/stopped',
    ]);
    // Stop it once it is under way, as `kubectl delete` or `podman stop` would.
    let logs = '';
    const underWay = /\[[\d.]+s\/1m00s\] {2}streams [1-9]/;
    for (let i = 0; i < 60 && !underWay.test(logs); i++) {
      await new Promise((resolve) => setTimeout(resolve, 500));
      logs = (await podman(['logs', name])).stderr;
    }
    expect(logs).toMatch(underWay);
    expect((await podman(['kill', '--signal', 'TERM', name])).code).toBe(0);
    const waited = await podman(['wait', name]);
    expect(waited.stdout.trim()).toBe('143');
    await running;
    const report = await readRunReport(join(reports, 'stopped'));
    expect(report.interrupted).toBe(true);
    expect(report.durationMs).toBeLessThan(30_000);
  });

  /** Starts the loopback-only network namespace of a "pod", with the forwarder to the target; returns its name. */
  async function podNetwork(label: string): Promise<string> {
    const name = named(`net-${label}`);
    const port = new URL(target.url).port;
    const relay = `const net = require('node:net');
net.createServer((c) => { const u = net.connect('/sockets/serve.sock'); c.pipe(u).pipe(c); c.on('error', () => u.destroy()); u.on('error', () => c.destroy()); }).listen(${port}, '127.0.0.1');`;
    const ran = await podman([
      'run',
      '-d',
      '--name',
      name,
      '--network',
      'none',
      '--user',
      '1000:1000',
      '-v',
      `${join(dir, 'sockets')}:/sockets`,
      '--entrypoint',
      'node',
      image,
      '-e',
      relay,
    ]);
    expect(ran.code, ran.stderr).toBe(0);
    return name;
  }

  /** Runs a Job's script as PID 1 of a container of the image, as the Job's pod spec runs it. */
  async function jobContainer(file: string, label: string, network: string, env: Record<string, string>, reports: string): Promise<Ran> {
    const script = (await jobOf(file)).spec.template.spec.containers[0]!.args[0]!;
    const envFlags = Object.entries(env).flatMap(([key, value]) => ['-e', `${key}=${value}`]);
    return podman([
      'run',
      '--rm',
      '--name',
      named(label),
      '--network',
      network,
      // The pod's securityContext: uid 1000, no privilege escalation, no capabilities, read-only root.
      '--user',
      '1000:1000',
      '--security-opt',
      'no-new-privileges',
      '--cap-drop',
      'ALL',
      '--read-only',
      '--tmpfs',
      '/tmp',
      '-v',
      `${reports}:/reports:U`,
      '-v',
      `${join(dir, 'fixtures.json')}:/fixtures/fixtures.json:ro`,
      '-v',
      `${join(dir, 'quick.json')}:/profiles-test/quick.json:ro`,
      ...envFlags,
      '--entrypoint',
      'sh',
      image,
      '-c',
      script,
    ]);
  }

  const shardEnv = (index: number, runId: string, profile: string, startAt: string): Record<string, string> => ({
    JOB_COMPLETION_INDEX: String(index),
    COACHBENCH_SHARDS: '2',
    COACHBENCH_RUN_ID: runId,
    COACHBENCH_TARGET: target.url,
    COACHBENCH_PROFILE: profile,
    COACHBENCH_START_AT: startAt,
  });
  const mergeEnv = (runId: string): Record<string, string> => ({
    COACHBENCH_SHARDS: '2',
    COACHBENCH_RUN_ID: runId,
    COACHBENCH_PROFILE: '/profiles-test/quick.json',
    COACHBENCH_MERGE_MARGIN_SECONDS: '60',
    COACHBENCH_MERGE_POLL_SECONDS: '1',
  });

  it("runs the shard Job's script in two pods, then the merge Job's: the merged counts are the shards' sums", { timeout: 180_000 }, async () => {
    const reports = join(dir, 'shards');
    await mkdir(reports);
    const nets = [await podNetwork('a0'), await podNetwork('a1')];
    // The ConfigMap's start-at: far enough ahead for both containers to start and get ready.
    const startAt = new Date(Date.now() + 15_000).toISOString();
    const shards = await Promise.all(
      [0, 1].map((i) => jobContainer('job.yaml', `shard-a${i}`, `container:${nets[i]}`, shardEnv(i, 'ok', '/profiles-test/quick.json', startAt), reports)),
    );
    // A shard whose checks failed (exit 1) still succeeds as a pod: the merge judges the run.
    for (const [i, shard] of shards.entries()) {
      expect(shard.code, shard.stderr).toBe(0);
      expect(shard.stderr).toMatch(new RegExp(`coachbench shard ${i}/2: exit [01]\n`));
    }
    const parts = await Promise.all([0, 1].map((i) => readRunReport(join(reports, 'ok', `shard-${i}`))));
    // Both waited for the one start instant.
    for (const part of parts) expect(Math.abs(part.start!.skewMs)).toBeLessThan(1_000);

    const merged = await jobContainer('merge-job.yaml', 'merge-a', 'none', mergeEnv('ok'), reports);
    const report = await readRunReport(join(reports, 'ok', 'merged'));
    // The merge pod's exit code is the merged verdict's.
    expect(merged.code, merged.stderr).toBe(report.verdict === 'pass' ? 0 : 1);
    expect(report.verdict).toBe(parts.every((part) => part.verdict === 'pass') ? 'pass' : 'fail');
    const sum = (read: (r: Report) => number): number => parts.reduce((total, part) => total + read(part), 0);
    const chat = (r: Report) => r.scenarios.chatStreams!;
    expect(chat(report).opened).toBe(sum((r) => chat(r).opened));
    expect(chat(report).eventLatencyMs.count).toBe(sum((r) => chat(r).eventLatencyMs.count));
    expect(chat(report).keepAliveGapMs.count).toBe(sum((r) => chat(r).keepAliveGapMs.count));
    expect(chat(report).messagesSent).toBe(sum((r) => chat(r).messagesSent));
    expect(chat(report).participants).toBe(40);
    expect(report.mergedFrom).toHaveLength(2);
  });

  it('ends the merge within a minute when a shard exits 2 before writing, naming it', { timeout: 180_000 }, async () => {
    const reports = join(dir, 'broken');
    await mkdir(reports);
    const nets = [await podNetwork('b0'), await podNetwork('b1')];
    const [good, bad] = await Promise.all([
      jobContainer('job.yaml', 'shard-b0', `container:${nets[0]}`, shardEnv(0, 'broken', '/profiles-test/quick.json', ''), reports),
      jobContainer('job.yaml', 'shard-b1', `container:${nets[1]}`, shardEnv(1, 'broken', '/profiles-test/no-such-profile.json', ''), reports),
    ]);
    expect(good.code, good.stderr).toBe(0);
    expect(bad.code).toBe(2);
    const before = performance.now();
    const merged = await jobContainer('merge-job.yaml', 'merge-b', 'none', { ...mergeEnv('broken'), COACHBENCH_MERGE_MARGIN_SECONDS: '3600' }, reports);
    expect(performance.now() - before).toBeLessThan(60_000);
    expect(merged.stderr).toMatch(/ended without a report: shard-1 \(exit 2\)/);
    expect(merged.code).toBe(1);
    const report = await readRunReport(join(reports, 'broken', 'merged'));
    expect(report.verdict).toBe('fail');
    expect(report.warnings[0]).toMatch(/missing 1\/2/);
  });
});
