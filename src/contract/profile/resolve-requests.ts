/**
 * Resolves a profile's `requests` section (docs/design.md §2.15): every template compiled
 * and checked, every JSON Schema compiled, and each kind's load (its share of the mix's, or
 * its own). Every problem is a ConfigError naming the field (exit 2). Pure but for compiling
 * the schemas (ajv, loaded only when a profile has request kinds).
 */

import { apportionAtLeastOne } from '../../util/apportion.js';
import { ConfigError } from '../../util/errors.js';
import { ajvFor } from '../../util/precompiled-validator.js';
import { printable } from '../../util/printable.js';
import type {
  RequestBodyTemplate,
  RequestExpectation,
  RequestKindSettings,
  RequestsSettings,
  RequestTemplate,
  SetupRequestSettings,
  ThroughputSettings,
} from './profile.js';
import type { RequestKindFile, RequestsFile, RequestTemplateFile, ThroughputFile } from './profile-file.js';
import { checkJsonTemplate, compileTemplate, jsonValueTemplate } from './request-template.js';
import { scaleStages } from './stage-plan.js';

/** Resolves a throughput block (resolve-profile.ts owns the defaults). */
export type ThroughputResolver = (file: ThroughputFile, where: string) => ThroughputSettings;

/** Checks a JSON Schema by compiling it as the driver will (2020-12). */
export function compileBodySchema(schema: Record<string, unknown> | boolean, where: string) {
  try {
    return ajvFor({
      name: 'request-kind',
      dialect: '2020-12',
      options: { allErrors: false, strict: false },
      schema: schema as Record<string, unknown>,
    }).compile(schema as Record<string, unknown>);
  } catch (error) {
    throw new ConfigError(`${where}: not a usable JSON Schema (${printable((error as Error).message)})`);
  }
}

function bodyOf(file: RequestTemplateFile, where: string, captured: ReadonlySet<string>): RequestBodyTemplate {
  if (file.body !== undefined && file.multipart !== undefined) throw new ConfigError(`${where}.multipart: give a body or multipart parts, not both`);
  if (file.multipart !== undefined) {
    for (const [i, part] of file.multipart.entries()) compileTemplate(part.value, `${where}.multipart[${i}].value`, captured);
    return { multipart: file.multipart.map((part) => ({ ...part })) };
  }
  if (file.body === undefined) return null;
  // A string is a JSON text template; any other JSON value is a template in its strings.
  const text = typeof file.body === 'string' ? file.body : jsonValueTemplate(file.body);
  checkJsonTemplate(compileTemplate(text, `${where}.body`, captured), `${where}.body`);
  return { json: text };
}

function templateOf(file: RequestTemplateFile, where: string, captured: ReadonlySet<string>): RequestTemplate {
  if (!file.path.startsWith('/')) throw new ConfigError(`${where}.path: "${printable(file.path)}" must start with "/" (a path under the API base)`);
  compileTemplate(file.path, `${where}.path`, captured);
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(file.headers ?? {})) {
    compileTemplate(value, `${where}.headers.${name}`, captured);
    headers[name.toLowerCase()] = value;
  }
  const body = bodyOf(file, where, captured);
  if (body !== null && file.method === 'GET') throw new ConfigError(`${where}.body: a GET request has no body`);
  return { method: file.method, path: file.path, headers, body, credential: file.credential ?? 'participant' };
}

function expectationOf(file: RequestKindFile, where: string): RequestExpectation {
  const expect = file.expect ?? {};
  if (expect.schema !== undefined) compileBodySchema(expect.schema, `${where}.expect.schema`);
  return {
    status: expect.status ?? [200],
    mediaType: expect.mediaType === undefined ? null : expect.mediaType.toLowerCase(),
    schema: expect.schema ?? null,
    headers: (expect.headers ?? []).map((name) => name.toLowerCase()),
  };
}

/** A weighted kind's part of the mix's in-flight bound and connections. */
interface KindBounds {
  maxInFlight: number;
  connections: number;
}

