import { describe, expect, it } from 'vitest';
import { ownerOf } from '../../bench/lib/perf-owners.js';

describe("perf samples' owners", () => {
  it('takes JSON.parse apart from compiling, though both are parsers', () => {
    expect(ownerOf('MainThread', 'node', '[.] v8::internal::JsonParser<unsigned char>::ScanJsonString')).toBe('V8 and Node: JSON.parse');
    expect(ownerOf('MainThread', 'node', '[.] v8::internal::Scanner::Next')).toBe('V8 and Node: compiling JavaScript');
  });

  it('names compiled JavaScript by the map, the kernel by its DSO and a helper thread by its name', () => {
    expect(ownerOf('MainThread', '[JIT] tid 4242', "[.] JS:*'HTTPParser.HEADER file:///x.js:1:1")).toBe('JavaScript (compiled by V8)');
    expect(ownerOf('MainThread', '[kernel.kallsyms]', '[k] _copy_from_iter')).toBe('kernel (syscalls, TCP, scheduling)');
    expect(ownerOf('V8Worker', 'node', '[.] v8::internal::ConcurrentMarking::Run')).toBe("V8's helper threads (GC, compiles)");
    expect(ownerOf('libuv-worker', 'libc.so.6', '[.] memcpy')).toBe('other threads (libuv-worker)');
  });

  it("counts a main-thread built-in it cannot place as V8's other work, not as a guess", () => {
    expect(ownerOf('MainThread', 'node', '[.] v8::internal::Something::Unheard')).toBe('V8 and Node: other');
    expect(ownerOf('MainThread', 'libc.so.6', '[.] __memmove_avx_unaligned_erms')).toBe('libc and other libraries');
  });
});
