/**
 * The metric registry (src/metrics/registry/) against everything that restates it: the report
 * schema (every registry metric is in schemas/report.schema.json with a matching type and
 * required-ness, and every numeric field of a metric root is in the registry), the TypeScript
 * contract (checked by `npm run typecheck`: expectTypeOf below fails to compile when a report
 * path is in one and not the other), and the live exports (every route names an exported
 * metric of the right type and its labels).
 */
import { readFile } from 'node:fs/promises';
import { describe, expect, expectTypeOf, it } from 'vitest';
import type { AuthSummary, ChatStreamsSummary, GeneratorSummary, HistogramSummary, PhotoUploadSummary, TagLinkSummary } from '../../src/contract/report.js';
import { EXPORTED, exportedCountsOf, HISTOGRAM_SOURCES, KIND_LABEL } from '../../src/metrics/exported-metrics.js';
import { summarizeHistogram } from '../../src/metrics/histogram.js';
import { MetricSet } from '../../src/metrics/metric-set.js';
import type { CHAT_STREAMS_GROUPS } from '../../src/metrics/registry/chat-metrics.js';
import type { AUTH_METRICS, GENERATOR_METRICS } from '../../src/metrics/registry/generator-metrics.js';
import { counter, family, figure, group, histogram, type MetricDecl, peak, type ReportPathsOf } from '../../src/metrics/registry/metric-decl.js';
import { type MetricRoot, REGISTERED, REGISTRY, REPORT_METRICS } from '../../src/metrics/registry/metric-registry.js';
import { reportFields } from '../../src/metrics/registry/report-fields.js';
import { expectedKind, metricFieldSchema, schemaKind } from '../../src/metrics/registry/report-schema.js';
import type { PHOTO_UPLOAD, TAG_LINK } from '../../src/metrics/registry/throughput-metrics.js';

/** Fields of a metric root that are not metrics: what they are instead. */
const NOT_METRICS = {
  chatStreams: ['samples'], // redacted failure samples for people
  photoUpload: ['model'], // the workload model, open or closed
  tagLink: ['model'],
  generator: ['behind.maxShare'], // a setting: the share behind.share is held to
  auth: [],
} as const satisfies Record<MetricRoot, readonly string[]>;

type Schema = { $ref?: string; type?: string | string[]; properties?: Record<string, Schema>; required?: string[]; allOf?: Schema[]; oneOf?: Schema[] };

const schema = JSON.parse(await readFile(new URL('../../schemas/report.schema.json', import.meta.url), 'utf8')) as Schema & { $defs: Record<string, Schema> };

/** Follows `$ref`, a nullable `oneOf` and an `allOf` of object parts into one object schema. */
function objectSchema(node: Schema): Schema {
  if (node.$ref) return objectSchema(schema.$defs[node.$ref.replace('#/$defs/', '')] as Schema);
  if (node.oneOf) return objectSchema(node.oneOf.find((part) => part.type !== 'null') as Schema);
  if (node.allOf) {
    const parts = node.allOf.map(objectSchema);
    return {
      type: 'object',
      properties: Object.assign({}, ...parts.map((part) => part.properties)),
      required: parts.flatMap((part) => part.required ?? []),
    };
  }
  return node;
}

function rootSchema(reportPath: string): Schema {
  return objectSchema(reportPath.split('.').reduce<Schema>((node, key) => objectSchema(node).properties?.[key] as Schema, schema));
}

/** Every leaf of an object schema: its dotted path, its schema, and whether each segment on the way is required. */
function leaves(node: Schema, prefix = '', required = true): { path: string; leaf: Schema; required: boolean }[] {
  return Object.entries(node.properties ?? {}).flatMap(([key, child]) => {
    const path = `${prefix}${key}`;
    const isRequired = required && (node.required ?? []).includes(key);
    const resolved = child.$ref ? child : objectSchema(child);
    return resolved.type === 'object' && resolved.properties ? leaves(resolved, `${path}.`, isRequired) : [{ path, leaf: child, required: isRequired }];
  });
}

