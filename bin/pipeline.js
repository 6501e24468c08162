#!/usr/bin/env -S node --no-concurrent-recompilation
// Thin entry point: the compiled CLI lives in dist/ (built by `npm run build`),
// as one script (dist/cli-bundle.js, run through harness/cli/cli-bundle.cts) and
// as ES modules, run instead when the bundle is missing or older than them.
// CommonJS (bin/package.json): Node starts a CommonJS script without setting
// up its ES module loader, some 3 ms of every command.
'use strict';
const { join } = require('node:path');
const { CliBundle } = require('../dist/harness/cli/cli-bundle.cjs');
const { privateCacheFolder } = require('../dist/harness/process/private-cache-folder.cjs');

const argv = process.argv.slice(2);
const env = process.env;
const cacheDir = env['BENCHGRAPH_COMPILE_CACHE'] === '0' ? null : privateCacheFolder(`compile-${process.version}-${process.arch}`);
const profile = /^[a-z-]+$/.test(argv[0] ?? '') ? argv[0] : 'other';
const file = join(__dirname, '..', 'dist', 'cli-bundle.js');
const bundle = env['BENCHGRAPH_CLI_BUNDLE'] === '0' ? null : CliBundle.open(file, cacheDir, profile);
(async () => {
  const { main } = (bundle && (await bundle.import('harness/cli/main'))) || (await import('../dist/harness/cli/main.js'));
  await main(argv);
})();