/** A kind's share of the mix: its rate and stages scaled by `share`, its apportioned in-flight bound and connections. */
function shareOf(mix: ThroughputSettings, share: number, bounds: KindBounds): ThroughputSettings {
  return {
    ...mix,
    ratePerSec: mix.ratePerSec * share,
    rampToPerSec: mix.rampToPerSec * share,
    ...bounds,
    stages: mix.stages ? scaleStages(mix.stages, share) : null,
  };
}

/**
 * The weighted kinds' in-flight bounds and connections: the mix's, apportioned by weight, each
 * kind at least one, summing to the mix's exactly (docs/design.md §2.15). Too few of the bound
 * the mix's model uses (in flight for an open model, connections for a closed one) is exit 2:
 * rounding each kind up to one would run more than the profile allows. The bound the model
 * does not use falls back to one per kind.
 */
function apportionBounds(mix: ThroughputSettings, weights: readonly number[], where: string): KindBounds[] {
  const weighted = weights.filter((weight) => weight > 0);
  const inFlight = apportionAtLeastOne(mix.maxInFlight, weighted);
  const connections = apportionAtLeastOne(mix.connections, weighted);
  const [field, total, shares] =
    mix.model === 'closed' ? (['connections', mix.connections, connections] as const) : (['maxInFlight', mix.maxInFlight, inFlight] as const);
  if (mix.enabled && shares === null) {
    throw new ConfigError(
      `${where}.${field}: ${total} cannot give each of the ${weighted.length} weighted kinds one; raise it to ${weighted.length} or give some kinds a load of their own`,
    );
  }
  let next = 0;
  return weights.map((weight) => {
    if (weight <= 0) return { maxInFlight: mix.maxInFlight, connections: mix.connections };
    const i = next++;
    return { maxInFlight: inFlight?.[i] ?? 1, connections: connections?.[i] ?? 1 };
  });
}

/** `requests` of a profile file, resolved; `where` is `<source>: requests`. */
export function resolveRequests(file: RequestsFile, where: string, throughput: ThroughputResolver): RequestsSettings {
  const captured = new Set<string>();
  const setup: SetupRequestSettings[] = (file.setup ?? []).map((step, i) => {
    const at = `${where}.setup[${i}]`;
    const template = templateOf(step, at, captured);
    for (const [name, pointer] of Object.entries(step.capture ?? {})) {
      if (pointer !== '' && !pointer.startsWith('/'))
        throw new ConfigError(`${at}.capture.${name}: "${printable(pointer)}" is not a JSON Pointer (e.g. /0 or /userId)`);
    }
    // Captured only after this step: a step cannot use its own answer.
    for (const name of Object.keys(step.capture ?? {})) captured.add(name);
    return { ...template, expectStatus: step.expectStatus ?? [200], capture: { ...step.capture } };
  });
  const { setup: _setup, kinds: _kinds, ...mixFile } = file;
  const mix = throughput(mixFile, where);
  const seen = new Set<string>();
  const weights = file.kinds.map((kind) => (kind.load === undefined ? (kind.weight ?? 1) : 0));
  const totalWeight = weights.reduce((sum, weight) => sum + weight, 0);
  const bounds = apportionBounds(mix, weights, where);
  const kinds = file.kinds.map((kind, i): RequestKindSettings => {
    const at = `${where}.kinds[${i}]`;
    if (seen.has(kind.name)) throw new ConfigError(`${at}.name: "${printable(kind.name)}" names two kinds; each kind needs a name of its own`);
    seen.add(kind.name);
    if (kind.load !== undefined && kind.weight !== undefined)
      throw new ConfigError(`${at}.weight: remove it: a kind with a load of its own takes no share of the mix`);
    const template = templateOf(kind, at, captured);
    const share = kind.load === undefined ? (totalWeight > 0 ? (weights[i] as number) / totalWeight : 0) : null;
    const own = kind.load === undefined ? shareOf(mix, share as number, bounds[i] as KindBounds) : throughput(kind.load, `${at}.load`);
    // `requests.enabled: false` switches every kind off, those with a load of their own too.
    const load = mix.enabled ? own : { ...own, enabled: false };
    return { ...load, ...template, name: kind.name, expect: expectationOf(kind, at), share };
  });
  return { setup, kinds };
}
