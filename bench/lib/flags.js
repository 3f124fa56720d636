// Command-line flags of the benchmarks: `--name value` (numbers), `--name a,b,c` (lists, when the
// fallback is an array), `--name word` (text) and bare switches (`--full`, `--no-pin`).
const args = process.argv.slice(2);

/** A number, or a list of numbers when `fallback` is an array. */
export function flag(name, fallback) {
  const i = args.indexOf(`--${name}`);
  if (i < 0) return fallback;
  const raw = args[i + 1] ?? '';
  return Array.isArray(fallback) ? raw.split(',').map(Number) : Number(raw);
}

/** A word such as `--only sink`; `fallback` when absent. */
export function textFlag(name, fallback = null) {
  const i = args.indexOf(`--${name}`);
  return i < 0 ? fallback : (args[i + 1] ?? fallback);
}

/** True when the bare switch `--name` was given. */
export const hasFlag = (name) => args.includes(`--${name}`);
