// The import graph shows the architecture: every relative import between
// top-level folders points down the layer order below, so no folder imports one
// that imports it (no cycles), and the engine's key inputs never follow a
// module that only serves the CLI.
import test from 'ava';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { projectRoot } from '../harness/process/project-root.js';

/** Layers, top first. A folder may import its own files and folders of a lower layer. */
const LAYERS: readonly (readonly string[])[] = [
  ['cli'],
  ['store'],
  ['stages'],
  ['engine'],
  ['executors'],
  ['burst'], // start-up under concurrency: its adapter starts its sandboxes with sandbox/'s row folders
  ['commit', 'sandbox', 'image-reads', 'history'],
  ['launch-arms', 'report', 'compare', 'cluster', 'measure'],
  ['publish'], // the publishing kit every report stage writes with
  ['experiment'],
  ['comparison'], // the one judge: plan check, and (to come) every verdict rule
  ['analysis', 'launch'],
  ['services'],
  ['artifacts'],
  ['contract'],
  ['config', 'net'],
  ['stats', 'db', 'process', 'digest', 'paths', 'document'],
  ['.'], // harness/errors.ts
];

const IMPORT_RE = /(?:from|import)\s*\(?\s*['"](\.{1,2}\/[^'"]+)['"]/g;

function folderOf(root: string, file: string): string {
  const rel = relative(root, file);
  if (rel.startsWith('stages/')) return 'stages';
  const parts = rel.split('/');
  return parts.length === 2 ? '.' : parts[1]!; // harness/<folder>/file.ts, or harness/errors.ts
}

function tsFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((n) => {
    const p = join(dir, n);
    return statSync(p).isDirectory() ? tsFiles(p) : p.endsWith('.ts') ? [p] : [];
  });
}

function rank(folder: string): number {
  const i = LAYERS.findIndex((l) => l.includes(folder));
  return i;
}

/** Every folder-crossing import as `from -> to (file)`. */
export function crossImports(root: string): { from: string; to: string; file: string }[] {
  const out: { from: string; to: string; file: string }[] = [];
  for (const file of [...tsFiles(join(root, 'harness')), ...tsFiles(join(root, 'stages'))]) {
    const from = folderOf(root, file);
    for (const m of readFileSync(file, 'utf8').matchAll(IMPORT_RE)) {
      const target = resolve(dirname(file), m[1]!);
      const to = folderOf(root, target);
      if (to !== from) out.push({ from, to, file: relative(root, file) });
    }
  }
  return out;
}

test('every top-level folder of harness/ has a layer', (t) => {
  const root = projectRoot();
  const folders = readdirSync(join(root, 'harness')).filter((n) => statSync(join(root, 'harness', n)).isDirectory());
  t.deepEqual(
    folders.filter((f) => rank(f) < 0),
    [],
  );
});

test('imports between folders point down the layers only: no upward edge, no folder cycle', (t) => {
  const root = projectRoot();
  const upward = crossImports(root)
    .filter((e) => !(rank(e.to) > rank(e.from)))
    .map((e) => `${e.file}: ${e.from} -> ${e.to}`);
  t.deepEqual(upward, []);
});

test('no module imports itself through others: the file import graph of harness/ and stages/ has no cycle', (t) => {
  const root = projectRoot();
  const files = [...tsFiles(join(root, 'harness')), ...tsFiles(join(root, 'stages'))];
  const edges = new Map<string, string[]>();
  for (const file of files) {
    const to = [...readFileSync(file, 'utf8').matchAll(IMPORT_RE)].map((m) => resolve(dirname(file), m[1]!).replace(/\.js$/, '.ts'));
    edges.set(
      file,
      to.filter((f) => files.includes(f)),
    );
  }
  const cycles: string[] = [];
  const state = new Map<string, 'open' | 'done'>();
  const visit = (f: string, stack: string[]): void => {
    if (state.get(f) === 'done') return;
    if (state.get(f) === 'open') {
      cycles.push([...stack.slice(stack.indexOf(f)), f].map((x) => relative(root, x)).join(' -> '));
      return;
    }
    state.set(f, 'open');
    for (const g of edges.get(f) ?? []) visit(g, [...stack, f]);
    state.set(f, 'done');
  };
  for (const f of files) visit(f, []);
  t.deepEqual(cycles, []);
});

