// The CLI as one script (harness/cli/cli-bundle.cts, dist/cli-bundle.js): the
// real CLI runs from it with the same answers as from the ES modules of dist/,
// loading none of them natively; the loader's own logic (one registry, live
// exports, stale modules, the start-up subset) on a made-up three-module bundle.
import test from 'ava';
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, readdirSync, readFileSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { BUNDLE_FORMAT, CliBundle, HEADER_PREFIX, type BundleHeader } from '../harness/cli/cli-bundle.cjs';
import { CLI_NODE_FLAGS, cliPath, projectRoot, tempDir } from './helpers/cli.js';

/** A made-up bundle of three modules in `<dir>/dist/`, each with its (empty) ES build beside it, as build-cli-bundle.ts records them. */
function madeUpBundle(): { file: string; dist: string } {
  const dist = join(tempDir('benchgraph-cli-bundle-'), 'dist');
  mkdirSync(join(dist, 'lib'), { recursive: true });
  const modules: BundleHeader['modules'] = {};
  for (const id of ['lib/errors', 'lib/use', 'lib/late']) {
    writeFileSync(join(dist, `${id}.js`), `// ES build of ${id}\n`);
    const st = statSync(join(dist, `${id}.js`));
    modules[id] = { size: st.size, mtimeMs: st.mtimeMs };
  }
  const header: BundleHeader = { format: BUNDLE_FORMAT, ascii: true, modules };
  const body = `
System.register("lib/errors", [], function (exports_1, context_1) {
  var E, count;
  function bump() { count++; exports_1("count", count); }
  exports_1("bump", bump);
  return { setters: [], execute: function () { E = class E extends Error {}; exports_1("E", E); count = 0; exports_1("count", count); } };
});
System.register("lib/use", ["lib/errors", "node:path"], function (exports_1, context_1) {
  var errors_1, path_1;
  function make() { return new errors_1.E('x'); }
  function seen() { return errors_1.count; }
  function late() { return context_1.import(context_1.meta.url.replace(/use\\.js$/, 'late.js')); }
  exports_1("make", make); exports_1("seen", seen); exports_1("late", late);
  return { setters: [function (m) { errors_1 = m; }, function (m) { path_1 = m; }], execute: function () { exports_1("sep", path_1.sep); } };
});
System.register("lib/late", ["lib/errors"], function (exports_1, context_1) {
  var errors_1;
  return { setters: [function (m) { errors_1 = m; }], execute: function () { exports_1("isE", function (e) { return e instanceof errors_1.E; }); } };
});`;
  const file = join(dist, 'cli-bundle.js');
  writeFileSync(file, `${HEADER_PREFIX}${JSON.stringify(header)}\n(function (System) {\n${body}\n})\n`);
  return { file, dist };
}

test('a made-up bundle: one registry (instanceof holds across modules, a dynamic import by dist URL included), live exports, built-ins from Node', async (t) => {
  const { file } = madeUpBundle();
  const bundle = CliBundle.open(file, null, 'test')!;
  const errors = (await bundle.import('lib/errors'))!;
  const use = (await bundle.import('lib/use'))!;
  const late = (await (use['late'] as () => Promise<Record<string, unknown>>)())!;
  t.true((late['isE'] as (e: unknown) => boolean)((use['make'] as () => unknown)()));
  t.is(use['sep'], '/');
  (errors['bump'] as () => void)();
  t.is((use['seen'] as () => number)(), 1);
  t.is(errors['count'], 1);
});

test('a made-up bundle whose module differs from its ES build runs nothing from it; imported later, it fails naming the build step', async (t) => {
  const a = madeUpBundle();
  utimesSync(join(a.dist, 'lib', 'errors.js'), new Date(), new Date(Date.now() + 5000));
  t.is(await CliBundle.open(a.file, null, 'test')!.import('lib/use'), null);

  const b = madeUpBundle();
  const bundle = CliBundle.open(b.file, null, 'test')!;
  const use = (await bundle.import('lib/use'))!;
  writeFileSync(join(b.dist, 'lib', 'late.js'), '// rebuilt by tsc alone\n');
  await t.throwsAsync((use['late'] as () => Promise<unknown>)(), { message: /dist\/lib\/late\.js .*newer than dist\/cli-bundle\.js: run 'npm run build'/ });
});

