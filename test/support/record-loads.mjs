// Preloaded with `--import` (through NODE_OPTIONS, so the re-executed run, its threads and its
// worker processes load it too): appends the URL of every module that loads, one per line with
// the process ID, to the file named by COACHBENCH_RECORD_LOADS.
import { appendFileSync } from 'node:fs';
import { registerHooks } from 'node:module';

const file = process.env.COACHBENCH_RECORD_LOADS;
registerHooks({
  load(url, context, nextLoad) {
    if (file && !url.startsWith('node:')) appendFileSync(file, `${process.pid} ${url}\n`);
    return nextLoad(url, context);
  },
});
