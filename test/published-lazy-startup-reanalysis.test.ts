// The default experiment's published samples (reports/lazy-startup/samples.csv)
// re-analysed by this checkout with the committed pipeline.yaml (import-samples,
// analyze, report): every figure of the published differences.csv and
// statistics.csv comes out the same (the record may change shape, the figures
// may not), analysis.json holds the named findings the report states in the
// shape schemas/analysis-findings.schema.json gives, and the published
// report's stack sentence is the wording of the analysis's stack finding.
import test from 'ava';
import { mkdir, mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Ajv2020Module from 'ajv/dist/2020.js';
import type { AnalysisResult } from '../harness/analysis/analysis-result.js';
import { parseCsvTable } from '../harness/compare/csv-table.js';
import { projectRoot } from '../harness/process/project-root.js';
import { stackSentence } from '../harness/report/launch-phrases.js';
import importSamples from '../stages/import-samples.js';
import analyze from '../stages/analyze.js';
import report from '../stages/report.js';
import { publishedCsv, publishedFile } from './helpers/published-report.js';
import { publishedDesignConfig } from './helpers/published-design.js';
import { stageContext, stageInput } from './helpers/stage-context.js';

const Ajv2020 = Ajv2020Module as unknown as typeof Ajv2020Module.default;

const rerun = (async () => {
  const dir = await mkdtemp(join(tmpdir(), 'benchgraph-reanalysis-'));
  try {
    // the design the published run sampled with (test/helpers/published-design.ts)
    const cfg = publishedDesignConfig();
    // the imported samples stand where the store keeps the sample stage's outputs (<kind>/<key>/outputs),
    // with its published key and digest, so analyze pools the archived replicates as the run did and
    // leaves out the archived copy of this run
    const published = (JSON.parse(await readFile('pipeline.lock', 'utf8')) as { stages: Record<string, { key: string; outputDigest: string }> }).stages[
      'sample'
    ]!;
    const imp = join(dir, 'stages', 'sample', published.key, 'outputs');
    const [ana, rep] = ['analyze', 'report'].map((k) => join(dir, k));
    for (const d of [imp, ana, rep]) await mkdir(d!, { recursive: true });
    await importSamples.run({ ...stageContext(dir, 'import', imp, {}, cfg, { file: 'reports/lazy-startup/samples.csv' }), pipelineDir: process.cwd() });
    // the run's session records (their host fingerprints say which host it ran on), from its archived copy;
    // the archive keeps a summary of each session's noise, not the record the noise flag reads
    const runs = join('reports', 'lazy-startup', 'runs');
    const sessions = join(dir, 'sessions');
    await mkdir(sessions);
    for (const name of await readdir(runs)) {
      const record = JSON.parse(await readFile(join(runs, name, 'run.json'), 'utf8')) as {
        stages: Record<string, { outputDigest: string }>;
        sessions: unknown[];
      };
      if (Object.values(record.stages ?? {}).some((x) => x.outputDigest === published.outputDigest))
        await writeFile(join(sessions, 'sessions.json'), JSON.stringify(record.sessions.map((x) => ({ ...(x as object), noise: undefined }))));
    }
    const samples = { ...stageInput('import', imp, 'a'), outputDigest: published.outputDigest };
    const analyzeWith = (cfg.stages.find((s) => s.id === 'analyze')?.with ?? {}) as Record<string, unknown>;
    await analyze.run({
      ...stageContext(dir, 'analyze', ana!, { import: samples, sessions: stageInput('sessions', sessions, 'c') }, cfg, analyzeWith),
      pipelineDir: process.cwd(),
    });
    await report.run(stageContext(dir, 'report', rep!, { import: samples, analyze: stageInput('analyze', ana!, 'b') }, cfg));
    const read = (f: string): Promise<string> => readFile(join(rep!, f), 'utf8');
    return {
      analysis: JSON.parse(await readFile(join(ana!, 'analysis.json'), 'utf8')) as AnalysisResult,
      differences: parseCsvTable(await read('differences.csv')).rows,
      statistics: parseCsvTable(await read('statistics.csv')).rows,
      reportMd: await read('report.md'),
      notes: cfg.reportOptions.notes,
    };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
})();

/** Every published column of every published row, against the re-analysed row of the same key; the mismatches. */
function mismatches(published: Record<string, string>[], ours: Record<string, string>[], key: readonly string[]): string[] {
  const id = (r: Record<string, string>): string => key.map((k) => r[k] ?? '').join('|');
  const byKey = new Map(ours.map((r) => [id(r), r]));
  const out: string[] = [];
  for (const p of published) {
    const o = byKey.get(id(p));
    if (!o) {
      out.push(`${id(p)}: not re-analysed`);
      continue;
    }
    for (const [column, value] of Object.entries(p)) if (o[column] !== value) out.push(`${id(p)} ${column}: published ${value}, re-analysed ${o[column]}`);
  }
  return out;
}

test('the published samples re-analyse to every figure of the published differences.csv', async (t) => {
  const { differences } = await rerun;
  // preparation rows come from preparation.json, which samples.csv does not hold
  const published = publishedCsv('lazy-startup', 'differences.csv').filter((r) => r['kind'] === 'median_difference');
  t.true(published.length >= 50, `${published.length} rows`);
  t.deepEqual(mismatches(published, differences, ['kind', 'cohort', 'state', 'metric', 'a', 'b']), []);
});

test('the published samples re-analyse to every figure of the published statistics.csv', async (t) => {
  const { statistics } = await rerun;
  const published = publishedCsv('lazy-startup', 'statistics.csv');
  t.true(published.length >= 40, `${published.length} rows`);
  t.deepEqual(mismatches(published, statistics, ['cohort', 'path', 'state', 'metric']), []);
});

test("the note pipeline.yaml ties to the published run's sample output is rendered with its samples, as the published report has it", async (t) => {
  const { reportMd, notes } = await rerun;
  const tied = notes.filter((n) => n.sampleOutput !== null);
  t.true(tied.length >= 1, 'pipeline.yaml ties a note to the published run');
  const paragraph = (text: string): string => text.trim();
  for (const n of tied) {
    t.true(reportMd.includes(paragraph(n.text)), 're-rendered with the published samples');
    t.true(publishedFile('lazy-startup', 'report.md').includes(paragraph(n.text)), 'in the published report');
  }
  t.notRegex(reportMd, /left out: this report renders/);
});

test('analysis.json holds the record and the named findings in the shape of schemas/analysis-findings.schema.json', async (t) => {
  const { analysis } = await rerun;
  const ajv = new Ajv2020({ allErrors: true, strict: false });
  const validate = ajv.compile(JSON.parse(await readFile(join(projectRoot(), 'schemas', 'analysis-findings.schema.json'), 'utf8')));
  t.true(validate(analysis), ajv.errorsText(validate.errors));
});

test('the sessions-disagree findings are exactly the published rows detected by the two-level interval alone', async (t) => {
  const { analysis } = await rerun;
  const published = publishedCsv('lazy-startup', 'differences.csv');
  const found = analysis.findings!.sessionsDisagree;
  // sampled until decided, only the sequential interval decides: the fixed design's finding is cleared
  if (analysis.decision?.rule === 'sequential') {
    t.deepEqual(found, []);
    t.false(
      published.some((r) => r['size_uncertain'] === 'true'),
      'no published row is size uncertain',
    );
    return;
  }
  // and every published row the two-level interval alone detects is one of them (a run may have none)
  const alone = published.filter((r) => r['detected'] === 'false' && (Number(r['low']) > 0 || Number(r['high']) < 0));
  t.deepEqual(
    alone.map((r) => `${r['cohort']} ${r['state']} ${r['metric']} ${r['a']} − ${r['b']}`).sort(),
    found.map((f) => `${f.cohort} ${f.state} ${f.metric} ${f.a} − ${f.b}`).sort(),
  );
  for (const f of found) {
    const row = published.find((r) => r['cohort'] === f.cohort && r['state'] === f.state && r['metric'] === f.metric && r['a'] === f.a && r['b'] === f.b)!;
    t.is(row['detected'], 'false', `${f.cohort} ${f.state} ${f.metric} ${f.a} − ${f.b}`);
    t.true(Number(row['low']) > 0 || Number(row['high']) < 0, `${f.cohort} ${f.state} ${f.metric} ${f.a} − ${f.b}: the two-level interval excludes 0`);
  }
});

test("the published report's stack sentence is the wording of the analysis's stack finding", async (t) => {
  const { analysis } = await rerun;
  const md = publishedFile('lazy-startup', 'report.md');
  const worded = analysis.findings!.stack.map((f) => stackSentence(analysis, [f.cohort], [f.state])!);
  t.true(worded.length > 0);
  t.true(
    worded.some((s) => md.includes(s)),
    worded.join('\n'),
  );
});

test("the source table's verdicts are the analysis's", async (t) => {
  const { analysis } = await rerun;
  const md = publishedFile('lazy-startup', 'report.md');
  const sources = analysis.findings!.sources;
  t.true(sources.length > 0);
  // each judged finding's id and its verdict word stand on one row of the published source table
  const rows = md.split('\n').filter((l) => l.startsWith('|'));
  for (const v of sources) {
    const row = rows.find((r) => r.includes(`| ${v.finding.id} |`) || r.includes(`${v.finding.id}`));
    t.truthy(row, v.finding.id);
    t.true(row!.includes(v.verdict === 'differs' ? '**differs**' : v.verdict), `${v.finding.id}: ${v.verdict} in ${row}`);
  }
});

test("the published samples were sampled with pipeline.yaml's rounds a session (the design the re-analysis above takes for them)", (t) => {
  const { rows } = parseCsvTable(readFileSync(join('reports', 'lazy-startup', 'samples.csv'), 'utf8'));
  const formal = rows.filter((r) => r['phase'] === 'formal');
  t.is(
    Math.max(...formal.map((r) => Number(r['round']))),
    publishedDesignConfig().design.rounds,
    'a run sampled under another design: pin it in test/helpers/published-design.ts',
  );
});

test("the published run's rerun drift is measured on its same-key replicate of its own class; the archive's other host classes give its cross-class intervals", async (t) => {
  const { analysis } = await rerun;
  // the run of 2026-12-07 21:24 UTC was the first on its class; its replicate of 2026-12-08 00:24 UTC ran on the same class (by the canary)
  t.is(analysis.rerun?.source, 'replicates');
  t.deepEqual(
    analysis.rerun?.runs.map((r) => r.id).filter((id) => id !== 'this run'),
    ['2026-12-08-d82ce193884e'],
  );
  t.deepEqual(analysis.crossClass?.otherClassRuns.sort(), ['2026-12-05-f6b8e493f9fe', '2026-12-07-c5f18700caeb']);
  t.is(analysis.crossClass?.between?.df, 28, 'the same-key pair of 2026-12-05 and 2026-12-06 on two classes, over its 28 Ready differences');
});
