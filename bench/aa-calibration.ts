// Benchmark (not a test): the A/A calibration of "detected" on real launches
// (docs/STATISTICS.md). Runs an A/A pipeline (paths a and b the same path
// under two names; pipelines/aa-echo.yaml, pipelines/aa-lazy.yaml) RUNS times
// with the real `pipeline run`, each run with its own data folder and
// design.seed=aa-<i> (a fresh round order), then re-applies the rule to the
// first session alone (K = 1) and to all sessions (K = 3) of every run and
// prints the false-positive rates with Clopper-Pearson intervals. The K = 3
// verdict is checked against the run's own analysis.json. Runs already
// analysed in OUT are reused, so an interrupted calibration resumes. With
// --reuse-stages pin,prepare every later run starts with hard links of the
// first run's frozen pin and prepare stages (and its artifact cache), which the
// engine reuses as fresh (same keys): only warmup, sample and analyze rerun.
// With --adaptive JSON every run samples until decided (--set design.adaptive=JSON)
// and the tally is of the sequential rule's verdicts in each run's analysis.json
// (lower or higher: a false positive; equivalent; undecided), each checked
// against a recomputation from the run's samples, with the sessions and formal
// launches the runs took.
// Run: npx tsc -p . && node dist/bench/aa-calibration.js PIPELINE RUNS OUT [--csv FILE] [--reuse-stages pin,prepare] [--adaptive JSON] [--set KEY=VALUE ...]
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { Database } from '../harness/db/duckdb.js';
import { projectRoot } from '../harness/process/project-root.js';
import { aaDetected, aaRate } from '../harness/stats/aa-calibration.js';
import type { SessionRow } from '../harness/stats/two-level-bootstrap.js';

const [pipelineArg, runsArg, outArg] = process.argv.slice(2);
const csvAt = process.argv.indexOf('--csv');
const csvFile = csvAt > 0 ? process.argv[csvAt + 1] : undefined;
const reuseAt = process.argv.indexOf('--reuse-stages');
const reuseStages = reuseAt > 0 ? process.argv[reuseAt + 1]!.split(',') : [];
const adaptiveAt = process.argv.indexOf('--adaptive');
const adaptiveJson = adaptiveAt > 0 ? process.argv[adaptiveAt + 1]! : null;
// --set KEY=VALUE (repeatable) goes to every run, e.g. design.canary=false: the host canary has no part in the rule's error rate
const sets = process.argv.flatMap((a, i) => (a === '--set' && process.argv[i + 1] ? ['--set', process.argv[i + 1]!] : []));
if (!pipelineArg || !runsArg || !outArg) {
  console.error('usage: node dist/bench/aa-calibration.js PIPELINE RUNS OUT [--csv FILE]');
  process.exit(2);
}
const pipeline = resolve(pipelineArg);
const runs = Number(runsArg);
const out = resolve(outArg);
mkdirSync(out, { recursive: true });
const cli = join(projectRoot(), 'bin', 'pipeline.js');

const onlyFolder = (dir: string): string | null => {
  if (!existsSync(dir)) return null;
  const keys = readdirSync(dir);
  return keys.length === 1 ? join(dir, keys[0]!) : null;
};

/** The sample stage the run's analysis read: the one whose output digest its manifest names (an interrupted run may leave two). */
function sampleFolderOf(data: string): string {
  const analyzeManifest = readFileSync(join(onlyFolder(join(data, 'stages', 'analyze'))!, 'manifest.json'), 'utf8');
  // the sample stage's folder is named by its kind: sample, or an experiment's own (burst-sample)
  const kinds = readdirSync(join(data, 'stages')).filter((k) => k === 'sample' || k.endsWith('-sample'));
  const samples = kinds.flatMap((kind) => readdirSync(join(data, 'stages', kind)).map((k) => join(data, 'stages', kind, k)));
  const used = samples.filter((dir) =>
    analyzeManifest.includes((JSON.parse(readFileSync(join(dir, 'manifest.json'), 'utf8')) as { outputDigest: string }).outputDigest),
  );
  if (used.length !== 1) throw new Error(`${data}: cannot tell which sample stage the analysis read`);
  return used[0]!;
}

