/**
 * The floors of src/ (docs/design.md §0) hold: the real tree has no upward import and no
 * cycle, and the same rules (the project's own .dependency-cruiser.cjs, as `npm run lint`
 * runs them) fail on a small tree that has one.
 */
import { execFile } from 'node:child_process';
import { copyFile, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const CRUISER = join(ROOT, 'node_modules/dependency-cruiser/bin/dependency-cruiser.mjs');

interface Cruise {
  code: number;
  output: string;
}

function cruise(cwd: string): Promise<Cruise> {
  return new Promise((resolve) => {
    execFile(process.execPath, [CRUISER, 'src', '--config', '.dependency-cruiser.cjs', '--output-type', 'err'], { cwd }, (error, stdout, stderr) => {
      resolve({ code: error ? Number(error.code ?? 1) : 0, output: `${stdout}${stderr}` });
    });
  });
}

const scratch: string[] = [];
afterAll(async () => {
  await Promise.all(scratch.map((dir) => rm(dir, { recursive: true, force: true })));
});

/** A throwaway project with the real rules and the given source files. */
async function treeWith(files: Record<string, string>): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'coachbench-floors-'));
  scratch.push(dir);
  await copyFile(join(ROOT, '.dependency-cruiser.cjs'), join(dir, '.dependency-cruiser.cjs'));
  await writeFile(join(dir, 'tsconfig.json'), JSON.stringify({ compilerOptions: { module: 'NodeNext', moduleResolution: 'NodeNext', strict: true } }));
  for (const [path, text] of Object.entries(files)) {
    await mkdir(dirname(join(dir, path)), { recursive: true });
    await writeFile(join(dir, path), text);
  }
  return dir;
}

describe('floors of src/', () => {
  it('the real tree has no upward import and no cycle', async () => {
    const result = await cruise(ROOT);
    expect(result.output).toContain('no dependency violations found');
    expect(result.code).toBe(0);
  });

  it('fails on an import from a lower floor to a higher one', async () => {
    const dir = await treeWith({
      'src/report/render.ts': 'export const render = (): string => "";\n',
      'src/metrics/histogram.ts': "import { render } from '../report/render.js';\nexport const h = render;\n",
    });
    const result = await cruise(dir);
    expect(result.code).not.toBe(0);
    expect(result.output).toContain('no-upward-from-metrics');
  });

  it('fails when a floor other than orchestration or cli uses the reference service', async () => {
    const dir = await treeWith({
      'src/reference-service/start-target.ts': 'export const start = (): number => 1;\n',
      'src/drivers/chat.ts': "import { start } from '../reference-service/start-target.js';\nexport const c = start;\n",
      'src/orchestration/run.ts': "import { start } from '../reference-service/start-target.js';\nexport const r = start;\n",
    });
    const result = await cruise(dir);
    expect(result.code).not.toBe(0);
    expect(result.output).toContain('src/drivers/chat.ts');
    expect(result.output).not.toContain('src/orchestration/run.ts');
  });

  it('fails when the reference service imports the suite', async () => {
    const dir = await treeWith({
      'src/metrics/names.ts': 'export const n = 1;\n',
      'src/reference-service/stats.ts': "import { n } from '../metrics/names.js';\nexport const s = n;\n",
    });
    const result = await cruise(dir);
    expect(result.code).not.toBe(0);
    expect(result.output).toContain('reference-service-stands-apart');
  });

  it('fails on a cycle inside one floor', async () => {
    const dir = await treeWith({
      'src/orchestration/a.ts': "import { b } from './b.js';\nexport const a = (): number => b() + 1;\n",
      'src/orchestration/b.ts': "import { a } from './a.js';\nexport const b = (): number => a() - 1;\n",
    });
    const result = await cruise(dir);
    expect(result.code).not.toBe(0);
    expect(result.output).toContain('no-circular');
  });
});
