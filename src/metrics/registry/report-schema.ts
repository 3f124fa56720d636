/**
 * The metric fields of schemas/report.schema.json, from the registry. Each metric root's
 * fields in the schema must be the registry's, of the same kind, required unless the
 * registry gives a `since`; `npm run docs:metrics` writes a field that is missing, of the
 * wrong kind or wrongly required, and leaves every other line of the hand-kept schema as it
 * is (a field's finer bounds, such as a ratio's maximum, may be refined by hand).
 * test/metrics/metric-registry.test.ts fails until the schema agrees.
 */
import { applyEdits, type JSONPath, modify, parse } from 'jsonc-parser';
import type { MetricDecl } from './metric-decl.js';
import { fieldKind, REGISTRY, type RegistrySection } from './metric-registry.js';

export interface SchemaNode {
  $ref?: string;
  type?: string | string[];
  properties?: Record<string, SchemaNode>;
  required?: string[];
  allOf?: SchemaNode[];
  oneOf?: SchemaNode[];
  minimum?: number;
  description?: string;
}

/** The schema the registry gives a metric's field (what `npm run docs:metrics` writes). */
export function metricFieldSchema(decl: MetricDecl): SchemaNode {
  const description = decl.since === undefined ? {} : { description: `Since ${decl.since} (optional): ${decl.doc}.` };
  if (decl.measure === 'histogram') return { $ref: '#/$defs/histogram', ...description };
  if (decl.measure === 'family') return { $ref: '#/$defs/counts', ...description };
  if (decl.unit === 'flag') return { type: 'boolean', ...description };
  const integer = decl.unit === 'count' && decl.measure !== 'figure';
  return { type: integer ? 'integer' : 'number', minimum: 0, ...description };
}

/** What a schema leaf holds, in the registry's words (`fieldKind`, or `flag`). */
export function schemaKind(leaf: SchemaNode): string {
  if (leaf.$ref === '#/$defs/histogram') return 'histogram';
  if (leaf.$ref === '#/$defs/counts' || leaf.$ref === '#/$defs/failureCounts') return 'record';
  const types = [leaf.type ?? []].flat();
  if (types.includes('boolean')) return 'flag';
  if (types.includes('integer') || types.includes('number')) return 'scalar';
  return `not a metric (${JSON.stringify(leaf)})`;
}

/** The kind a registry metric's schema field must have. */
export const expectedKind = (decl: MetricDecl): string => (decl.unit === 'flag' ? 'flag' : fieldKind(decl));

/** A node of the schema document and its JSON path. */
interface Located {
  node: SchemaNode;
  path: JSONPath;
}

/** The object schemas a node stands for, following `$ref`, a nullable `oneOf` and the parts of an `allOf`. */
function objectParts(doc: SchemaNode & { $defs?: Record<string, SchemaNode> }, at: Located): Located[] {
  const { node, path } = at;
  if (node.$ref) {
    const name = node.$ref.replace('#/$defs/', '');
    return objectParts(doc, { node: doc.$defs?.[name] as SchemaNode, path: ['$defs', name] });
  }
  if (node.oneOf) {
    const index = node.oneOf.findIndex((part) => part.type !== 'null');
    return objectParts(doc, { node: node.oneOf[index] as SchemaNode, path: [...path, 'oneOf', index] });
  }
  if (node.allOf) return node.allOf.flatMap((part, i) => objectParts(doc, { node: part, path: [...path, 'allOf', i] }));
  return [at];
}

/** The object schema of a root (`scenarios.chatStreams`): the parts that hold its properties. */
function rootParts(doc: SchemaNode, reportPath: string): Located[] {
  let parts: Located[] = [{ node: doc, path: [] }];
  for (const key of reportPath.split('.')) {
    const holder = parts.find((part) => part.node.properties?.[key] !== undefined);
    if (!holder) throw new Error(`schemas/report.schema.json has no ${reportPath}`);
    parts = objectParts(doc, { node: holder.node.properties![key] as SchemaNode, path: [...holder.path, 'properties', key] });
  }
  return parts;
}