interface Analysis {
  rules: { bootstrap: { resamples: number; confidence: number; seed: string | number } };
  differences: { cohort: string; state: string; metric: string; a: string; b: string; sessions: number; detected: boolean }[];
  /** Along the unit factor (two cohorts, path and state held) or the condition factor (two states, cohort and path held). */
  factorDifferences?: {
    factor: 'unit' | 'condition';
    cohort: string;
    path: string;
    state: string;
    metric: string;
    a: string;
    b: string;
    sessions: number;
    detected: boolean;
  }[];
}

/** One difference as the tally reads it: its label, the query of its rows (each labelled a or b by `side`) and its bootstrap seed's parts. */
interface Tallied {
  key: string;
  metric: string;
  sessions: number;
  detected: boolean;
  a: string;
  b: string;
  where: string;
  params: string[];
  side: string;
  seedParts: string[];
}

function tallied(analysis: Analysis): Tallied[] {
  const arms = analysis.differences.map((d) => ({
    key: `${d.cohort} ${d.state} ${d.metric} ${d.a} - ${d.b}`,
    metric: d.metric,
    sessions: d.sessions,
    detected: d.detected,
    a: d.a,
    b: d.b,
    where: 'cohort = ? AND state = ? AND path IN (?, ?)',
    params: [d.cohort, d.state, d.a, d.b],
    side: 'path',
    seedParts: [d.cohort, d.state, d.metric, d.a, d.b],
  }));
  // factor-differences.ts seeds each with [seed, factor, path, the held level, metric, a, b]
  const others = (analysis.factorDifferences ?? []).map((d) => {
    const unit = d.factor === 'unit';
    return {
      key: `${d.factor} ${d.path} ${unit ? d.state : d.cohort} ${d.metric} ${d.a} - ${d.b}`,
      metric: d.metric,
      sessions: d.sessions,
      detected: d.detected,
      a: d.a,
      b: d.b,
      where: unit ? 'path = ? AND state = ? AND cohort IN (?, ?)' : 'path = ? AND cohort = ? AND state IN (?, ?)',
      params: [d.path, unit ? d.state : d.cohort, d.a, d.b],
      side: unit ? 'cohort' : 'state',
      seedParts: [d.factor, d.path, unit ? d.state : d.cohort, d.metric, d.a, d.b],
    };
  });
  return [...arms, ...others];
}

const started = new Date();
const t0 = Date.now();
for (let i = 0; i < runs; i++) {
  const data = join(out, `run-${i}`);
  if (onlyFolder(join(data, 'stages', 'analyze'))) continue;
  if (i > 0) {
    const first = join(out, 'run-0');
    for (const part of [...reuseStages.map((s) => join('stages', s)), ...(reuseStages.length ? ['artifacts'] : [])]) {
      if (!existsSync(join(first, part)) || existsSync(join(data, part))) continue;
      mkdirSync(dirname(join(data, part)), { recursive: true });
      const cp = spawnSync('cp', ['-al', join(first, part), join(data, part)], { encoding: 'utf8' });
      if (cp.status !== 0) throw new Error(`cp -al ${part}: ${cp.stderr}`);
    }
  }
  const args = [
    cli,
    'run',
    '-f',
    pipeline,
    '--data',
    data,
    '--set',
    `design.seed=aa-${i}`,
    ...(adaptiveJson ? ['--set', `design.adaptive=${adaptiveJson}`] : []),
    ...sets,
  ];
  const r = spawnSync(process.execPath, args, { cwd: out, encoding: 'utf8' });
  if (r.status !== 0) {
    console.error(`run ${i} failed (exit ${r.status}):\n${r.stderr.slice(-2000)}`);
    process.exit(1);
  }
  console.error(`run ${i + 1}/${runs} done, ${((Date.now() - t0) / 1000).toFixed(0)} s`);
}

