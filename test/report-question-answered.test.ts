// The default report answers the question as asked (issue 33, problem 3): the
// published lazy-startup samples (reports/lazy-startup/samples.csv, with the
// phase marks of phases.csv), re-analysed and re-rendered by this checkout,
// give a summary with the runtime-held-fixed difference beside docker − lazy,
// each side's cold spans, and a paragraph on why the saving differs from the
// source whose every number is an analysis finding; the main text stays
// within 2,500 words. Then the cluster rule's flag on both sides of a
// difference, on made-up samples.
import test from 'ava';
import { cp, mkdir, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { publishedDesignConfig } from './helpers/published-design.js';
import { parseCsvTable } from '../harness/compare/csv-table.js';
import { Database } from '../harness/db/duckdb.js';
import { analysisRules } from '../harness/config/analysis-rules.js';
import { analyzeSamples } from '../harness/analysis/analyze-samples.js';
import type { AnalysisWithSourceGap } from '../harness/analysis/source-gap-facts.js';
import { sourceGapFacts } from '../harness/analysis/source-gap-facts.js';
import { spanDifferenceTables, spanTables } from '../harness/report/phase-breakdown.js';
import { differenceSides, splitLegend, splitSuffix } from '../harness/report/split-flag.js';
import { runtimeHeldFixedPairs } from '../harness/report/source-gap-phrases.js';
import { fixed } from '../harness/publish/format-number.js';
import type { Table } from '../harness/document/document-model.js';
import importSamples from '../stages/import-samples.js';
import analyze from '../stages/analyze.js';
import report from '../stages/report.js';
import { stageContext, stageInput } from './helpers/stage-context.js';
import { firstTable, mainMarkdown, markdownWords } from './helpers/published-report.js';
import { madeUpPhaseSamples } from './helpers/phase-samples.js';

const published = 'reports/lazy-startup';

const rendered = (async () => {
  const dir = await mkdtemp(join(tmpdir(), 'benchgraph-question-report-'));
  try {
    // the design the published run sampled with (test/helpers/published-design.ts)
    const cfg = publishedDesignConfig();
    const [imp, ana, rep] = ['import', 'analyze', 'report'].map((k) => join(dir, k));
    for (const d of [imp, ana, rep]) await mkdir(d!);
    await importSamples.run({ ...stageContext(dir, 'import', imp!, {}, cfg, { file: `${published}/samples.csv` }), pipelineDir: process.cwd() });
    // import-samples carries no phase marks: the published phases.csv gives them back (its `ready` rows are Ready itself, not marks)
    const db = await Database.open(join(imp!, 'samples.duckdb'));
    try {
      await db.exec('CREATE TABLE phases (launch_id VARCHAR NOT NULL, seq INTEGER NOT NULL, name VARCHAR NOT NULL, at_ms DOUBLE NOT NULL)');
      await db.exec(
        `INSERT INTO phases SELECT launch_id, mark_order, mark, at_ms FROM read_csv('${resolve(published, 'phases.csv')}', header = true, all_varchar = false) WHERE mark <> 'ready'`,
      );
    } finally {
      db.close();
    }
    const samples = stageInput('import', imp!, 'a');
    await analyze.run(stageContext(dir, 'analyze', ana!, { import: samples }, cfg));
    await report.run(stageContext(dir, 'report', rep!, { import: samples, analyze: stageInput('analyze', ana!, 'b') }, cfg));
    // to look at the page by hand (a screenshot): QUESTION_REPORT_OUT=FOLDER keeps a copy of the rendered report
    if (process.env['QUESTION_REPORT_OUT']) await cp(rep!, process.env['QUESTION_REPORT_OUT'], { recursive: true });
    return {
      md: await readFile(join(rep!, 'report.md'), 'utf8'),
      analysis: JSON.parse(await readFile(join(ana!, 'analysis.json'), 'utf8')) as AnalysisWithSourceGap,
    };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
})();

const formal = (async () =>
  parseCsvTable(await readFile(`${published}/samples.csv`, 'utf8')).rows.filter((r) => r['phase'] === 'formal' && r['ok'] === 'true'))();

const median = (xs: number[]): number => {
  const s = [...xs].sort((p, q) => p - q);
  const h = (s.length - 1) / 2;
  return (s[Math.floor(h)]! + s[Math.ceil(h)]!) / 2;
};

async function cellMedian(cohort: string, path: string, state: string, column: string): Promise<number> {
  return median((await formal).filter((r) => r['cohort'] === cohort && r['path'] === path && r['state'] === state).map((r) => Number(r[column])));
}

test('the summary gives oci-full − lazy with the runtime held fixed, and its values recompute from samples.csv', async (t) => {
  const { md } = await rendered;
  const [header, ...rows] = firstTable(md);
  const held = rows.find((r) => r[0] === 'oci-full − lazy (runtime held fixed: crun + overlay)');
  t.truthy(held, rows.map((r) => r[0]).join(' | '));
  for (const cohort of ['shell', 'numpy'])
    for (const state of ['cold', 'warm']) {
      const cell = held![header!.indexOf(`${cohort} ${state}`)]!;
      const expected = (await cellMedian(cohort, 'oci-full', state, 'ready_ms')) - (await cellMedian(cohort, 'lazy', state, 'ready_ms'));
      t.is(cell.split(' ')[0], fixed(expected, 1), `${cohort} ${state}: ${cell}`);
    }
});

test("the summary gives each side's cold spans and says the docker pull is not split, as its launches mark nothing inside it", async (t) => {
  const { md, analysis } = await rendered;
  const opening = md.slice(0, md.indexOf('\n## '));
  const docker = analysis.sourceGap!.coldSpans.find((s) => s.cohort === 'numpy' && s.path === 'docker')!;
  t.deepEqual(
    docker.spans.map((s) => s.name),
    ['pull', 'to Ready'],
  );
  t.true(opening.includes(`numpy docker pull ${fixed(docker.spans[0]!.p50Ms, 1)}, to Ready ${fixed(docker.spans[1]!.p50Ms, 1)}`));
  t.true(opening.includes("docker's pull is one span: nothing marks a step inside it."));
  const oci = analysis.sourceGap!.coldSpans.find((s) => s.cohort === 'numpy' && s.path === 'oci-full')!;
  t.true(opening.includes(`numpy oci-full ${oci.spans.map((s) => `${s.name} ${fixed(s.p50Ms, 1)}`).join(', ')}`));
});

test("the why-it-differs paragraph's numbers are the analysis findings, and those recompute from samples.csv", async (t) => {
  const { md, analysis } = await rendered;
  // in the appendix "Against the source, in full" since the main text keeps its word budget
  const paragraph = md.split('\n').find((l) => l.startsWith('**Why it differs from the source.**'));
  t.truthy(paragraph);
  const lazy = analysis.sourceGap!.reads.find((r) => r.cohort === 'numpy' && r.path === 'lazy')!;
  const gvisor = analysis.sourceGap!.reads.find((r) => r.cohort === 'numpy' && r.path === 'gvisor-lazy')!;
  t.is(lazy.fullPath, 'docker');
  t.is(lazy.contentBytes, await cellMedian('numpy', 'lazy', 'cold', 'content_bytes'));
  t.is(lazy.fullContentBytes, await cellMedian('numpy', 'docker', 'cold', 'content_bytes'));
  t.is(gvisor.contentBytes, await cellMedian('numpy', 'gvisor-lazy', 'cold', 'content_bytes'));
  t.is(lazy.readyP50Ms, await cellMedian('numpy', 'lazy', 'cold', 'ready_ms'));
  const pct = (v: number): string => `${fixed(v * 100, 1)}%`;
  t.true(
    paragraph!.includes(
      `Cold numpy, lazy read ${fixed(lazy.contentBytes / 1e6, 1)} MB, ${pct(lazy.shareOfFull)} of docker's content bytes (gvisor-lazy ${pct(gvisor.shareOfFull)}; the source's lazy ${pct(1 - 0.681)}); ` +
        `bytes read over its Ready P50 of ${fixed(lazy.readyP50Ms, 1)} ms: ${fixed(lazy.bytesPerS / 1e6, 1)} MB/s, a lower bound of the read rate; its warm Ready P50 is ${pct(lazy.coldOnlyShare!)} shorter.`,
    ),
    paragraph,
  );
  t.is(fixed(lazy.bytesPerS / 1e6, 1), fixed(lazy.contentBytes / 1e6 / (lazy.readyP50Ms / 1000), 1));
  // the rate is bytes over the whole Ready time, a bound, and the warm share is of time: neither is worded as a throughput or as bytes
  t.notRegex(paragraph!, /throughput|lacks|\bat [\d.]+ MB\/s/);
  // no other number in the paragraph: every figure is one of the findings' (or the source's share)
  const allowed = new Set(
    analysis
      .sourceGap!.reads.flatMap((r) => [
        fixed(r.contentBytes / 1e6, 1),
        pct(r.shareOfFull),
        fixed(r.bytesPerS / 1e6, 1),
        fixed(r.readyP50Ms, 1),
        pct(r.coldOnlyShare ?? 0),
      ])
      .concat([pct(1 - 0.681), pct(1 - 0.938)]),
  );
  const numbers = paragraph!.match(/(?<![A-Za-z\d])\d[\d.,]*%?/g)!.map((n) => n.replace(/[.,]$/, ''));
  t.deepEqual(
    numbers.filter((n) => !allowed.has(n)),
    [],
  );
});

test('the re-rendered report stays within 2,500 words before the appendix', async (t) => {
  const { md } = await rendered;
  const words = markdownWords(mainMarkdown(md));
  t.log(`main text: ${words} words`);
  t.true(words <= 2500, `${words} words`);
});

test('made-up samples (our own logic): a bimodal oci-full cell is flagged ‡ on its side of every difference and span row, and the other sides are not', (t) => {
  const data = madeUpPhaseSamples(3, 10);
  // half of oci-full's launches 6 s later at Ready: two clusters of 15, far apart
  for (const v of data.values) if (v.path === 'oci-full' && v.round <= 5) v.readyMs! += 6000;
  const rules = analysisRules({
    comparisons: [
      { a: 'docker', b: 'oci-full' },
      { a: 'oci-full', b: 'lazy' },
    ],
    bootstrap: { resamples: 200, seed: 'made-up' },
  });
  const a = analyzeSamples(data, rules, null);
  t.true(a.cells.find((c) => c.path === 'oci-full' && c.metric === 'ready')!.split);
  t.false(a.cells.find((c) => c.path === 'docker' && c.metric === 'ready')!.split);
  t.is(differenceSides(a, 'shell', 'cold', 'ready', 'docker', 'oci-full'), 'docker − oci-full‡');
  t.is(differenceSides(a, 'shell', 'cold', 'ready', 'oci-full', 'lazy'), 'oci-full‡ − lazy');
  t.is(splitSuffix(a, 'shell', 'cold', 'ready', ['docker', 'lazy']), '');
  t.regex(splitSuffix(a, 'shell', 'cold', 'ready', ['oci-full', 'lazy']), /^; ‡ split: oci-full \(2 clusters\)$/);
  const [diff] = spanDifferenceTables(a, 'shell', 1) as Table[];
  t.deepEqual(diff!.rows.map((r) => r[0]).sort(), ['docker − oci-full‡', 'oci-full‡ − lazy']);
  const [cells] = spanTables(a, 'shell', 1) as Table[];
  t.deepEqual(cells!.rows.map((r) => r[0]).sort(), ['docker', 'oci-full‡']);
  t.is(sourceGapFacts(a).reads.length, 0, 'no content bytes were counted, so there is no read fact');
  t.regex(splitLegend(a)!, /^‡ marks a side whose launches the cluster rule split/);
});

test('made-up stacks (our own logic): a held-fixed twin is found only for a headline pair whose paths run on different stacks', (t) => {
  const data = madeUpPhaseSamples(2, 4);
  const a = analyzeSamples(
    data,
    analysisRules({
      comparisons: [
        { a: 'docker', b: 'lazy' },
        { a: 'oci-full', b: 'lazy' },
      ],
      bootstrap: { resamples: 50, seed: 'made-up' },
    }),
    null,
  );
  const stacks: Record<string, string> = { docker: 'engine', 'oci-full': 'crun', lazy: 'crun' };
  t.deepEqual(
    runtimeHeldFixedPairs(a, [['docker', 'lazy']], (p) => stacks[p] ?? null),
    [['oci-full', 'lazy']],
  );
  t.deepEqual(
    runtimeHeldFixedPairs(a, [['docker', 'lazy']], () => null),
    [],
    'no stack given: nothing is said to hold the runtime fixed',
  );
  t.deepEqual(
    runtimeHeldFixedPairs(a, [['oci-full', 'lazy']], (p) => stacks[p] ?? null),
    [],
    'the headline pair already shares a stack',
  );
  t.is(splitLegend(a), null);
});