const FORMAT = { formattingOptions: { insertSpaces: true, tabSize: 2, eol: '\n' } };

/** One change to the schema text, computed on the text as it stands. */
type Change = (text: string) => string;

const setValue =
  (path: JSONPath, value: unknown): Change =>
  (text) =>
    applyEdits(text, modify(text, path, value, FORMAT));

/** The nested object schema that holds `rest` (`['lost']` under `resume`), for a field not in the schema at all. */
function nestedSchema(rest: readonly string[], decl: MetricDecl): SchemaNode {
  const [key, ...deeper] = rest as [string, ...string[]];
  const child = deeper.length === 0 ? metricFieldSchema(decl) : nestedSchema(deeper, decl);
  const description = decl.since === undefined ? {} : { description: `Since ${decl.since} (optional).` };
  return { type: 'object', ...description, required: [key], properties: { [key]: child } };
}

/**
 * Whether a field is required in the object holding it. Below a required chain: unless the
 * registry gives a `since`. Below an optional object (report.json's absent-or-whole
 * sections, such as `resume`): when it came in the same version as the object (whose
 * description says since when), not when it was added to the object later.
 */
function requiredIn(holder: SchemaNode, decl: MetricDecl, requiredChain: boolean): boolean {
  if (requiredChain) return decl.since === undefined;
  return decl.since !== undefined && (holder.description ?? '').startsWith(`Since ${decl.since}`);
}

/** The changes one metric's field needs (none when the schema already agrees with the registry). */
function changesFor(parts: readonly Located[], field: string, decl: MetricDecl): Change[] {
  const keys = field.split('.');
  let holders = parts;
  // Whether every object above the current one is required in its own holder.
  let requiredChain = true;
  for (const [depth, key] of keys.entries()) {
    const holder = holders.find((part) => part.node.properties?.[key] !== undefined);
    if (!holder) {
      const target = holders.at(-1)!;
      const value = depth === keys.length - 1 ? metricFieldSchema(decl) : nestedSchema(keys.slice(depth + 1), decl);
      return [setValue([...target.path, 'properties', key], value), ...requiredChange(target, key, requiredIn(target.node, decl, requiredChain))];
    }
    const node = holder.node.properties![key] as SchemaNode;
    if (depth === keys.length - 1) {
      const retype = schemaKind(node) === expectedKind(decl) ? [] : [setValue([...holder.path, 'properties', key], metricFieldSchema(decl))];
      return [...retype, ...requiredChange(holder, key, requiredIn(holder.node, decl, requiredChain))];
    }
    requiredChain &&= (holder.node.required ?? []).includes(key);
    holders = [{ node, path: [...holder.path, 'properties', key] }];
  }
  return [];
}

/** Adds `key` to, or takes it from, a node's `required` when it is not as wanted. */
function requiredChange(holder: Located, key: string, wanted: boolean): Change[] {
  const required = holder.node.required ?? [];
  if (required.includes(key) === wanted) return [];
  return [setValue([...holder.path, 'required'], wanted ? [...required, key] : required.filter((name) => name !== key))];
}

/**
 * The schema text with every registry metric's field present, of its kind and required as
 * the registry says; the same text when nothing was missing. One change at a time, each on
 * the text the last one left, until none is needed.
 */
export function withRegistryMetrics(text: string, sections: readonly RegistrySection[] = REGISTRY): string {
  for (let round = 0; round < 1_000; round += 1) {
    const doc = parse(text) as SchemaNode;
    const next = sections
      .flatMap(({ reportPath, groups }) => {
        const parts = rootParts(doc, reportPath);
        return groups.flatMap((group) => group.metrics.flatMap((decl) => (decl.report === undefined ? [] : changesFor(parts, decl.report, decl))));
      })
      .at(0);
    if (next === undefined) return text;
    text = next(text);
  }
  throw new Error('the report schema did not settle: a registry metric conflicts with a field of the schema');
}
