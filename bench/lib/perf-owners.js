// Who spent a process's CPU, from Linux perf's samples (`perf record`, cpu-clock): each sample
// of `perf report` is given one owner — the kernel, the JavaScript V8 compiled (named through
// node's --perf-basic-prof map), a V8 or Node built-in by what it does, a library, or a thread
// other than the main one — so that two tools on one workload can be set side by side per
// request. perf is a ruler nobody here wrote: unlike V8's own profiler it sees the kernel, V8's
// helper threads and the C++ under every JavaScript call.
import { spawnSync } from 'node:child_process';

/**
 * Built-ins of the `node` binary by what they do, first match wins (V8 and Node symbol names;
 * `Json` before the parser rule, which would also take `JsonParser`).
 */
const BUILTIN_OWNERS = [
  [
    'GC on the main thread',
    /Heap::|Scaveng|MarkCompact|Sweep|Marking|Evacuat|GCTracer|RememberedSet|MemoryAllocator|SlotSet|MinorMS|GlobalHandles|RecordWrite|MemoryChunk/,
  ],
  ['JSON.parse', /Json/],
  ['compiling JavaScript', /Scanner|Parser|Compil|Bytecode|Ast|Preparse|Maglev|Turbofan|compiler::|Deoptimiz|SharedFunctionInfo|Scope/],
  ['regular expressions', /RegExp|Irregexp/],
  ['strings (hash, slice, concat, compare, case)', /String|Utf8|utf8|simdutf|ToLowerCase|FastAsciiConvert|nbytes|Hex/],
  ['Map and Set lookups', /OrderedHash|HashTable|Dictionary/],
  ['property access (inline caches)', /IC_|IC\b|Property|Keyed|LookupIterator|Map::|Transition|DefineNamed|SetNamed|GetNamed/],
  ['typed arrays and Buffers', /TypedArray|ArrayBuffer|Buffer|BackingStore/],
  [
    'calls between JavaScript and C++',
    /Call|Invoke|Context|Execution|Function::|Isolate::|HandleScope|JSEntry|Microtask|async_context|MakeCallback|Emit|Template/,
  ],
  ['libuv and stream_base', /uv_|uv__|Stream|TCP|WriteWrap/],
];

/** The owner of one sample of thread `comm`, in shared object `dso`, at symbol `symbol`. */
export function ownerOf(comm, dso, symbol) {
  if (comm === 'V8Worker') return "V8's helper threads (GC, compiles)";
  if (comm !== 'MainThread') return `other threads (${comm})`;
  if (dso.includes('kernel')) return 'kernel (syscalls, TCP, scheduling)';
  if (dso.startsWith('[JIT]') || dso.startsWith('perf-') || symbol.includes('JS:')) return 'JavaScript (compiled by V8)';
  if (dso !== 'node') return 'libc and other libraries';
  const found = BUILTIN_OWNERS.find(([, pattern]) => pattern.test(symbol));
  return found ? `V8 and Node: ${found[0]}` : 'V8 and Node: other';
}

/**
 * Samples per owner in the perf data file `path` (`perf report` reads the JIT maps node wrote
 * under /tmp while they exist), with their total.
 */
export function samplesByOwner(path) {
  const report = spawnSync('perf', ['report', '-i', path, '--stdio', '-t', '|', '--sort', 'comm,dso,sym', '-F', 'sample,comm,dso,sym'], {
    encoding: 'utf8',
    maxBuffer: 256 * 2 ** 20,
  });
  if (report.status !== 0) throw new Error(`perf report -i ${path} exited ${report.status}: ${report.stderr.trim().split('\n').at(-1)}`);
  const owners = {};
  let total = 0;
  for (const line of report.stdout.split('\n')) {
    const [count, comm, dso, symbol] = line.split('|').map((field) => field.trim());
    if (!/^\d+$/.test(count ?? '') || symbol === undefined) continue;
    const owner = ownerOf(comm, dso, symbol);
    owners[owner] = (owners[owner] ?? 0) + Number(count);
    total += Number(count);
  }
  return { owners, total };
}