test("README's layout lists the layers of harness/ in this table's order", (t) => {
  const readme = readFileSync(join(projectRoot(), 'README.md'), 'utf8');
  const block = readme.slice(readme.indexOf('## Layout'));
  const lines = block.split('\n');
  const start = lines.findIndex((l) => l.startsWith('harness/'));
  const text = lines
    .slice(
      start,
      lines.findIndex((l, i) => i > start && !l.startsWith(' ')),
    )
    .join(' ')
    .replace(/\(.*$/, '');
  const written = text
    .replace(/^harness\//, '')
    .split('>')
    .map((layer) =>
      layer
        .trim()
        .split(/\s+/)
        .map((f) => f.replace(/\/$/, ''))
        .filter(Boolean),
    );
  const expected = LAYERS.filter((l) => !l.includes('stages') && !l.includes('.')).map((l) => [...l]);
  t.deepEqual(written, expected);
});

test('no stage imports an executor: where sessions run is chosen in one place (executors/session-executor.ts)', (t) => {
  const root = projectRoot();
  const offending = crossImports(root)
    .filter((e) => e.from === 'stages' && e.to === 'executors')
    .map((e) => e.file);
  t.deepEqual(offending, []);
});

// The experiment wings: each experiment's own folders and stages. report/ is the default
// experiment's narrative, so it belongs to lazy-startup's wing beside its arm adapter.
// A stage that names no other experiment (pin, prepare, sample, ...) counts as lazy-startup's.
const WINGS: readonly { experiment: string; folders: readonly string[]; stages: RegExp | null }[] = [
  { experiment: 'commit-diff', folders: ['commit'], stages: /^stages\/commit-/ },
  { experiment: 'sandbox-effects and restore-sweep', folders: ['sandbox'], stages: /^stages\/(effects|restore-sweep)-/ },
  { experiment: 'image-reads', folders: ['image-reads'], stages: /^stages\/image-reads-/ },
  { experiment: 'lazy-startup', folders: ['launch-arms', 'report'], stages: null },
];

function wingOfFolder(folder: string): string | undefined {
  return WINGS.find((w) => w.folders.includes(folder))?.experiment;
}

function wingOfFile(folder: string, file: string): string | undefined {
  if (folder !== 'stages') return wingOfFolder(folder);
  return (WINGS.find((w) => w.stages?.test(file)) ?? WINGS.find((w) => w.stages === null))!.experiment;
}

test("no experiment folder imports another: an experiment's folders and stages import no other experiment's folder", (t) => {
  const root = projectRoot();
  const sideways = crossImports(root)
    .filter((e) => {
      const from = wingOfFile(e.from, e.file);
      const to = wingOfFolder(e.to);
      return from !== undefined && to !== undefined && to !== from;
    })
    .map((e) => `${e.file}: ${e.from} -> ${e.to}`);
  t.deepEqual(sideways, []);
});

// report/ is the default experiment's narrative; the kit every experiment publishes with is publish/.
const OTHER_EXPERIMENT_FOLDERS = ['commit', 'sandbox', 'image-reads', 'history', 'launch-arms', 'compare', 'cluster', 'measure', 'cli'];
const OTHER_EXPERIMENT_STAGES = /^stages\/(commit|effects|restore-sweep|image-reads)-/;

test("report/ (the default experiment's narrative) is imported by no other experiment's folder or stage", (t) => {
  const root = projectRoot();
  const sideways = crossImports(root)
    .filter((e) => e.to === 'report' && (OTHER_EXPERIMENT_FOLDERS.includes(e.from) || OTHER_EXPERIMENT_STAGES.test(e.file)))
    .map((e) => `${e.file}: ${e.from} -> report`);
  t.deepEqual(sideways, []);
});
