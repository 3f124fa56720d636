// Generated blocks in Markdown files live between `<!-- NAME:start -->` and `<!-- NAME:end -->`:
// the results table and the peers tables of docs/benchmarks.md, the peers quote in README.md.

/** Whether `text` holds both markers of block `name`, start before end. */
export function hasMarkers(text, name) {
  const from = text.indexOf(`<!-- ${name}:start -->`);
  return from >= 0 && text.indexOf(`<!-- ${name}:end -->`) > from;
}

/** `text` with block `name` replaced by `block`; throws when its markers are missing or out of order. */
export function spliceBetweenMarkers(text, name, block) {
  const start = `<!-- ${name}:start -->`;
  const end = `<!-- ${name}:end -->`;
  if (!hasMarkers(text, name)) throw new Error(`no ${start} … ${end} markers`);
  return `${text.slice(0, text.indexOf(start) + start.length)}\n${block}\n${text.slice(text.indexOf(end))}`;
}
