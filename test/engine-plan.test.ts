// The engine's own logic, in process, with toy stages (fakes of stage
// behaviour; the engine, store, digests and lock file are the real ones).
// Each toy stage's "code" is a TypeScript text compiled the way tsc compiles
// the project, so comment, formatting and type-only edits are real edits.
import test from 'ava';
import { readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';
import type { PipelineConfig } from '../harness/config/pipeline-config.js';
import type { StageContext, StageDefinition } from '../harness/contract/stage.js';
import { jsDigest } from '../harness/engine/code-digest.js';
import { planRun } from '../harness/engine/plan-run.js';
import { planContext, runPipeline, type StageOutcome } from '../harness/engine/run-pipeline.js';
import type { StageRegistry } from '../harness/engine/stage-registry.js';
import { Store } from '../harness/engine/store.js';
import { tempDir } from './helpers/cli.js';

const emit = (source: string): string =>
  ts.transpileModule(source, { compilerOptions: { target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.ES2022, removeComments: false } }).outputText;

const digestOf = (source: string): string => jsDigest('/toy/x.js', emit(source)).digest;

/** Toy stages: `source` stands for their code; `run` is what they do. */
interface Toy {
  source: string;
  reads?: string[];
  volatile?: boolean;
  readsObservations?: boolean;
  run: (ctx: StageContext) => void;
}

function toyRegistry(toys: Record<string, Toy>): StageRegistry {
  return {
    load: async (kind) => {
      const toy = toys[kind]!;
      const def: StageDefinition = {
        kind,
        description: `toy ${kind}`,
        reads: toy.reads ?? [],
        volatile: toy.volatile,
        readsObservations: toy.readsObservations,
        run: async (ctx) => toy.run(ctx),
      };
      return def;
    },
    code: (def) => ({ [`toy/${def.kind}.ts`]: digestOf(toys[def.kind]!.source) }),
    close: () => {},
  };
}

function toyConfig(dir: string, stages: { id: string; needs?: string[] }[], extra: Record<string, unknown> = {}): PipelineConfig {
  return {
    file: join(dir, 'pipeline.yaml'),
    stages: stages.map((s) => ({ id: s.id, uses: s.id, needs: s.needs ?? [], with: {} })),
    ...extra,
  } as unknown as PipelineConfig;
}

const write = (name: string, text: string) => (ctx: StageContext) => writeFileSync(join(ctx.outputDir, name), text);

async function run(dir: string, config: PipelineConfig, toys: Record<string, Toy>, opts: { force?: string[]; only?: string[] } = {}): Promise<string[]> {
  const out: StageOutcome[] = await runPipeline(config, {
    dataDir: join(dir, '.data'),
    log: () => {},
    interactive: false,
    registry: toyRegistry(toys),
    ...opts,
  });
  return out.filter((o) => o.action === 'ran').map((o) => o.id);
}

function chain(): Record<string, Toy> {
  return {
    pin: { source: 'export const pin = (x: number): number => x + 1;', run: write('pins.json', '{"a":1}') },
    prepare: {
      source: 'export const prepare = 2;',
      run: (ctx) => {
        write('images.json', '{"b":2}')(ctx);
        writeFileSync(join(ctx.observationsDir, 'preparation.json'), JSON.stringify({ seconds: Math.random() }));
      },
    },
    sample: { source: 'export const sample = 3;', run: write('samples.txt', 'rows') },
    analyze: { source: 'export const analyze = 4;', readsObservations: true, run: write('analysis.json', '{}') },
  };
}
const CHAIN = [{ id: 'pin' }, { id: 'prepare', needs: ['pin'] }, { id: 'sample', needs: ['prepare'] }, { id: 'analyze', needs: ['sample', 'prepare'] }];

test('the code digest ignores comments, formatting and type-only imports, and sees a real change', (t) => {
  const base = "import { helper } from './helper.js';\nexport function f(a: number): number {\n  return helper(a) * 2;\n}\n";
  const commented =
    "// a comment\nimport { helper } from './helper.js';\n/** doc */\nexport function f(a: number): number { return helper(a) * 2; /* why */ }\n";
  const typeImport = "import type { Pin } from './pin.js';\n" + base.replace('(a: number)', '(a: number, _p?: Pin)');
  t.is(digestOf(commented), digestOf(base));
  t.is(digestOf(typeImport), digestOf(base.replace('(a: number)', '(a: number, _p?: unknown)')));
  t.not(digestOf(base.replace('* 2', '* 3')), digestOf(base));
  t.not(digestOf("export const s = 'a  b';"), digestOf("export const s = 'a b';"), 'whitespace inside a string is code');
  t.is(digestOf("export const s = f('a', [1, 2,],);"), digestOf('export const s = f("a", [1, 2]);'), 'quotes and trailing commas are formatting');
  t.not(digestOf('export const s = [1, 2];'), digestOf('export const s = [1, , 2];'), 'a comma that is not trailing is code');
  t.not(digestOf('export const s = [];'), digestOf('export const s = [,];'), 'an array hole is code');
  t.is(digestOf('export const s = a ? b : (c ?? d);'), digestOf('export const s = a ? b : c ?? d;'), 'redundant parentheses are formatting');
  t.not(digestOf('export const s = (a + b) * c;'), digestOf('export const s = a + b * c;'), 'parentheses that group are code');
});

test('the import edges of a compiled module follow its value imports, static and dynamic, not its type-only imports', (t) => {
  const dir = tempDir();
  for (const f of ['pin.js', 'helper.js', 'lazy.js']) writeFileSync(join(dir, f), 'export {};');
  const js = emit(
    "import type { Pin } from './pin.js';\nimport { h } from './helper.js';\nexport const f = async (p: Pin) => (await import('./lazy.js')).x + h(p);\n",
  );
  t.deepEqual(jsDigest(join(dir, 'm.js'), js).imports, [join(dir, 'helper.js'), join(dir, 'lazy.js')]);
});

test('a comment edit in a stage reruns nothing', async (t) => {
  const dir = tempDir();
  const toys = chain();
  const config = toyConfig(dir, CHAIN);
  t.deepEqual(await run(dir, config, toys), ['pin', 'prepare', 'sample', 'analyze']);
  toys['pin']!.source = '// pins every artifact\n' + toys['pin']!.source.replace('=>', '=> /* plus one */');
  t.deepEqual(await run(dir, config, toys), []);
});

test('a real code change to pin reruns pin, and with identical products nothing after it', async (t) => {
  const dir = tempDir();
  const toys = chain();
  const config = toyConfig(dir, CHAIN);
  await run(dir, config, toys);
  toys['pin']!.source = 'export const pin = (x: number): number => 1 + x;';
  t.deepEqual(await run(dir, config, toys), ['pin']);
});

test('a prepare rerun with the same products does not rerun sample, but reruns a stage that reads its observations', async (t) => {
  const dir = tempDir();
  const toys = chain();
  const config = toyConfig(dir, CHAIN);
  await run(dir, config, toys);
  t.deepEqual(await run(dir, config, toys, { force: ['prepare'] }), ['prepare', 'analyze']);
});

test('a volatile stage runs right before the stage that needs it, and only then', async (t) => {
  const dir = tempDir();
  const order: string[] = [];
  const toys: Record<string, Toy> = {
    prepare: { source: 'export const p = 1;', run: (ctx) => (order.push('prepare'), write('images.json', '{}')(ctx)) },
    warmup: { source: 'export const w = 1;', volatile: true, run: (ctx) => (order.push('warmup'), write('warmup.json', '{}')(ctx)) },
    sample: { source: 'export const s = 1;', reads: ['design'], run: (ctx) => (order.push('sample'), write('samples.txt', 'x')(ctx)) },
  };
  const stages = [{ id: 'prepare' }, { id: 'warmup', needs: ['prepare'] }, { id: 'sample', needs: ['warmup', 'prepare'] }];
  t.deepEqual(await run(dir, toyConfig(dir, stages, { design: { rounds: 1 } }), toys), ['prepare', 'warmup', 'sample']);
  t.deepEqual(order, ['prepare', 'warmup', 'sample']);
  t.deepEqual(await run(dir, toyConfig(dir, stages, { design: { rounds: 1 } }), toys), [], 'nothing needs the warmup: it does not run');
  t.deepEqual(await run(dir, toyConfig(dir, stages, { design: { rounds: 2 } }), toys), ['warmup', 'sample']);
});

test('the plan says why each stage runs, and a stage after one that runs waits for its output', async (t) => {
  const dir = tempDir();
  const toys = chain();
  const config = toyConfig(dir, CHAIN);
  await run(dir, config, toys);
  toys['sample']!.source = 'export const sample = 33;';
  const registry = toyRegistry(toys);
  const ctx = await planContext(config, new Store(join(dir, '.data')), registry);
  const lock = JSON.parse(readFileSync(join(dir, 'pipeline.lock'), 'utf8'));
  const plan = planRun(ctx, { lock });
  const byId = Object.fromEntries(plan.map((p) => [p.id, p]));
  t.is(byId['pin']!.action, 'reuse');
  t.is(byId['sample']!.action, 'run');
  t.deepEqual(byId['sample']!.reasons, ['code of toy/sample.ts changed']);
  t.is(byId['analyze']!.key, null);
  t.deepEqual(byId['analyze']!.reasons, ['upstream sample runs first']);
});

test('--only leaves out a stale stage, and refuses when a selected stage needs it', async (t) => {
  const dir = tempDir();
  mkdirSync(join(dir, '.data'), { recursive: true });
  const toys = chain();
  const config = toyConfig(dir, CHAIN);
  const ctx = await planContext(config, new Store(join(dir, '.data')), toyRegistry(toys));
  t.throws(() => planRun(ctx, { only: ['sample'] }), { message: /stage 'pin' has no frozen output/ });
  const plan = planRun(ctx, { only: ['pin'] });
  t.deepEqual(
    plan.map((p) => p.action),
    ['run', 'skip', 'skip', 'skip'],
  );
});