describe('the registry against schemas/report.schema.json', () => {
  for (const { root, reportPath } of REGISTRY) {
    it(`${root}: the same fields, of the same kind, optional exactly where the registry says since when`, () => {
      const fromSchema = leaves(rootSchema(reportPath)).filter(({ path }) => !(NOT_METRICS[root] as readonly string[]).includes(path));
      const fromRegistry = REPORT_METRICS.filter((metric) => metric.root === root);
      const inSchema = new Set(fromSchema.map(({ path }) => path));
      const missing = fromRegistry
        .filter(({ field }) => !inSchema.has(field))
        .map(({ field, decl }) => `"${field}": ${JSON.stringify(metricFieldSchema(decl))}`);
      expect(missing, `npm run docs:metrics writes these into ${reportPath} in schemas/report.schema.json (add the fields to src/contract/report.ts)`).toEqual(
        [],
      );
      expect(fromSchema.map(({ path }) => path).sort(), 'fields of the schema that the registry does not declare').toEqual(
        fromRegistry.map(({ field }) => field).sort(),
      );
      for (const { field, decl } of fromRegistry) {
        const { leaf, required } = fromSchema.find(({ path }) => path === field)!;
        expect(schemaKind(leaf), field).toBe(expectedKind(decl));
        expect(required, `${field}: required in the schema unless the registry gives a "since"`).toBe(decl.since === undefined);
      }
    });
  }
});

/** Dotted paths of a contract type's metric fields: numbers, flags, histograms and count records. */
type PathsOf<T, P extends string = ''> = { [K in keyof T & string]-?: PathOf<NonNullable<T[K]>, `${P}${K}`> }[keyof T & string];
type PathOf<V, Path extends string> = V extends HistogramSummary
  ? Path
  : V extends number | boolean
    ? Path
    : V extends readonly unknown[]
      ? never
      : V extends object
        ? string extends keyof V
          ? Path
          : PathsOf<V, `${Path}.`>
        : never;

describe('the registry against the TypeScript contract (src/contract/report.ts)', () => {
  it('every report path of the registry is a metric field of the contract, and every metric field is in the registry', () => {
    type Registry<M extends readonly MetricDecl[]> = ReportPathsOf<M>;
    type Contract<T, R extends MetricRoot> = Exclude<PathsOf<T>, (typeof NOT_METRICS)[R][number]>;
    expectTypeOf<Registry<(typeof CHAT_STREAMS_GROUPS)[number]['metrics']>>().toEqualTypeOf<Contract<ChatStreamsSummary, 'chatStreams'>>();
    expectTypeOf<Registry<typeof PHOTO_UPLOAD.metrics>>().toEqualTypeOf<Contract<PhotoUploadSummary, 'photoUpload'>>();
    expectTypeOf<Registry<typeof TAG_LINK.metrics>>().toEqualTypeOf<Contract<TagLinkSummary, 'tagLink'>>();
    expectTypeOf<Registry<typeof GENERATOR_METRICS.metrics>>().toEqualTypeOf<Contract<GeneratorSummary, 'generator'>>();
    expectTypeOf<Registry<typeof AUTH_METRICS.metrics>>().toEqualTypeOf<Contract<AuthSummary, 'auth'>>();
    // The runtime half: the registry's report paths are unique within each root.
    for (const { root } of REGISTRY) {
      const fields = REPORT_METRICS.filter((metric) => metric.root === root).map(({ field }) => field);
      expect(new Set(fields).size, root).toBe(fields.length);
    }
  });
});

