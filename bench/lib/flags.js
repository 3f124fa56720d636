// The command line of a benchmark script, declared once: each script, and each library under
// bench/lib/ that reads a flag, declares its flags (kind, default, one-line meaning), and the
// values, the checks, `--help` and `--dry-run` all come from that declaration. A library's flags
// are accepted by every script that imports it, directly or not: the library declares them when
// it is imported, before the script's own declaration is read. Bad input (an unknown flag, a
// number that is not one, a flag missing its value, an argument too many) exits 2 with one line
// naming the flag, before anything starts.
//
// Why a declaration rather than the usage lines of the header comment: those lines said each
// default a second time (beside the code's own), could not say a flag's kind, and drifted (the
// docs quoted flags removed long before); reading them as a contract would be a second grammar
// over prose. The header keeps the prose: `--help` prints its first paragraph.
//
// Kinds: number (--reps 3), numbers (--rates 500,2000), text (--bin PATH), texts (--tools a,b),
// switch (--no-pin). `--name=value` is `--name value`. A value may begin with `--`
// (--client-node-options '--max-semi-space-size=4') unless it is a flag the script knows:
// `--bin --no-pin` is --bin missing its value, not a path named --no-pin.
//
// Most scripts copy the values they use throughout into UPPER_CASE constants right below their
// declaration (`const SECONDS = flags.seconds;`), some named for a unit or role
// (`const DELAY_MS = flags.delay;`, `const OTHER = flags.bin;`). Why not destructure the values
// under the flags' own names: the scripts' functions take `rate`, `streams`, `size` and `seconds`
// as parameters and locals, which those names would shadow, and a constant in capitals reads
// as a setting of the whole run wherever it is used.
import { existsSync, readFileSync } from 'node:fs';
import { relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { renderUsage } from './flag-usage.js';

const REPO = fileURLToPath(new URL('../../', import.meta.url));
const KINDS = ['number', 'numbers', 'text', 'texts', 'switch'];

/** Every script's own two, declared here. */
const COMMON = {
  'dry-run': { kind: 'switch', means: "prints each flag's value as this command line sets it (JSON) and exits 0, measuring nothing" },
  help: { kind: 'switch', means: 'prints this and exits 0' },
};

/** The flags of the libraries imported so far, by name: their declaration and owner. */
const fromLibraries = new Map();

/** Bad input: the one line a script exits 2 with. */
class FlagProblem extends Error {}

const pathOf = (url) => relative(REPO, fileURLToPath(url));

function declareInto(into, owner, declarations) {
  for (const [name, declaration] of Object.entries(declarations)) {
    if (!KINDS.includes(declaration.kind)) throw new Error(`${owner}: --${name} needs a kind (${KINDS.join(', ')})`);
    if (into.has(name)) throw new Error(`${owner}: --${name} is declared by ${into.get(name).owner} already`);
    into.set(name, { ...declaration, owner });
  }
}

/**
 * The flag a token names (`--name`, `--name=value`, `-h`), or null for a plain word (a value, an
 * argument, a negative number). Any other `-x` names no flag: its name is null.
 */
function flagOf(token) {
  if (token === '-h') return { name: 'help', inline: null };
  if (!token.startsWith('-') || token === '-' || /^-\.?\d/.test(token)) return null;
  if (!token.startsWith('--')) return { name: null, inline: null };
  const eq = token.indexOf('=');
  return eq < 0 ? { name: token.slice(2), inline: null } : { name: token.slice(2, eq), inline: token.slice(eq + 1) };
}

function editDistance(a, b) {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++) row[j] = Math.min(previous[j] + 1, row[j - 1] + 1, previous[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
    previous = row;
  }
  return previous[b.length];
}

function unknownFlag(token, declared) {
  const name = token.replace(/^-+/, '').split('=')[0];
  const near = [...declared.keys()]
    .map((known) => ({ known, distance: editDistance(name, known) }))
    .filter(({ known, distance }) => distance <= 2 || (name.length >= 3 && known.startsWith(name)))
    .sort((a, b) => a.distance - b.distance)[0];
  return `unknown flag ${token} (${near ? `did you mean --${near.known}? ` : ''}--help lists the flags)`;
}

const describe = (declaration) =>
  declaration.value ?? { number: 'a number', numbers: 'numbers separated by commas', text: 'a value', texts: 'values separated by commas' }[declaration.kind];

/** The value of one given flag from its text, or a FlagProblem. */
function convert(name, declaration, raw) {
  const numberOf = (text) => {
    const number = Number(text);
    return text.trim() === '' || !Number.isFinite(number) ? null : number;
  };
  const choose = (text) => {
    if (declaration.choices && !declaration.choices.includes(text))
      throw new FlagProblem(`--${name} wants ${declaration.kind === 'texts' ? 'any' : 'one'} of ${declaration.choices.join(', ')}, not "${text}"`);
    return text;
  };
  let value;
  if (declaration.kind === 'number') {
    value = numberOf(raw);
    if (value === null) throw new FlagProblem(`--${name} wants a number, not "${raw}"`);
  } else if (declaration.kind === 'numbers') {
    value = raw.split(',').map(numberOf);
    if (value.includes(null)) throw new FlagProblem(`--${name} wants numbers separated by commas (500,2000), not "${raw}"`);
  } else if (declaration.kind === 'texts') value = raw.split(',').map(choose);
  else value = choose(raw);
  const problem = declaration.check?.(value);
  if (problem) throw new FlagProblem(`--${name} ${problem}, not "${raw}"`);
  return value;
}

/**
 * Reads `argv` against `declared`. Strict, every token must be a declared flag, its value or an
 * argument, and the first that is not throws a FlagProblem; otherwise (a library reading its own
 * flags while the script's are not declared yet) whatever it does not know is passed over, and
 * the script's strict reading, before anything starts, stops a command line that was wrong.
 */
function read(argv, declared, strict) {
  const given = new Map();
  const words = [];
  const complain = (problem) => {
    if (strict) throw new FlagProblem(problem);
  };
  const isFlag = (token) => {
    const flag = flagOf(token);
    return flag !== null && declared.has(flag.name);
  };
  for (let i = 0; i < argv.length; i++) {
    const token = argv[i];
    const flag = flagOf(token);
    if (flag === null) {
      words.push(token);
      continue;
    }
    const declaration = flag.name === null ? undefined : declared.get(flag.name);
    if (!declaration) {
      complain(unknownFlag(token, declared));
      continue;
    }
    let raw = true;
    if (declaration.kind === 'switch') {
      if (flag.inline !== null) {
        complain(`--${flag.name} takes no value (given "${flag.inline}")`);
        continue;
      }
    } else if (flag.inline !== null) raw = flag.inline;
    else if (argv[i + 1] === undefined || isFlag(argv[i + 1])) {
      complain(`--${flag.name} wants ${describe(declaration)} after it${argv[i + 1] === undefined ? '' : `, not the flag ${argv[i + 1]}`}`);
      continue;
    } else raw = argv[++i];
    if (declaration.repeatable) given.set(flag.name, [...(given.get(flag.name) ?? []), raw]);
    else if (given.has(flag.name)) complain(`--${flag.name} is given twice`);
    else given.set(flag.name, raw);
  }
  return { given, words };
}

/**
 * Every declared flag's value: converted where given, else its default (which may be a function
 * of the others' values: of the switches). Given flags are checked before missing ones.
 */
function valuesOf(declared, given, strict) {
  const values = {};
  for (const [name, raw] of given) {
    const declaration = declared.get(name);
    try {
      values[name] =
        declaration.kind === 'switch' ? true : declaration.repeatable ? raw.map((one) => convert(name, declaration, one)) : convert(name, declaration, raw);
    } catch (error) {
      if (strict || !(error instanceof FlagProblem)) throw error;
    }
  }
  const dependent = [];
  for (const [name, declaration] of declared) {
    if (name in values) continue;
    if (declaration.kind === 'switch') values[name] = false;
    else if (typeof declaration.default === 'function') dependent.push([name, declaration]);
    else if (declaration.required && strict) throw new FlagProblem(`--${name} is required: ${declaration.means}`);
    else values[name] = declaration.default ?? (declaration.repeatable ? [] : null);
  }
  for (const [name, declaration] of dependent) values[name] = declaration.default(values);
  return Object.fromEntries([...declared.keys()].map((name) => [name, values[name]]));
}

/** The script's arguments (not flags) by name, checked against their declaration. */
function argumentsOf(words, positionals) {
  const values = {};
  for (const [i, positional] of positionals.entries()) {
    const word = words[i];
    if (word === undefined) {
      if (positional.optional) continue;
      throw new FlagProblem(`${positional.value} is missing (${positional.means}; --help shows the usage)`);
    }
    if (positional.kind === 'number' && (word.trim() === '' || !Number.isFinite(Number(word))))
      throw new FlagProblem(`${positional.value} wants a number, not "${word}"`);
    values[positional.name] = positional.kind === 'number' ? Number(word) : word;
  }
  if (words.length > positionals.length)
    throw new FlagProblem(
      `unexpected argument "${words[positionals.length]}" (${positionals.length === 0 ? 'flags begin with --' : 'one too many'}; --help shows the usage)`,
    );
  return values;
}

/** The first paragraph of the script's header comment: what it measures, said once, there. */
function headerParagraph(file) {
  const lines = [];
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    if (!line.startsWith('//')) break;
    const text = line.replace(/^\/\/ ?/, '');
    if (text.trim() === '') break;
    lines.push(text);
  }
  return lines.join('\n');
}

