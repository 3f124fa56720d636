/**
 * The metric fields of schemas/report.schema.json come from the metric registry:
 * `npm run docs:metrics` writes them (withRegistryMetrics), so a new metric is declared in
 * the registry, measured in a driver and typed in src/contract/report.ts, and the schema
 * follows. These tests hold the schema in the repository to that, and show what the writer
 * does with a metric the schema lacks.
 */
import { readFile } from 'node:fs/promises';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { parse } from 'jsonc-parser';
import { describe, expect, it } from 'vitest';
import { counter, family, group, histogram, type MetricGroup } from '../../src/metrics/registry/metric-decl.js';
import { REGISTRY, type RegistrySection } from '../../src/metrics/registry/metric-registry.js';
import { metricFieldSchema, type SchemaNode, withRegistryMetrics } from '../../src/metrics/registry/report-schema.js';
import { makeReport } from '../support/make-report.js';

const text = await readFile(new URL('../../schemas/report.schema.json', import.meta.url), 'utf8');

type Def = SchemaNode & { properties: Record<string, SchemaNode> };
type Doc = SchemaNode & { $defs: { chatStreams: Def; photoUpload: Def }; properties: { generator: Def } };

/** The registry with `extra` groups added to one root. */
function withExtra(root: RegistrySection['root'], extra: MetricGroup): RegistrySection[] {
  return REGISTRY.map((section) => (section.root === root ? { ...section, groups: [...section.groups, extra] } : section));
}

const newChat = group('chat.', [
  counter('demoResets', 'lower', { report: 'demoResets', since: '1.7.0', doc: 'streams the target reset' }),
  counter('demoResumeGaps', 'lower', { report: 'resume.demoGaps', since: '1.7.0', doc: 'gaps across resumes' }),
  counter('demoQueued', 'info', { report: 'demoQueue.queued', since: '1.7.0', doc: 'events queued' }),
  histogram('demoQueueWaitUs', 'lower', { report: 'demoQueue.waitMs', since: '1.7.0', doc: 'time queued' }),
]);
const newPhoto = group('photoUpload.', [family('demoParts.', 'info', { report: 'demoParts', since: '1.7.0', doc: 'parts by name' })]);

describe('the report schema and the metric registry', () => {
  it('agree: npm run docs:metrics has nothing to write in schemas/report.schema.json', () => {
    expect(withRegistryMetrics(text), 'run npm run docs:metrics').toBe(text);
  });

  it('writes a metric the schema lacks, optional since its version, nested where its path says, and leaves the rest alone', () => {
    const written = withRegistryMetrics(withRegistryMetrics(text, withExtra('chatStreams', newChat)), withExtra('photoUpload', newPhoto));
    const before = parse(text) as Doc;
    const after = parse(written) as Doc;
    const chat = after.$defs.chatStreams;
    expect(chat.properties.demoResets).toEqual(metricFieldSchema(newChat.metrics[0]));
    expect(chat.required).not.toContain('demoResets');
    expect(chat.properties.resume!.properties!.demoGaps).toEqual(metricFieldSchema(newChat.metrics[1]));
    expect(chat.properties.demoQueue).toEqual({
      type: 'object',
      description: 'Since 1.7.0 (optional).',
      required: ['queued', 'waitMs'],
      properties: { queued: metricFieldSchema(newChat.metrics[2]), waitMs: metricFieldSchema(newChat.metrics[3]) },
    });
    expect(chat.required).not.toContain('demoQueue');
    // photoUpload is the shared throughput fields and its own: a new field goes into its own part.
    const photoOwn = after.$defs.photoUpload.allOf![1]!;
    expect(photoOwn.properties!.demoParts).toEqual({ $ref: '#/$defs/counts', description: 'Since 1.7.0 (optional): parts by name.' });
    // Nothing else moved: without the new fields the schema is the one in the repository.
    delete chat.properties.demoResets;
    delete chat.properties.resume!.properties!.demoGaps;
    delete chat.properties.demoQueue;
    delete photoOwn.properties!.demoParts;
    expect(after).toEqual(before);
  });

  it('writes a required field for a metric without a version, and the schema it writes validates reports', () => {
    const extra = group('generator.', [counter('demoTicks', 'info', { report: 'demoTicks', doc: 'ticks' })]);
    const written = parse(withRegistryMetrics(text, withExtra('generator', extra))) as Doc;
    expect(written.properties.generator.required).toContain('demoTicks');
    const validate = new Ajv2020({ allErrors: true, allowUnionTypes: true, strict: false }).compile(written);
    const report = makeReport();
    expect(validate({ ...report, generator: { ...report.generator, demoTicks: 3 } })).toBe(true);
    expect(validate(report), 'a report without the new required field').toBe(false);
    expect(validate({ ...report, generator: { ...report.generator, demoTicks: 'three' } })).toBe(false);
  });

  it('retypes a field of the wrong kind and fixes its required-ness', () => {
    const doc = parse(text) as Doc;
    doc.$defs.chatStreams.properties.opened = { type: 'boolean' };
    doc.$defs.chatStreams.required = doc.$defs.chatStreams.required!.filter((name) => name !== 'stalled');
    const fixed = parse(withRegistryMetrics(JSON.stringify(doc, null, 2))) as Doc;
    expect(fixed.$defs.chatStreams.properties.opened).toEqual({ type: 'integer', minimum: 0 });
    expect(fixed.$defs.chatStreams.required).toContain('stalled');
  });
});
