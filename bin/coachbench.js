#!/usr/bin/env node
// The one place that calls process.exit: src/cli/main.ts returns the exit code.
import { main } from '../dist/cli/main.js';

const code = await main(process.argv.slice(2));
process.exit(code);