describe('the registry itself', () => {
  it('names each MetricSet metric once', () => {
    const names = REGISTERED.flatMap(({ name }) => (name === null ? [] : [name]));
    expect(names.filter((name, i) => names.indexOf(name) !== i)).toEqual([]);
  });

  it('makes each ratio of two counts of report fields of its own root', () => {
    for (const { root, field, decl } of REPORT_METRICS) {
      if (!decl.proportionOf) continue;
      const counts = REPORT_METRICS.filter((metric) => metric.root === root && metric.decl.measure === 'counter').map((metric) => metric.field);
      expect(counts, `${root}.${field}`).toEqual(expect.arrayContaining([decl.proportionOf.events, decl.proportionOf.trials]));
    }
    expect(REPORT_METRICS.filter(({ decl }) => decl.proportionOf).map(({ root, field }) => `${root}.${field}`)).toEqual([
      'photoUpload.errorRate',
      'tagLink.errorRate',
    ]);
  });

  it('says what every metric is, in one line', () => {
    for (const { decl, name } of REGISTERED) {
      expect(decl.doc.trim(), name ?? decl.report).not.toBe('');
      expect(decl.doc, name ?? decl.report).not.toMatch(/\n/);
    }
  });

  it('routes each exported metric to a series of the right type, with exactly its labels', () => {
    for (const { decl, name } of REGISTERED) {
      if (!decl.export) continue;
      const exported = EXPORTED[decl.export.family];
      const labels = [...Object.keys(decl.export.labels), ...(decl.export.keyLabel ? [decl.export.keyLabel] : [])].sort();
      // `kind` is carried only by request kinds' series, which are named at run time (exportedCountsOf).
      expect(labels, `${name} → ${exported.name}`).toEqual([...exported.labels].filter((label) => label !== KIND_LABEL).sort());
      expect(exported.kind, `${name} → ${exported.name}`).toBe(decl.measure === 'histogram' ? 'histogram' : 'counter');
    }
  });

  it('feeds every exported histogram from a registry histogram, and every counter route from a declared metric', () => {
    const fedHistograms = new Set(HISTOGRAM_SOURCES.map(({ key }) => key));
    for (const [key, exported] of Object.entries(EXPORTED)) {
      if (exported.kind === 'histogram') expect(fedHistograms.has(key as keyof typeof EXPORTED), key).toBe(true);
    }
    expect(exportedCountsOf('chat.events.KEEP_ALIVE')).toEqual([{ key: 'events', labels: { stream: 'chat', type: 'KEEP_ALIVE' } }]);
    for (const { decl, name } of REGISTERED) {
      if (decl.measure !== 'counter' || name === null) continue;
      const expected = [
        ...(decl.failsCheck ? [{ key: 'checkFailures', labels: { check: decl.failsCheck } }] : []),
        ...(decl.export ? [{ key: decl.export.family, labels: decl.export.labels, ...('scale' in decl.export ? { scale: decl.export.scale } : {}) }] : []),
      ];
      expect(exportedCountsOf(name), name).toEqual(expected);
    }
  });
});

describe('report fields from a declaration', () => {
  const metrics = group('demo.', [
    counter('opened', 'info', { report: 'opened', doc: 'opens' }),
    figure('ratePerSec', 'perSec', 'higher', { doc: 'opens per second' }),
    counter('resumeLost', 'lower', { report: 'resume.lost', since: '1.6.0', doc: 'events lost across resumes' }),
    peak('open', 'count', { report: 'peakOpen', doc: 'open at once' }),
    histogram('waitUs', 'lower', { report: 'waitMs', doc: 'waits' }),
    family('byCode.', 'lower', { report: 'byCode', doc: 'failures by code' }),
    counter('internalOnly', 'info', { doc: 'never in the report' }),
  ]);

  it('reads each declared metric from the MetricSet, in declaration order, nested where the path says', () => {
    const total = new MetricSet();
    total.inc('demo.opened', 3);
    total.inc('demo.resumeLost', 2);
    total.inc('demo.byCode.status:503', 4);
    total.inc('demo.internalOnly', 9);
    total.peak('demo.open', 5);
    total.histogram('demo.waitUs').recordValue(1_500);
    const fields = reportFields(total, [metrics], { ratePerSec: 1.5 }, (name) =>
      total.hasHistogram(name) ? summarizeHistogram(total.histogram(name)) : undefined,
    );
    expect(Object.keys(fields)).toEqual(['opened', 'ratePerSec', 'resume', 'peakOpen', 'waitMs', 'byCode']);
    expect(fields).toMatchObject({ opened: 3, ratePerSec: 1.5, resume: { lost: 2 }, peakOpen: 5, byCode: { 'status:503': 4 }, waitMs: { count: 1 } });
  });

  it('refuses a figure its builder gave no value, and leaves out a histogram its reader declines', () => {
    const total = new MetricSet();
    expect(() => reportFields(total, [metrics], {}, () => undefined)).toThrow(/report figure ratePerSec has no value/);
    expect(reportFields(total, [metrics], { ratePerSec: 0 }, () => undefined)).not.toHaveProperty('waitMs');
  });
});
