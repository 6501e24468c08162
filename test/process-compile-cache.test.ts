// The CommonJS code cache (harness/process/compile-cache.ts) in real child
// processes: the first start compiles and writes the cache, the next one
// compiles yaml and the schema validators from it, and the modules behave
// the same either way; a cache folder others can write to is never used.
import test from 'ava';
import { spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { projectRoot, tempDir } from './helpers/cli.js';
import { CLI_NODE_FLAGS } from '../harness/process/cli-argv.js';

const child = `
const { installCompileCache, compileCacheStats } = await import(${JSON.stringify(join(projectRoot, 'dist', 'harness', 'process', 'compile-cache.js'))});
installCompileCache();
const { createRequire } = await import('node:module');
const require = createRequire(${JSON.stringify(join(projectRoot, 'dist', 'harness', 'config', 'x.js'))});
const YAML = require('yaml');
const validators = require('../../schemas/validators.cjs');
const parsed = YAML.parse('a: [1, {b: two}]');
process.stdout.write(JSON.stringify({ parsed, validators: Object.keys(validators).length, pipelineValid: validators.pipeline({}), stats: compileCacheStats() }));
`;

function start(tmp: string): {
  parsed: unknown;
  validators: number;
  pipelineValid: boolean;
  stats: { hits: number; misses: number; rejected: number; folder: string | null };
} {
  const r = spawnSync(process.execPath, [...CLI_NODE_FLAGS, '--input-type=module', '-e', child], { encoding: 'utf8', env: { ...process.env, TMPDIR: tmp } });
  if (r.status !== 0) throw new Error(r.stderr);
  return JSON.parse(r.stdout);
}

test('the second start compiles yaml and the validators from the cache the first wrote, and they behave the same', (t) => {
  const tmp = tempDir('bg-compile-cache-');
  const first = start(tmp);
  t.true(first.stats.folder?.startsWith(tmp) ?? false, String(first.stats.folder));
  t.true(first.stats.misses > 10, `yaml's files and the validators compiled afresh: ${JSON.stringify(first.stats)}`);
  t.is(first.stats.hits, 0);
  const second = start(tmp);
  t.is(second.stats.misses, 0, JSON.stringify(second.stats));
  t.is(second.stats.rejected, 0, JSON.stringify(second.stats));
  t.is(second.stats.hits, first.stats.misses);
  t.deepEqual(second.parsed, { a: [1, { b: 'two' }] });
  t.deepEqual([second.parsed, second.validators, second.pipelineValid], [first.parsed, first.validators, first.pipelineValid]);
});

test('a cache folder that others may write to is not used', (t) => {
  const tmp = tempDir('bg-compile-cache-open-');
  const uid = process.getuid?.() ?? 0;
  mkdirSync(join(tmp, `benchgraph-cache-${uid}`), { recursive: true });
  chmodSync(join(tmp, `benchgraph-cache-${uid}`), 0o777);
  const r = start(tmp);
  t.is(r.stats.folder, null);
  t.is(r.stats.hits + r.stats.misses, 0);
  t.deepEqual(r.parsed, { a: [1, { b: 'two' }] });
});