if (adaptiveJson) {
  await tallyAdaptive();
  process.exit(0);
}

/** The sequential rule's verdicts of the adaptive runs, recomputed from their samples, with the false-positive rate. */
async function tallyAdaptive(): Promise<void> {
  const { firstStoppingDecision } = await import('../harness/analysis/sequential-decision.js');
  const { sessionLogRatios } = await import('../harness/analysis/session-log-ratios.js');
  const { marginHalfWidth } = await import('../harness/analysis/comparison-verdict.js');
  const { defaultSequentialPlan } = await import('../harness/stats/sequential-session-interval.js');
  const byKey = new Map<string, string[]>();
  const sessionsRun: number[] = [];
  const launches: number[] = [];
  const lines = ['run,cohort,state,metric,a,b,look,verdict'];
  let mismatches = 0;
  for (let i = 0; i < runs; i++) {
    const data = join(out, `run-${i}`);
    const analysis = JSON.parse(readFileSync(join(onlyFolder(join(data, 'stages', 'analyze'))!, 'outputs', 'analysis.json'), 'utf8')) as AdaptiveAnalysis;
    const sample = sampleFolderOf(data);
    const record = JSON.parse(readFileSync(join(sample, 'outputs', 'adaptive.json'), 'utf8')) as {
      sessionsRun: number;
      minSessions: number;
      maxSessions: number;
    };
    sessionsRun.push(record.sessionsRun);
    const db = await Database.open(join(sample, 'outputs', 'samples.duckdb'), { readOnly: true });
    try {
      launches.push(Number((await db.all(`SELECT count(*) AS n FROM samples WHERE phase = 'formal'`))[0]!['n']));
      const plan = { ...defaultSequentialPlan, minSessions: record.minSessions, maxSessions: record.maxSessions };
      for (const d of analysis.differences) {
        const column = d.metric === 'ready' ? 'ready_ms' : 'completion_ms';
        const rows = (
          await db.all(`SELECT session, round, path, cohort, state, ${column} AS v FROM samples WHERE phase = 'formal' AND ok AND cohort = ? AND state = ?`, [
            d.cohort,
            d.state,
          ])
        ).map((r) => ({
          session: Number(r['session']),
          round: Number(r['round']),
          path: String(r['path']),
          cohort: String(r['cohort']),
          state: String(r['state']),
          [column]: Number(r['v']),
        }));
        const reference = analysis.cells.find((c) => c.cohort === d.cohort && c.path === d.b && c.state === d.state && c.metric === d.metric)?.p50Ms ?? null;
        const decision = firstStoppingDecision(sessionLogRatios(rows, d, column), plan, marginHalfWidth(analysis.rules.practical, reference));
        const verdict = decision.stop ? decision.verdict : 'undecided';
        if (verdict !== d.sequential?.verdict) mismatches++;
        const key = `${d.cohort} ${d.state} ${d.metric} ${d.a} - ${d.b}`;
        byKey.set(key, [...(byKey.get(key) ?? []), verdict]);
        lines.push([i, d.cohort, d.state, d.metric, d.a, d.b, decision.sessions, verdict].join(','));
      }
    } finally {
      db.close();
    }
  }
  const pct = (x: number): string => (100 * x).toFixed(1);
  const med = (v: number[]): number => [...v].sort((x, y) => x - y)[Math.floor((v.length - 1) / 2)]!;
  console.log(`A/A calibration of ${pipelineArg}, sampled until decided (design.adaptive ${adaptiveJson}): ${runs} runs, tallied ${started.toISOString()}`);
  console.log(
    `sessions per run: median ${med(sessionsRun)}, range ${Math.min(...sessionsRun)}-${Math.max(...sessionsRun)}; formal launches: median ${med(launches)}`,
  );
  console.log('| difference | lower or higher (false positive) | equivalent | undecided |');
  console.log('|---|---|---|---|');
  for (const [key, v] of byKey) {
    const fp = aaRate(
      v.map((x) => x === 'lower' || x === 'higher'),
      0,
    );
    const eq = v.filter((x) => x === 'equivalent').length;
    console.log(
      `| ${key} | ${fp.successes}/${fp.trials} = ${pct(fp.rate)}% [${pct(fp.low)}, ${pct(fp.high)}] | ${eq}/${v.length} = ${pct(eq / v.length)}% | ${v.filter((x) => x === 'undecided').length}/${v.length} |`,
    );
  }
  console.log(`verdicts that differ from the runs' own analysis.json: ${mismatches}`);
  if (csvFile) writeFileSync(csvFile, lines.join('\n') + '\n');
  if (mismatches > 0) process.exit(1);
}

