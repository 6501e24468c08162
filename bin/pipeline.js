#!/usr/bin/env node
// Thin entry point: the compiled CLI lives in dist/ (built by `npm run build`).
import { main } from '../dist/harness/cli/main.js';
main(process.argv.slice(2));
