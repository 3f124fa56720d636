// The usage a benchmark script prints for `--help`, written from its flag declaration
// (bench/lib/flags.js): one line per flag with what follows it, its meaning and its default, the
// script's own flags first, then each library's, then the two every script has.
import { relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const REPO = fileURLToPath(new URL('../../', import.meta.url));
const WIDTH = 100;
const COLUMN = 30;
const PLACEHOLDER = { number: 'N', numbers: 'N,N,...', text: 'TEXT', texts: 'A,B,...', switch: '' };

/** A default as the usage says it: a list with commas, a path in this checkout relative to it. */
const shown = (value) => (Array.isArray(value) ? value.join(',') : typeof value === 'string' && value.startsWith(REPO) ? relative(REPO, value) : String(value));

/** A default that depends on switches, said for none and for each switch that changes it. */
function dependentDefault(declaration, declared) {
  const switches = [...declared].filter(([, other]) => other.kind === 'switch').map(([name]) => name);
  const none = Object.fromEntries(
    [...declared].map(([name, other]) => [name, other.kind === 'switch' ? false : typeof other.default === 'function' ? null : other.default]),
  );
  const base = shown(declaration.default(none));
  const changes = switches.map((name) => [name, shown(declaration.default({ ...none, [name]: true }))]).filter(([, value]) => value !== base);
  return `default ${base}${changes.map(([name, value], i) => `${i === 0 ? '; ' : ', '}${value} with --${name}`).join('')}`;
}

function notes(declaration, declared) {
  const said = [];
  if (declaration.required) said.push('required');
  else if (typeof declaration.default === 'function') said.push(dependentDefault(declaration, declared));
  else if (declaration.kind !== 'switch' && declaration.default !== undefined && declaration.default !== null)
    said.push(`default ${shown(declaration.default)}`);
  if (declaration.choices) said.push(`${declaration.kind === 'texts' ? 'any of' : 'one of'} ${declaration.choices.join(', ')}`);
  if (declaration.repeatable) said.push('repeatable');
  return said.length === 0 ? '' : ` (${said.join('; ')})`;
}

/** `left` padded to the column, then `text` wrapped under it. */
function entry(left, text) {
  const lines = [];
  let line = left.length + 2 < COLUMN ? left.padEnd(COLUMN) : null;
  if (line === null) {
    lines.push(left);
    line = ' '.repeat(COLUMN);
  }
  let empty = true;
  for (const word of text.split(' ')) {
    if (!empty && line.length + 1 + word.length > WIDTH) {
      lines.push(line);
      line = ' '.repeat(COLUMN);
      empty = true;
    }
    line += `${empty ? '' : ' '}${word}`;
    empty = false;
  }
  lines.push(line);
  return lines.join('\n');
}

const flagEntry = (name, declaration, declared) =>
  entry(
    `  ${name === 'help' ? '-h, ' : ''}--${name}${declaration.kind === 'switch' ? '' : ` ${declaration.value ?? PLACEHOLDER[declaration.kind]}`}`,
    `${declaration.means}${notes(declaration, declared)}`,
  );

/** The whole usage text. */
export function renderUsage({ path, description, declared, positionals, environment, build }) {
  const synopsis = positionals.map((positional) => (positional.optional ? `[${positional.value}]` : positional.value)).join(' ');
  const out = [`usage: ${build ? 'npm run build && ' : ''}node ${path} [flags]${synopsis ? ` ${synopsis}` : ''}`, ''];
  // A first paragraph that leads into a list ends in a colon; what follows it is in the comment.
  if (description) out.push(description.replace(/:$/, '.'), '');
  if (positionals.length > 0) {
    out.push('arguments:');
    for (const positional of positionals) out.push(entry(`  ${positional.value}`, positional.means));
    out.push('');
  }
  const owners = [...new Set([...declared.values()].map((declaration) => declaration.owner))];
  for (const owner of owners) {
    const common = owner === 'bench/lib/flags.js';
    out.push(owner === path ? 'flags:' : common ? 'flags of every script:' : `flags of ${owner} (every script that imports it):`);
    for (const [name, declaration] of declared) if (declaration.owner === owner) out.push(flagEntry(name, declaration, declared));
    out.push('');
  }
  const variables = Object.entries(environment);
  if (variables.length > 0) {
    out.push('environment:');
    for (const [name, meaning] of variables) out.push(entry(`  ${name}`, meaning));
    out.push('');
  }
  out.push(
    'A number flag takes one number, a list flag values separated by commas (--rates 500,2000);',
    '--name=value is --name value.',
    `More: the comment at the top of ${path}, and docs/benchmarks.md.`,
    '',
  );
  return out.join('\n');
}
