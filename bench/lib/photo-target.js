// What the throughput benchmarks upload to, and what every generator sends: the reference target
// (`coachbench serve`) or bench/throughput-sink.js in its own process, a fixtures file holding
// one participant (so that coachbench, autocannon and wrk all send the same path and token), and
// the one multipart body, written to a file for the other tools.
//
// On a 2-core machine the target gets CPU 0 and every load generator CPU 1 (taskset, all
// threads), so neither steals the other's core and the tools compare like for like; `--no-pin`
// leaves placement to the scheduler (better when other work shares the machine).
import { spawnSync } from 'node:child_process';
import { readFile, writeFile } from 'node:fs/promises';
import { cpus } from 'node:os';
import { join } from 'node:path';
import { libraryFlags } from './flags.js';
import { startProcess, startServe, stopProcess } from './processes.js';

const flags = libraryFlags(import.meta.url, {
  'no-pin': { kind: 'switch', means: 'leaves CPU placement to the scheduler instead of the target on one CPU and the generator on the other (taskset)' },
});
export const PINNED = !flags['no-pin'];
export const TARGET_CPU = '0';
/** The CPU every load generator runs on, or null when nothing is pinned. */
export const GENERATOR_CPU = PINNED ? (cpus().length > 1 ? '1' : '0') : null;

export function pinToTargetCpu(pid) {
  if (!PINNED) return;
  const result = spawnSync('taskset', ['-a', '-pc', TARGET_CPU, String(pid)], { encoding: 'utf8' });
  if (result.status !== 0) console.warn(`taskset failed for ${pid}: ${result.stderr || result.error}`);
}

/** Writes a fixtures file with the first participant only, as `run --fixtures` reads it. */
async function oneParticipantFixtures(dir, fixtures, label) {
  const path = join(dir, `fixtures-${label}.json`);
  const one = { apiKey: fixtures.apiKey, participants: fixtures.participants.slice(0, 1) };
  await writeFile(path, JSON.stringify(one));
  return { path, fixtures: one };
}

/** `coachbench serve` in its own process with `faults`; resolves with its URL and a one-participant fixtures file. */
export async function startPhotoTarget(dir, faults = []) {
  const label = `target-${faults.join('-') || 'plain'}`;
  const fullFixtures = join(dir, `${label}-all.json`);
  const args = ['--participants', '4', '--fixtures-out', fullFixtures];
  for (const fault of faults) args.push('--fault', fault);
  const target = await startServe(args);
  pinToTargetCpu(target.child.pid);
  const { path, fixtures } = await oneParticipantFixtures(dir, JSON.parse(await readFile(fullFixtures, 'utf8')), label);
  return { url: target.url, pid: target.child.pid, fixturesPath: path, fixtures, stop: () => stopProcess(target.child) };
}

/** bench/throughput-sink.js in its own process: a photo endpoint that does nothing but count. */
export async function startSink(dir) {
  const started = await startProcess([new URL('../throughput-sink.js', import.meta.url).pathname], /sink: (http:\/\/\S+)/);
  pinToTargetCpu(started.child.pid);
  const url = started.match[1];
  const fixtures = { apiKey: 'sink-key', participants: [{ userId: 'p-1', token: 'sink-token', chatSessionIds: ['cs-1'] }] };
  const { path } = await oneParticipantFixtures(dir, fixtures, 'sink');
  /** Photo uploads the sink has answered so far: the target's own count, next to the report's. */
  const answered = async () => (await (await fetch(`${url}/sink/count`)).json()).answered;
  return { url, fixturesPath: path, fixtures, answered, stop: () => stopProcess(started.child) };
}

/**
 * The body every tool sends: the default-part multipart upload of the one JPEG of `sizeBytes`
 * that a profile with `formats: ['jpeg'], imageSizes: [sizeBytes], overrideShare: 0` uploads.
 */
export async function photoBody(dir, sizeBytes) {
  const { buildImageCorpus } = await fromBuild('drivers/throughput/images/image-corpus.js');
  const { defaultPhotoBody } = await fromBuild('drivers/throughput/multipart-body.js');
  const [image] = buildImageCorpus(['jpeg'], [sizeBytes]);
  const body = defaultPhotoBody(image);
  const imagePath = join(dir, `photo-${sizeBytes}.jpg`);
  const bodyPath = join(dir, `body-${sizeBytes}.bin`);
  await writeFile(imagePath, image.bytes);
  await writeFile(bodyPath, body.body);
  return { sizeBytes, image, body, imagePath, bodyPath };
}

/**
 * A module of this checkout's build, imported when a measurement needs it rather than when the
 * script loads, so that `--help` and bad flags answer on a checkout not built yet (parseFlags
 * refuses to measure without a build: bench/lib/flags.js).
 */
const fromBuild = (path) => import(new URL(`../../dist/${path}`, import.meta.url).href);
