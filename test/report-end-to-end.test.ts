import test from 'ava';
import { testDesign } from './helpers/test-design.js';
import { copyFile, mkdir, mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { PipelineConfig } from '../harness/config/pipeline-config.js';
import { sectionsOf } from '../harness/config/typed-sections.js';
import type { StageContext, StageInput } from '../harness/contract/stage.js';
import { stageContext } from './helpers/stage-context.js';
import { syntheticSamples } from '../harness/analysis/synthetic-samples.js';
import { writeSamplesTable } from '../harness/analysis/write-samples-table.js';
import type { AnalysisResult } from '../harness/analysis/analysis-result.js';
import analyze from '../stages/analyze.js';
import report from '../stages/report.js';

function config(dir: string): PipelineConfig {
  const analysis = { bootstrap: { resamples: 400 }, comparisons: [{ a: 'docker', b: 'lazy' }] };
  return {
    file: join(dir, 'pipeline.yaml'),
    experiment: { name: 'e2e', question: 'Does the lazy path start faster?', motivation: 'Short tasks wait for start-up.', unmeasured: ['WAN links'] },
    artifacts: {},
    services: {},
    cohorts: { shell: { command: ['sh', '-c', 'echo {marker}'], env: {}, expect: { exit_code: 0, stdout_patterns: [] }, description: 'A shell' } },
    paths: {
      docker: {
        launch: ['{command}'],
        env: {},
        hooks: { before_cold: [], after_cold: [], after_pair: [], before_session: [], after_session: [] },
        services: [],
      },
      lazy: { launch: ['{command}'], env: {}, hooks: { before_cold: [], after_cold: [], after_pair: [], before_session: [], after_session: [] }, services: [] },
    },
    design: testDesign(30, 'e2e'),
    analysis,
    report: {},
    ...sectionsOf({ analysis, report: {} }),
    executor: { kind: 'local' },
    stages: [],
  };
}

const context = (dir: string, id: string, _kind: string, outputDir: string, inputs: Record<string, StageInput>, cfg: PipelineConfig): StageContext =>
  stageContext(dir, id, outputDir, inputs, cfg);

/**
 * Runs analyze and report on synthetic samples. With samplesFile, that
 * samples.duckdb is copied in (DuckDB does not write the same rows to
 * byte-identical files every time, and report.md names the file's sha256).
 */
async function runBoth(dir: string, samplesFile?: string): Promise<{ analysisDir: string; reportDir: string }> {
  const cfg = config(dir);
  const sampleDir = join(dir, 'sample-out');
  await mkdir(sampleDir, { recursive: true });
  if (samplesFile) await copyFile(samplesFile, join(sampleDir, 'samples.duckdb'));
  else
    await writeSamplesTable(
      join(sampleDir, 'samples.duckdb'),
      syntheticSamples({
        experiment: 'e2e',
        cohorts: ['shell'],
        paths: { docker: 400, lazy: 180 },
        states: ['cold', 'warm'],
        rounds: 30,
        seed: 'e2e',
        failEvery: 50,
      }),
    );
  await writeFile(
    join(sampleDir, 'session.json'),
    JSON.stringify({
      seed: 'e2e',
      rounds: 30,
      warmupRounds: 3,
      preflight: 1,
      paths: ['docker', 'lazy'],
      cohorts: ['shell'],
      states: ['cold', 'warm'],
      sessions: [],
    }),
  );
  const sampleInput: StageInput = {
    id: 'sample',
    kind: 'sample',
    outputDir: sampleDir,
    outputDigest: 'sha256:' + 'a'.repeat(64),
    observationsDir: join(dir, 'obs', 'sample'),
    observationsDigest: '',
  };
  const analysisDir = join(dir, 'analyze-out');
  await mkdir(analysisDir);
  await analyze.run(context(dir, 'analyze', 'analyze', analysisDir, { sample: sampleInput }, cfg));
  const reportDir = join(dir, 'report-out');
  await mkdir(reportDir);
  const analysisInput: StageInput = {
    id: 'analyze',
    kind: 'analyze',
    outputDir: analysisDir,
    outputDigest: 'sha256:' + 'b'.repeat(64),
    observationsDir: join(dir, 'obs', 'analyze'),
    observationsDigest: '',
  };
  await report.run(context(dir, 'report', 'report', reportDir, { sample: sampleInput, analyze: analysisInput }, cfg));
  return { analysisDir, reportDir };
}

test('analyze and report run end to end on a synthetic samples.duckdb', async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'benchgraph-e2e-'));
  try {
    const { analysisDir, reportDir } = await runBoth(dir);
    const a = JSON.parse(await readFile(join(analysisDir, 'analysis.json'), 'utf8')) as AnalysisResult;
    t.is(a.cells.length, 8);
    const failures = a.cells.filter((c) => c.metric === 'ready').reduce((s, c) => s + c.failures, 0);
    t.is(failures, 2); // every 50th of 120 launches
    t.is(
      a.cells.filter((c) => c.metric === 'ready').reduce((s, c) => s + c.n, 0),
      118,
    );
    const cold = a.differences.find((d) => d.state === 'cold' && d.metric === 'ready')!;
    t.true(cold.detected && cold.lowMs! > 0);
    t.is(a.preparation, null);
    const files = (await readdir(reportDir)).sort();
    t.deepEqual(files, [
      'REPRODUCE.md',
      'content-bytes.svg',
      'differences.csv',
      'differences.svg',
      'ecdf-shell.svg',
      'index.html',
      'position.svg',
      'provenance.csv',
      'report.md',
      'rounds.svg',
      'samples.csv',
      'sessions.csv',
      'statistics.csv',
    ]);
    const md = await readFile(join(reportDir, 'report.md'), 'utf8');
    t.true(md.startsWith('# Does the lazy path start faster?\n'));
    for (const h of ['## Start-up times', '## Order and carryover', '## Method', '## Provenance and downloads', '## Appendix: Every cell'])
      t.true(md.includes(h), h);
    t.false(md.includes('## Motivation'), 'a section with nothing to say is left out');
    t.true(md.includes('This pipeline pins no artifact'));
    // the summary: a row per comparison, a column per cohort and state; lazy is the lowest Ready P50 of shell cold
    t.regex(md, /^\| Ready, a − b: [^|]+ \| shell cold \| shell warm \|$/m);
    t.regex(md, /^\| lowest Ready P50 \| lazy \| /m);
    t.notRegex(md, /(docker|lazy) is faster/, 'a difference of medians is not reported as "faster"');
    // failEvery=50 fails one warm docker and one warm lazy launch (exit code 1): every row and the opening say so
    t.regex(md, /^\| docker \| cold \| ready \| 30 of 30 \| 0 \| 394\.0 \|/m);
    t.regex(md, /\| docker \| warm \| ready \| 29 of 30 \| 1 failed \(exit code 1\) \|/);
    t.true(md.includes('Failed launches are not among the values.'));
    t.regex(md, /^\| shell \| warm \| ready \| docker − lazy \| [^|]+ \| [^|]+ \| [^|]+ \| 28 of 30 \|/m);
    t.true(md.includes('2 of the 120 formal launches failed; they are counted and left out of every statistic'));
    t.true((await readFile(join(reportDir, 'ecdf-shell.svg'), 'utf8')).startsWith('<svg'));
    t.true((await readFile(join(reportDir, 'provenance.csv'), 'utf8')).includes('samples,samples.duckdb,'));
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

test('identical inputs give identical report bytes', async (t) => {
  const one = await mkdtemp(join(tmpdir(), 'benchgraph-same-'));
  const two = await mkdtemp(join(tmpdir(), 'benchgraph-same-'));
  try {
    const r1 = await runBoth(one);
    const r2 = await runBoth(two, join(one, 'sample-out', 'samples.duckdb'));
    const files = (await readdir(r1.reportDir)).sort();
    t.deepEqual((await readdir(r2.reportDir)).sort(), files);
    for (const f of files) t.true((await readFile(join(r1.reportDir, f))).equals(await readFile(join(r2.reportDir, f))), f);
    t.true((await readFile(join(r1.analysisDir, 'analysis.json'))).equals(await readFile(join(r2.analysisDir, 'analysis.json'))));
  } finally {
    await rm(one, { recursive: true, force: true });
    await rm(two, { recursive: true, force: true });
  }
});