/** The module ids a bundle file registers, in order. */
function registered(file: string): string[] {
  return [...readFileSync(file, 'latin1').matchAll(/^System\.register\("([^"]+)"/gm)].map((m) => m[1]!);
}

/**
 * One start of a made-up bundle in a process of its own, as the CLI makes one per command: opened with the
 * cache folder, then each step in order (a module id to import; `late`: lib/use's dynamic import of lib/late;
 * `checkpoint`: the end of start-up). The subset is cut at the checkpoint or at exit.
 */
function start(file: string, cache: string, steps: string[]): void {
  const script = `
const { CliBundle } = require(${JSON.stringify(join(projectRoot, 'dist', 'harness', 'cli', 'cli-bundle.cjs'))});
const { startupDone } = require(${JSON.stringify(join(projectRoot, 'dist', 'harness', 'process', 'startup-checkpoint.cjs'))});
(async () => {
  const bundle = CliBundle.open(${JSON.stringify(file)}, ${JSON.stringify(cache)}, 'test');
  for (const step of ${JSON.stringify(steps)}) {
    if (step === 'checkpoint') startupDone();
    else if (step === 'late') {
      const use = await bundle.import('lib/use');
      if (!(await use.late()).isE(use.make())) console.log('two registries'); // lib/late from the whole bundle, lib/errors from the subset
    }
    else if (!(await bundle.import(step))) console.log('stale');
  }
})();`;
  const r = spawnSync(process.execPath, [...CLI_NODE_FLAGS, '-e', script], { encoding: 'utf8' });
  if (r.status !== 0 || r.stdout.includes('two registries')) throw new Error(`a start of the made-up bundle failed: ${r.stderr}${r.stdout}`);
}

test('a made-up bundle with a cache folder: the next start reads only the modules this one linked; a module missed while starting joins the subset, one missed after the checkpoint does not', (t) => {
  const { file, dist } = madeUpBundle();
  const cache = tempDir('benchgraph-cli-bundle-cache-');
  const subset = (): string =>
    join(
      cache,
      readdirSync(cache).find((f) => f.startsWith('cli-startup-') && f.endsWith('-test.js'))!,
    );
  start(file, cache, ['lib/use']);
  t.deepEqual(registered(subset()), ['lib/errors', 'lib/use']); // lib/late was never imported

  // from the subset: lib/late, imported after the checkpoint by the command's long work, comes from the whole bundle and stays out
  start(file, cache, ['lib/use', 'checkpoint', 'late']);
  t.deepEqual(registered(subset()), ['lib/errors', 'lib/use']);
  // imported while starting, it joins
  start(file, cache, ['lib/use', 'late', 'checkpoint']);
  t.deepEqual(registered(subset()), ['lib/errors', 'lib/use', 'lib/late']);

  // a rebuilt bundle (another size or mtime) makes the subset stale: the whole bundle is read, and the subset cut anew
  utimesSync(file, new Date(), new Date(Date.now() + 5000));
  start(file, cache, ['lib/errors']);
  t.deepEqual(registered(subset()), ['lib/errors']);

  // a start that runs nothing from the bundle (a module newer than it) writes no subset
  const before = statSync(subset()).mtimeMs;
  writeFileSync(join(dist, 'lib', 'errors.js'), '// rebuilt by tsc alone\n');
  utimesSync(file, new Date(), new Date(Date.now() + 10000));
  start(file, cache, ['lib/errors']);
  t.is(statSync(subset()).mtimeMs, before);
});

test('a missing or foreign bundle file opens as null', (t) => {
  const dir = tempDir('benchgraph-cli-bundle-');
  t.is(CliBundle.open(join(dir, 'cli-bundle.js'), null, 'test'), null);
  writeFileSync(join(dir, 'cli-bundle.js'), 'console.log(1)\n');
  t.is(CliBundle.open(join(dir, 'cli-bundle.js'), null, 'test'), null);
});

/** `pipeline ARGS` in `cwd`, with a load hook listing the modules Node itself loads (one URL a line on stderr, prefixed). */
function pipelineListingModules(cwd: string, args: string[], env: Record<string, string> = {}): { stdout: string; modules: string[] } {
  const hooks = join(cwd, 'hooks.mjs');
  writeFileSync(hooks, `export async function load(url, context, next) { process._rawDebug('LOADED ' + url); return next(url, context); }\n`);
  const register = join(cwd, 'register.mjs');
  writeFileSync(register, `import { register } from 'node:module';\nregister(${JSON.stringify(pathToFileURL(hooks).href)});\n`);
  const r = spawnSync(process.execPath, [...CLI_NODE_FLAGS, '--import', register, cliPath, ...args], {
    cwd,
    encoding: 'utf8',
    env: { ...process.env, ...env },
  });
  if (r.status !== 0) throw new Error(`pipeline ${args.join(' ')} failed: ${r.stderr}`);
  const modules = r.stderr
    .split('\n')
    .filter((l) => l.startsWith('LOADED '))
    .map((l) => l.slice('LOADED '.length));
  return { stdout: r.stdout, modules };
}

test('the real CLI runs from the bundle, whole and then from its start-up subset: a no-op run and status answer as the ES modules do, loading no ES module of dist/ (the loader is CommonJS), nor yaml or the Slurm client', (t) => {
  const dir = tempDir('benchgraph-cli-bundle-smoke-');
  copyFileSync(join(projectRoot, 'pipelines', 'smoke.yaml'), join(dir, 'pipeline.yaml'));
  const first = spawnSync(process.execPath, [...CLI_NODE_FLAGS, cliPath, 'run'], { cwd: dir, encoding: 'utf8' });
  t.is(first.status, 0, first.stderr);
  const distUrl = pathToFileURL(join(projectRoot, 'dist')).href + '/';
  // a cache folder of this test's own: the first command of each kind reads the whole bundle, the second its subset
  const tmp = tempDir('benchgraph-cli-bundle-tmp-');
  const cacheDir = join(tmp, `benchgraph-cache-${process.getuid!()}`, `compile-${process.version}-${process.arch}`);
  const subsets = (): Record<string, number> => {
    const out: Record<string, number> = {};
    for (const f of readdirSync(cacheDir).filter((f) => f.startsWith('cli-startup-')))
      out[f.replace(/^cli-startup-[0-9a-f]{16}-/, '')] = statSync(join(cacheDir, f)).mtimeMs;
    return out;
  };
  const cut: Record<string, number>[] = [];
  for (let round = 0; round < 2; round++) {
    for (const args of [
      ['status', '--json'],
      ['run', '--dry-run'],
    ]) {
      const bundled = pipelineListingModules(dir, args, { TMPDIR: tmp });
      const esm = pipelineListingModules(dir, args, { BENCHGRAPH_CLI_BUNDLE: '0' });
      t.is(bundled.stdout, esm.stdout, args.join(' '));
      t.deepEqual(
        bundled.modules.filter((u) => u.startsWith(distUrl)),
        [],
      );
      t.true(esm.modules.includes(`${distUrl}harness/cli/main.js`));
      // the config comes from the config cache, and the sessions would run here: neither the YAML parser nor the Slurm client loads
      // (the bundled command's first round fills this test's own cache folder, the config cache in it too)
      for (const m of [...(round > 0 ? bundled.modules : []), ...esm.modules]) t.false(/\/node_modules\/yaml\/|\/executors\/slurm-/.test(m), m);
    }
    cut.push(subsets());
  }
  t.deepEqual(Object.keys(cut[0]!).sort(), ['run.js', 'status.js']);
  // the second round ran from the subsets and needed no module they lack: nothing was cut again
  t.deepEqual(cut[1], cut[0]);
});
