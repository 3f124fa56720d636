// What grew between two heap snapshots of one process (node --heapsnapshot-signal, or
// v8.writeHeapSnapshot): objects grouped by type and constructor name, counted and their own
// (shallow) sizes summed, the groups that grew the most first. For bench/soak.js's question
// "what grows", when the live heap's slope says something does.
// It prints the diff; with --save, it also writes it to bench/results/heap-diff.json with its
// measuredWith (--out FILE: to FILE instead).
//
//   node bench/heap-diff.js --help   (its arguments and flags, from their declaration below)
import { readFileSync } from 'node:fs';
import { parseFlags } from './lib/flags.js';
import { beginMeasurement, writeResults } from './lib/results.js';

const flags = parseFlags(import.meta.url, {
  flags: {
    top: { kind: 'number', default: 25, means: 'groups listed among those that grew the most' },
    save: { kind: 'switch', means: 'also writes the diff to bench/results/heap-diff.json (with --out FILE: to FILE)' },
  },
  positionals: [
    { name: 'earlierPath', value: 'EARLIER.heapsnapshot', means: 'the earlier snapshot' },
    { name: 'laterPath', value: 'LATER.heapsnapshot', means: 'the later snapshot of the same process' },
  ],
});
const begun = beginMeasurement();
const { earlierPath, laterPath } = flags;
const TOP = flags.top;

/** The parsed snapshot, or exit 2 naming the file: a benchmark helper, not a place for stack traces. */
function readSnapshot(path) {
  try {
    return JSON.parse(readFileSync(path, 'utf8'));
  } catch (error) {
    console.error(`heap-diff: ${path}: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(2);
  }
}

/** Count and shallow bytes per "type name" group of one snapshot. */
function groups(path) {
  const snapshot = readSnapshot(path);
  const { node_fields: fields, node_types: types } = snapshot.snapshot.meta;
  const width = fields.length;
  const typeAt = fields.indexOf('type');
  const nameAt = fields.indexOf('name');
  const sizeAt = fields.indexOf('self_size');
  const typeNames = types[typeAt];
  const { nodes, strings } = snapshot;
  const byGroup = new Map();
  let total = 0;
  for (let i = 0; i < nodes.length; i += width) {
    const type = typeNames[nodes[i + typeAt]];
    // Strings and code are grouped by type alone: their "name" is their content.
    const name = type === 'object' || type === 'closure' || type === 'native' ? `${type} ${strings[nodes[i + nameAt]]}` : type;
    const size = nodes[i + sizeAt];
    total += size;
    const group = byGroup.get(name) ?? { count: 0, bytes: 0 };
    group.count++;
    group.bytes += size;
    byGroup.set(name, group);
  }
  return { byGroup, total, nodes: nodes.length / width };
}

const earlier = groups(earlierPath);
const later = groups(laterPath);
const names = new Set([...earlier.byGroup.keys(), ...later.byGroup.keys()]);
const rows = [...names]
  .map((name) => {
    const a = earlier.byGroup.get(name) ?? { count: 0, bytes: 0 };
    const b = later.byGroup.get(name) ?? { count: 0, bytes: 0 };
    return { group: name, countDelta: b.count - a.count, bytesDelta: b.bytes - a.bytes, countLater: b.count, bytesLater: b.bytes };
  })
  .sort((x, y) => y.bytesDelta - x.bytesDelta);
const diff = {
  earlier: { path: earlierPath, objects: earlier.nodes, shallowBytes: earlier.total },
  later: { path: laterPath, objects: later.nodes, shallowBytes: later.total },
  grewMost: rows.slice(0, TOP),
  shrankMost: rows.slice(-5).reverse(),
};
console.log(JSON.stringify(diff, null, 2));
if (flags.save || flags.out) await writeResults('heap-diff', begun, diff);
