/**
 * schemas/report.schema.json against the TypeScript contract (src/contract/report.ts), field
 * for field: the TypeScript compiler walks the `Report` type, and every property, in both
 * directions, must be in the schema under the same name, required exactly when the type does
 * not make it optional, nullable exactly when the type allows null, and of the same primitive
 * type (string, number, boolean, the same literals, arrays of the same, records of the same).
 * The schema may say more (bounds, patterns, descriptions); it may not say something else.
 */
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

interface SchemaNode {
  $ref?: string;
  type?: string | string[];
  const?: unknown;
  enum?: unknown[];
  properties?: Record<string, SchemaNode>;
  required?: string[];
  additionalProperties?: SchemaNode | boolean;
  patternProperties?: Record<string, SchemaNode>;
  pattern?: string;
  items?: SchemaNode;
  allOf?: SchemaNode[];
  oneOf?: SchemaNode[];
  anyOf?: SchemaNode[];
}

const root = new URL('../../', import.meta.url);
const schema = JSON.parse(await readFile(new URL('schemas/report.schema.json', root), 'utf8')) as SchemaNode;

/** The schema document `$ref`s point into: the file's, or a drifted copy in the test below. */
let documentRoot: SchemaNode = schema;

/** Follows a `$ref` (a JSON pointer into the schema document). */
function deref(node: SchemaNode): SchemaNode {
  if (!node.$ref) return node;
  const target = node.$ref
    .replace(/^#\//, '')
    .split('/')
    .reduce<unknown>((at, key) => (at as Record<string, unknown>)[key], documentRoot) as SchemaNode;
  const { $ref: _, ...rest } = node;
  return deref({ ...rest, ...target });
}

/** One node with `allOf` parts merged into one object schema. */
function merged(node: SchemaNode): SchemaNode {
  const resolved = deref(node);
  if (!resolved.allOf) return resolved;
  const { allOf, ...own } = resolved;
  const parts = [own, ...allOf.map(merged)];
  return {
    type: 'object',
    properties: Object.assign({}, ...parts.map((part) => part.properties)),
    required: parts.flatMap((part) => part.required ?? []),
  };
}

/** The schema's alternatives for a value, and whether null is one of them. */
function alternatives(node: SchemaNode): { nullable: boolean; options: SchemaNode[] } {
  const resolved = merged(node);
  const choices = resolved.oneOf ?? resolved.anyOf;
  if (choices) {
    const all = choices.map(alternatives);
    return { nullable: all.some((a) => a.nullable), options: all.flatMap((a) => a.options) };
  }
  const types = [resolved.type ?? []].flat();
  const literals = resolved.enum ?? ('const' in resolved ? [resolved.const] : undefined);
  const nullable = types.includes('null') || (literals?.includes(null) ?? false);
  if (types.length === 1 && types[0] === 'null') return { nullable: true, options: [] };
  return { nullable, options: [resolved] };
}

const tsconfig = ts.getParsedCommandLineOfConfigFile(
  fileURLToPath(new URL('tsconfig.json', root)),
  {},
  { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => {} },
);
const program = ts.createProgram([fileURLToPath(new URL('src/contract/report.ts', root))], { ...tsconfig!.options, noEmit: true });
const checker = program.getTypeChecker();
const source = program.getSourceFile(fileURLToPath(new URL('src/contract/report.ts', root)))!;
const reportSymbol = checker.getExportsOfModule(checker.getSymbolAtLocation(source)!).find((symbol) => symbol.name === 'Report')!;
const reportType = checker.getDeclaredTypeOfSymbol(reportSymbol);

const isFlag = (type: ts.Type, flag: ts.TypeFlags): boolean => (type.flags & flag) !== 0;

/** What a TypeScript type is at one place: its members without null and undefined, and whether null is one. */
function members(type: ts.Type): { nullable: boolean; rest: ts.Type[] } {
  const all = type.isUnion() ? type.types : [type];
  const rest = all.filter((t) => !isFlag(t, ts.TypeFlags.Null | ts.TypeFlags.Undefined));
  // `boolean` is the union true | false: one member here.
  const booleans = rest.filter((t) => isFlag(t, ts.TypeFlags.BooleanLiteral));
  const others = rest.filter((t) => !isFlag(t, ts.TypeFlags.BooleanLiteral));
  return { nullable: all.some((t) => isFlag(t, ts.TypeFlags.Null)), rest: booleans.length === 2 ? [checker.getBooleanType(), ...others] : rest };
}

/** The schema primitive a TypeScript type is, or null for an object or array. */
function primitive(type: ts.Type): string | null {
  if (isFlag(type, ts.TypeFlags.StringLike)) return 'string';
  if (isFlag(type, ts.TypeFlags.NumberLike)) return 'number';
  if (isFlag(type, ts.TypeFlags.BooleanLike)) return 'boolean';
  return null;
}

function schemaTypes(node: SchemaNode): string[] {
  const types = [node.type ?? []].flat().map((t) => (t === 'integer' ? 'number' : t));
  const literals = node.enum ?? ('const' in node ? [node.const] : []);
  for (const literal of literals) if (literal !== null) types.push(typeof literal);
  if (node.properties || node.additionalProperties !== undefined || node.patternProperties) types.push('object');
  if (node.items) types.push('array');
  return [...new Set(types)];
}

/**
 * Every disagreement between a TypeScript type and a schema node, as `path: what`. A member
 * of a union is held to the schema's alternatives without its nullability (the union's).
 */
function compare(type: ts.Type, node: SchemaNode, path: string, inUnion = false): string[] {
  if (isFlag(type, ts.TypeFlags.Any | ts.TypeFlags.Unknown)) return [];
  const ours = members(type);
  const theirs = alternatives(node);
  const problems: string[] = [];
  if (!inUnion && ours.nullable !== theirs.nullable)
    problems.push(`${path}: ${ours.nullable ? 'nullable in report.ts, not in the schema' : 'nullable in the schema, not in report.ts'}`);
  const literals = ours.rest.filter((t) => t.isStringLiteral());
  if (literals.length > 0 && literals.length === ours.rest.length) {
    const wanted = literals.map((t) => (t as ts.StringLiteralType).value).sort();
    const given = theirs.options
      .flatMap((option) => option.enum ?? ('const' in option ? [option.const] : []))
      .filter((v) => v !== null)
      .map(String)
      .sort();
    if (JSON.stringify(wanted) !== JSON.stringify(given))
      problems.push(`${path}: report.ts allows ${JSON.stringify(wanted)}, the schema ${JSON.stringify(given)}`);
    return problems;
  }
  if (ours.rest.length !== 1 || theirs.options.length > 1) {
    // A union of shapes: each member must match one of the schema's alternatives.
    for (const member of ours.rest) {
      if (!theirs.options.some((option) => memberMatches(member, option, path)))
        problems.push(`${path}: ${checker.typeToString(member)} matches no alternative of the schema`);
    }
    return problems;
  }
  const [member] = ours.rest as [ts.Type];
  const option = theirs.options[0];
  if (!option) return [...problems, `${path}: only null in the schema`];
  const types = schemaTypes(option);
  const scalar = primitive(member);
  if (scalar !== null) {
    if (types.length > 0 && !types.includes(scalar)) problems.push(`${path}: ${scalar} in report.ts, ${types.join(' | ')} in the schema`);
    return problems;
  }
  if (checker.isArrayType(member) || checker.isTupleType(member)) {
    if (!types.includes('array')) return [...problems, `${path}: an array in report.ts, ${types.join(' | ') || 'untyped'} in the schema`];
    const [element] = checker.getTypeArguments(member as ts.TypeReference);
    return [...problems, ...(option.items && element ? compare(element, option.items, `${path}[]`) : [`${path}: the schema has no items`])];
  }
  if (types.length > 0 && !types.includes('object')) return [...problems, `${path}: an object in report.ts, ${types.join(' | ')} in the schema`];
  return [...problems, ...compareObject(member, option, path)];
}

/** A union member against one schema alternative: a string literal is one of its literals, or a string its pattern allows. */
function memberMatches(member: ts.Type, option: SchemaNode, path: string): boolean {
  if (!member.isStringLiteral()) return compare(member, option, path, true).length === 0;
  const literals = option.enum ?? ('const' in option ? [option.const] : undefined);
  if (literals) return literals.includes(member.value);
  return schemaTypes(option).includes('string') && (option.pattern === undefined || new RegExp(option.pattern).test(member.value));
}

function compareObject(type: ts.Type, node: SchemaNode, path: string): string[] {
  const problems: string[] = [];
  const properties = checker.getPropertiesOfType(type);
  const declared = node.properties ?? {};
  const required = new Set(node.required ?? []);
  for (const property of properties) {
    const where = `${path}.${property.name}`;
    const child = declared[property.name];
    if (!child) {
      problems.push(`${where}: in report.ts, not in the schema`);
      continue;
    }
    const optional = (property.flags & ts.SymbolFlags.Optional) !== 0;
    if (optional === required.has(property.name))
      problems.push(`${where}: ${optional ? 'optional in report.ts, required in the schema' : 'required in report.ts, optional in the schema'}`);
    problems.push(...compare(checker.getTypeOfSymbol(property), child, where));
  }
  const names = new Set(properties.map((property) => property.name));
  for (const name of Object.keys(declared)) if (!names.has(name)) problems.push(`${path}.${name}: in the schema, not in report.ts`);
  for (const name of required) if (!(name in declared) && !names.has(name)) problems.push(`${path}.${name}: required by the schema, declared nowhere`);
  const index = checker.getIndexInfosOfType(type).find((info) => isFlag(info.keyType, ts.TypeFlags.String));
  if (index && !isFlag(index.type, ts.TypeFlags.Any | ts.TypeFlags.Unknown)) {
    const values = [...(typeof node.additionalProperties === 'object' ? [node.additionalProperties] : []), ...Object.values(node.patternProperties ?? {})];
    if (values.length === 0) problems.push(`${path}: a record in report.ts, no additionalProperties or patternProperties in the schema`);
    for (const value of values) problems.push(...compare(index.type, value, `${path}[key]`));
  }
  return problems;
}

/** Every disagreement between the Report type and a whole schema document. */
function reportProblems(doc: SchemaNode): string[] {
  documentRoot = doc;
  try {
    return compare(reportType, doc, 'report');
  } finally {
    documentRoot = schema;
  }
}

describe('schemas/report.schema.json against src/contract/report.ts', () => {
  it('has every field of the Report type, and no other, with the same optionality, nullability and type', () => {
    expect(
      ts.getPreEmitDiagnostics(program).map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n')),
      'report.ts compiles',
    ).toEqual([]);
    expect(checker.getPropertiesOfType(reportType).length, 'the Report type resolved').toBeGreaterThan(20);
    expect(reportProblems(schema)).toEqual([]);
  });

  it('tells apart a schema that drifted from the type', () => {
    type Def = SchemaNode & { properties: Record<string, SchemaNode> };
    type Defs = { chatStreams: Def; check: Def; throughput: Def; histogram: Def };
    const drifted = structuredClone(schema) as SchemaNode & { properties: Record<string, SchemaNode>; $defs: Defs };
    drifted.properties.durationMs = { type: 'string' };
    delete drifted.properties.runId;
    drifted.required = drifted.required!.filter((name) => name !== 'interrupted');
    drifted.properties.invented = { type: 'number' };
    delete drifted.$defs.chatStreams.properties.resume!.properties!.lost;
    drifted.$defs.check.properties.status = { enum: ['pass', 'fail'] };
    drifted.$defs.throughput.properties.requestedRatePerSec = { type: 'number' };
    drifted.$defs.histogram.properties.p99 = { type: 'boolean' };
    expect(reportProblems(drifted)).toEqual(
      expect.arrayContaining([
        'report.runId: in report.ts, not in the schema',
        'report.durationMs: number in report.ts, string in the schema',
        'report.interrupted: required in report.ts, optional in the schema',
        'report.invented: in the schema, not in report.ts',
        'report.checks[].status: report.ts allows ["fail","pass","skip"], the schema ["fail","pass"]',
        'report.scenarios.chatStreams.resume.lost: in report.ts, not in the schema',
        'report.scenarios.photoUpload.requestedRatePerSec: nullable in report.ts, not in the schema',
        'report.generator.eventLoopDelayMs.p99: number in report.ts, boolean in the schema',
      ]),
    );
    expect(reportProblems(schema)).toEqual([]);
  });
});