interface AdaptiveAnalysis {
  rules: { practical: { relative: number; absoluteMs: number } };
  cells: { cohort: string; path: string; state: string; metric: string; p50Ms: number | null }[];
  differences: { cohort: string; state: string; metric: string; a: string; b: string; sequential?: { verdict: string } }[];
}

const verdicts = new Map<string, { k1: boolean[]; k3: boolean[] }>();
const csv = ['run,difference,sessions,detected'];
let mismatches = 0;
for (let i = 0; i < runs; i++) {
  const data = join(out, `run-${i}`);
  const analysis = JSON.parse(readFileSync(join(onlyFolder(join(data, 'stages', 'analyze'))!, 'outputs', 'analysis.json'), 'utf8')) as Analysis;
  const db = await Database.open(join(sampleFolderOf(data), 'outputs', 'samples.duckdb'), { readOnly: true });
  try {
    for (const d of tallied(analysis)) {
      const column = d.metric === 'ready' ? 'ready_ms' : 'completion_ms';
      // each row labelled by its side's level (pairSessions reads `path`)
      const rows = (
        await db.all(`SELECT session, round, ${d.side} AS side, ${column} AS value FROM samples WHERE phase = 'formal' AND ok AND ${d.where}`, d.params)
      ).map((r) => ({ session: Number(r['session']), round: Number(r['round']), path: String(r['side']), value: Number(r['value']) })) as SessionRow[];
      const b = analysis.rules.bootstrap;
      const options = { resamples: b.resamples, confidence: b.confidence, seed: [b.seed, ...d.seedParts].join('|') };
      const k1 = aaDetected(rows, d.a, d.b, 1, options);
      const kAll = aaDetected(rows, d.a, d.b, d.sessions, options);
      if (kAll !== d.detected) mismatches++;
      const v = verdicts.get(d.key) ?? { k1: [], k3: [] };
      v.k1.push(k1);
      v.k3.push(kAll);
      verdicts.set(d.key, v);
      csv.push([i, d.key, 1, k1].join(','), [i, d.key, d.sessions, kAll].join(','));
    }
  } finally {
    db.close();
  }
}
const pct = (x: number): string => (100 * x).toFixed(1);
console.log(`A/A calibration of ${pipelineArg}: ${runs} runs, tallied ${started.toISOString()} (${((Date.now() - t0) / 1000).toFixed(0)} s)`);
console.log('| difference | K = 1 detected | K = 3 detected |');
console.log('|---|---|---|');
for (const [key, v] of verdicts) {
  const r1 = aaRate(v.k1, 1);
  const r3 = aaRate(v.k3, 3);
  console.log(
    `| ${key} | ${r1.successes}/${r1.trials} = ${pct(r1.rate)}% [${pct(r1.low)}, ${pct(r1.high)}] | ${r3.successes}/${r3.trials} = ${pct(r3.rate)}% [${pct(r3.low)}, ${pct(r3.high)}] |`,
  );
}
console.log(`K = 3 verdicts that differ from the runs' own analysis.json: ${mismatches}`);
if (csvFile) writeFileSync(csvFile, csv.join('\n') + '\n');
if (mismatches > 0) process.exit(1);