/**
 * A library's flags, declared when it is imported: accepted by every script that imports it.
 * Returns their values as far as they can be read before the script declares its own (the
 * script's parseFlags then checks the whole command line before anything starts).
 */
export function libraryFlags(libraryUrl, declarations) {
  const own = new Map();
  declareInto(own, pathOf(libraryUrl), declarations);
  declareInto(fromLibraries, pathOf(libraryUrl), declarations);
  return valuesOf(own, read(process.argv.slice(2), own, false).given, false);
}

/**
 * The script's flags and arguments, read from its command line: `--help` prints the usage and
 * exits 0, `--dry-run` prints the values and exits 0, bad input exits 2 with one line; otherwise
 * the values by name (its own flags, its libraries', and its arguments by their `name`).
 *
 * `script.flags`: { name: { kind, default, means, value?, choices?, required?, repeatable?, check? } }
 * where `default` may be a function of the other values (the switches'), `value` names what
 * follows the flag in the usage (PATH, FILE), and `check(value)` returns what is wrong, or null.
 * `script.positionals`: [{ name, value, means, kind?, optional? }]; `script.environment`:
 * { NAME: meaning }; `script.build`: the script measures this checkout's build (npm run build first).
 */
export function parseFlags(scriptUrl, script) {
  const path = pathOf(scriptUrl);
  const declared = new Map();
  declareInto(declared, path, script.flags ?? {});
  for (const [name, declaration] of fromLibraries) declareInto(declared, declaration.owner, { [name]: declaration });
  declareInto(declared, 'bench/lib/flags.js', COMMON);
  const argv = process.argv.slice(2);
  const positionals = script.positionals ?? [];
  for (const { name } of positionals) if (declared.has(name)) throw new Error(`${path}: the argument ${name} has the name of the flag --${name}`);
  if (argv.includes('--help') || argv.includes('-h')) {
    const description = headerParagraph(fileURLToPath(scriptUrl));
    process.stdout.write(renderUsage({ path, description, declared, positionals, environment: script.environment ?? {}, build: script.build === true }));
    process.exit(0);
  }
  try {
    const { given, words } = read(argv, declared, true);
    const values = { ...valuesOf(declared, given, true), ...argumentsOf(words, positionals) };
    if (values['dry-run']) {
      const { help: _help, 'dry-run': _dryRun, ...flags } = values;
      process.stdout.write(`${JSON.stringify({ script: path, values: flags }, null, 2)}\n`);
      process.exit(0);
    }
    // Checked once the flags are read, so that --help and --dry-run answer on a checkout not built yet.
    if (script.build === true && !existsSync(new URL('../../dist/bundle/main.js', import.meta.url))) {
      throw new FlagProblem("measures this checkout's build, and dist/ has none: run npm run build first");
    }
    return values;
  } catch (error) {
    if (!(error instanceof FlagProblem)) throw error;
    console.error(`${path}: ${error.message}`);
    process.exit(2);
  }
}
