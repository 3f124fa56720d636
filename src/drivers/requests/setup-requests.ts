/**
 * The setup requests of the `requests` scenario (docs/design.md §2.15): sent once, in order,
 * by each driver process before its kinds start, never measured as load. Each answer must have
 * an expected status, and each value it captures (a JSON Pointer into its body) must be there;
 * the values fill `{setup.NAME}` in later templates.
 */
import type { SetupRequestSettings } from '../../contract/profile/profile.js';
import type { ScenarioContext } from '../../engine/scenario.js';
import { withTraceparent } from '../../engine/transport.js';
import { printable } from '../../util/printable.js';
import { splitApiBase } from '../api-base.js';
import { exchange } from '../throughput/http-exchange.js';
import { NO_JSON, parseJson } from '../throughput/response-check.js';
import { requestBuilder } from './request-builder.js';

/** The value at a JSON Pointer (RFC 6901), or undefined when the document has none there. */
export function atPointer(document: unknown, pointer: string): unknown {
  if (pointer === '') return document;
  let node = document;
  for (const raw of pointer.slice(1).split('/')) {
    const key = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    if (Array.isArray(node)) node = /^(0|[1-9]\d*)$/.test(key) ? node[Number(key)] : undefined;
    else if (node !== null && typeof node === 'object') node = Object.hasOwn(node, key) ? (node as Record<string, unknown>)[key] : undefined;
    else return undefined;
    if (node === undefined) return undefined;
  }
  return node;
}

const asText = (value: unknown): string => (typeof value === 'string' ? value : JSON.stringify(value));

/** Sends every setup request; resolves to the captured values, or to why setup failed. */
export async function runSetup(
  ctx: ScenarioContext,
  steps: readonly SetupRequestSettings[],
  runTag: string,
  timeoutMs: number,
): Promise<{ ok: true; captured: Map<string, string> } | { ok: false; reason: string }> {
  const captured = new Map<string, string>();
  const { origin, basePath } = splitApiBase(ctx.apiBase);
  for (const [i, step] of steps.entries()) {
    const where = `setup[${i}] ${step.method} ${step.path}`;
    const spec = requestBuilder(step, { basePath, fixtures: ctx.fixtures, captured, runTag, name: 'setup' })(0);
    const { headers } = withTraceparent(spec.headers, ctx.transport);
    const result = await exchange(ctx.dispatcher, origin, { ...spec, headers }, timeoutMs, ctx.cut);
    if (!result.ok) return { ok: false, reason: `${where}: ${result.detail}` };
    if (!step.expectStatus.includes(result.view.status)) {
      return { ok: false, reason: `${where}: status ${result.view.status} (expected ${step.expectStatus.join(' or ')})` };
    }
    const json = parseJson(result.view.body);
    for (const [name, pointer] of Object.entries(step.capture)) {
      const value = json === NO_JSON ? undefined : atPointer(json, pointer);
      if (value === undefined || value === null) return { ok: false, reason: `${where}: the answer has nothing at ${printable(pointer)} for {setup.${name}}` };
      captured.set(name, asText(value));
    }
  }
  return { ok: true, captured };
}
