/** CLI flags of the form --name value (numbers) or --name a,b,c (lists, when the fallback is an array). */
export function flag(name, fallback) {
  const args = process.argv.slice(2);
  const i = args.indexOf(`--${name}`);
  if (i < 0) return fallback;
  const raw = args[i + 1] ?? '';
  return Array.isArray(fallback) ? raw.split(',').map(Number) : Number(raw);
}
