// The config cache (harness/config/config-cache.ts): a hit is the full load's
// result; any changed input misses; a broken entry is ignored; errors still come
// from the full load, with file and line.
import test from 'ava';
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadingCode, loadingCodeCached, loadingRecordFile, loadPipelineCached } from '../harness/config/config-cache.js';
import { loadPipeline } from '../harness/config/load-pipeline.js';
import { UserError } from '../harness/errors.js';
import { knownStageKinds } from '../harness/engine/stage-registry.js';
import { projectRoot, tempDir } from './helpers/cli.js';

const smoke = readFileSync(join(projectRoot, 'pipelines', 'smoke.yaml'), 'utf8');
const kinds = knownStageKinds();

/** A pipeline file and an empty cache folder of its own (the CLI's is privateCacheFolder('config')). */
function setUp(text = smoke): { file: string; cacheDir: string } {
  const dir = tempDir('benchgraph-config-cache-');
  const file = join(dir, 'pipeline.yaml');
  writeFileSync(file, text);
  const cacheDir = join(dir, 'cache');
  mkdirSync(cacheDir);
  return { file, cacheDir };
}

test('a second load of the same file and --set texts is a hit equal to the full load', async (t) => {
  const { file, cacheDir } = setUp();
  const sets = ['design.rounds=3'];
  const first = await loadPipelineCached(file, { sets, knownKinds: kinds }, cacheDir);
  const second = await loadPipelineCached(file, { sets, knownKinds: kinds }, cacheDir);
  t.deepEqual([first.hit, second.hit], [false, true]);
  t.deepEqual(second.config, loadPipeline(file, { sets, knownKinds: kinds }));
  t.deepEqual(second.config, first.config);
  t.is((second.config.design as { rounds: number }).rounds, 3);
});

test('an edited pipeline file misses and gives the edited config', async (t) => {
  const { file, cacheDir } = setUp();
  await loadPipelineCached(file, { knownKinds: kinds }, cacheDir);
  writeFileSync(file, smoke.replace('rounds: 6', 'rounds: 4'));
  const r = await loadPipelineCached(file, { knownKinds: kinds }, cacheDir);
  t.false(r.hit);
  t.is((r.config.design as { rounds: number }).rounds, 4);
});

test('another --set text misses', async (t) => {
  const { file, cacheDir } = setUp();
  await loadPipelineCached(file, { sets: ['design.rounds=3'], knownKinds: kinds }, cacheDir);
  const r = await loadPipelineCached(file, { sets: ['design.rounds=5'], knownKinds: kinds }, cacheDir);
  t.false(r.hit);
  t.is((r.config.design as { rounds: number }).rounds, 5);
});

test('other compiled validators miss (made-up validators digest)', async (t) => {
  const { file, cacheDir } = setUp();
  await loadPipelineCached(file, { knownKinds: kinds }, cacheDir);
  const other = () => ({ ...loadingCode(), validators: 'f'.repeat(64) });
  t.false((await loadPipelineCached(file, { knownKinds: kinds }, cacheDir, other)).hit);
  t.true((await loadPipelineCached(file, { knownKinds: kinds }, cacheDir, other)).hit);
});

test('a corrupt cache entry is ignored: the full load runs and rewrites it', async (t) => {
  const { file, cacheDir } = setUp();
  const full = await loadPipelineCached(file, { knownKinds: kinds }, cacheDir);
  const [entry] = readdirSync(cacheDir);
  writeFileSync(join(cacheDir, entry!), '{"format":1,"key":');
  const r = await loadPipelineCached(file, { knownKinds: kinds }, cacheDir);
  t.false(r.hit);
  t.deepEqual(r.config, full.config);
  t.true((await loadPipelineCached(file, { knownKinds: kinds }, cacheDir)).hit);
});

test('a file edited into an invalid one gives the full load error with its line', async (t) => {
  const { file, cacheDir } = setUp();
  await loadPipelineCached(file, { knownKinds: kinds }, cacheDir);
  writeFileSync(file, smoke.replace('rounds: 6', 'rounds: many'));
  const e = await t.throwsAsync(loadPipelineCached(file, { knownKinds: kinds }, cacheDir), { instanceOf: UserError });
  t.regex(e!.message, /must be integer/);
  t.is(e!.place.line, smoke.split('\n').findIndex((l) => l.includes('rounds: 6')) + 1);
});

test('an image file the rules looked for is looked for again on a hit', async (t) => {
  const text = smoke.replace('cohorts:', 'artifacts:\n  images:\n    mine:\n      kind: oci-archive\n      file: ./mine.tar\ncohorts:');
  const { file, cacheDir } = setUp(text);
  const tar = join(file, '..', 'mine.tar');
  writeFileSync(tar, '');
  t.false((await loadPipelineCached(file, { knownKinds: kinds }, cacheDir)).hit);
  t.true((await loadPipelineCached(file, { knownKinds: kinds }, cacheDir)).hit);
  rmSync(tar);
  const e = await t.throwsAsync(loadPipelineCached(file, { knownKinds: kinds }, cacheDir), { instanceOf: UserError });
  t.regex(e!.message, /no such file: .*mine\.tar/);
});

test('the loading code digests are reused while every file they read keeps its size and mtime, and computed again when one does not', (t) => {
  const dir = tempDir('benchgraph-loading-');
  const first = loadingCodeCached(dir);
  t.deepEqual(first, loadingCode(), 'the first call computes what loadingCode() computes');
  const file = loadingRecordFile(dir);
  const record = JSON.parse(readFileSync(file, 'utf8')) as { files: [string, number, number][]; loading: { code: string } };
  t.true(
    record.files.some(([f]) => f.endsWith('validators.cjs')),
    'the validators are among the files it read',
  );
  // the record is this checkout's: every file it read is under this project root (another checkout keeps its own)
  t.deepEqual(
    record.files.filter(([f]) => !f.startsWith(projectRoot + '/')),
    [],
  );
  t.regex(file, /loading-code-[0-9a-f]{16}\.json$/);
  // a made-up digest in the record comes back while the files are unchanged: no file was read again
  writeFileSync(file, JSON.stringify({ ...record, loading: { ...record.loading, code: 'made-up' } }));
  t.is(loadingCodeCached(dir).code, 'made-up');
  // one file recorded with another mtime: computed again, the real digest back
  const files = record.files.map(([f, size, mtime], i): [string, number, number] => [f, size, i === 0 ? mtime - 1000 : mtime]);
  writeFileSync(file, JSON.stringify({ ...record, files, loading: { ...record.loading, code: 'made-up' } }));
  t.is(loadingCodeCached(dir).code, first.code);
});
