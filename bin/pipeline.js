#!/usr/bin/env node
// Thin entry point: the compiled CLI lives in dist/ (built by `npm run build`),
// as one script (dist/cli-bundle.js, run through harness/cli/cli-bundle.ts) and
// as ES modules, run instead when the bundle is missing or older than them.
import { fileURLToPath } from 'node:url';
import { CliBundle } from '../dist/harness/cli/cli-bundle.js';
import { privateCacheFolder } from '../dist/harness/process/private-cache-folder.js';

const argv = process.argv.slice(2);
const env = process.env;
const cacheDir = env['BENCHGRAPH_COMPILE_CACHE'] === '0' ? null : privateCacheFolder(`compile-${process.version}-${process.arch}`);
const profile = /^[a-z-]+$/.test(argv[0] ?? '') ? argv[0] : 'other';
const file = fileURLToPath(new URL('../dist/cli-bundle.js', import.meta.url));
const bundle = env['BENCHGRAPH_CLI_BUNDLE'] === '0' ? null : CliBundle.open(file, cacheDir, profile);
const { main } = (bundle && (await bundle.import('harness/cli/main'))) || (await import('../dist/harness/cli/main.js'));
main(argv);
