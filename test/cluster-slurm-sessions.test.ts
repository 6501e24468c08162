// `pipeline run --executor slurm` on a real private two-node cluster (munged,
// slurmctld, slurmd n1 and n2 on 127.0.0.1): one job per sampling session,
// merged into one sample table; a cancelled job's session runs again on the
// next run. Root only (the daemons run as root); CI runs as root.
import test from 'ava';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { analysisRules } from '../harness/config/analysis-rules.js';
import { analyzeSamples } from '../harness/analysis/analyze-samples.js';
import { readSamples } from '../harness/analysis/read-samples.js';
import { Database } from '../harness/db/duckdb.js';
import { loadPipeline } from '../harness/config/load-pipeline.js';
import { knownStageKinds } from '../harness/engine/stage-registry.js';
import { runCli, smokeProject } from './helpers/cli.js';
import { runCancellingJob, twoNodeClusterTests } from './helpers/two-node-cluster.js';

const rootTest = twoNodeClusterTests('cluster-slurm-sessions');

const SETS = ['--executor', 'slurm', '--set', 'design.sessions=4', '--set', 'design.rounds=3', '--set', 'analysis.bootstrap.resamples=200'];
async function samplesFile(dir: string): Promise<string> {
  const lock = JSON.parse(readFileSync(join(dir, 'pipeline.lock'), 'utf8'));
  return join(dir, '.data', 'stages', 'sample', lock.stages.sample.key, 'outputs', 'samples.duckdb');
}

rootTest('four sessions run as Slurm jobs on both nodes and merge into one table whose statistics equal an in-process analysis', async (t) => {
  const dir = smokeProject();
  const r = await runCli(['run', '--json', ...SETS], dir);
  t.is(r.code, 0, r.stderr);
  t.regex(r.stderr, /slurm: benchgraph-S1-a1 \(job \d+\) running on n[12]/);
  const file = await samplesFile(dir);
  const db = await Database.open(file, { readOnly: true });
  try {
    const sessions = await db.all(`SELECT session, count(*) AS n, count(DISTINCT launch_id) AS ids FROM samples WHERE phase = 'formal' GROUP BY 1 ORDER BY 1`);
    t.deepEqual(
      sessions.map((s) => [Number(s['session']), Number(s['n']), Number(s['ids'])]),
      [1, 2, 3, 4].map((k) => [k, 24, 24]),
    );
    const dup = await db.one(`SELECT count(*) - count(DISTINCT launch_id) AS d FROM samples`);
    t.is(Number(dup!['d']), 0);
    const hosts = await db.all(`SELECT DISTINCT host FROM samples WHERE phase = 'formal' ORDER BY 1`);
    t.deepEqual(
      hosts.map((h) => h['host']),
      ['n1', 'n2'],
    );
  } finally {
    db.close();
  }
  const config = loadPipeline(join(dir, 'pipeline.yaml'), {
    sets: ['design.sessions=4', 'design.rounds=3', 'analysis.bootstrap.resamples=200'],
    knownKinds: knownStageKinds(),
  });
  const inProcess = analyzeSamples(await readSamples(file), analysisRules(config.analysis), null);
  const lock = JSON.parse(readFileSync(join(dir, 'pipeline.lock'), 'utf8'));
  const frozen = JSON.parse(readFileSync(join(dir, '.data', 'stages', 'analyze', lock.stages.analyze.key, 'outputs', 'analysis.json'), 'utf8'));
  t.deepEqual(frozen.cells, JSON.parse(JSON.stringify(inProcess.cells)));
  t.deepEqual(frozen.differences, JSON.parse(JSON.stringify(inProcess.differences)));
});

rootTest('a cancelled session job leaves its session incomplete, and the next run resubmits only that session', async (t) => {
  const dir = smokeProject();
  const yaml = join(dir, 'pipeline.yaml');
  writeFileSync(yaml, readFileSync(yaml, 'utf8').replace('sleep 0.05', 'sleep 0.3'));
  const { code, err } = await runCancellingJob(['run', ...SETS], dir);
  t.is(code, 1, err.slice(-2000));
  t.regex(err, /1 of 4 session job\(s\) did not complete/);
  t.regex(err, /benchgraph-S2-a1: cancelled/);
  const again = await runCli(['run', '--json', ...SETS], dir);
  t.is(again.code, 0, again.stderr);
  t.regex(again.stderr, /slurm: submitting 1 session job\(s\): benchgraph-S2-a2\n/);
  const db = await Database.open(await samplesFile(dir), { readOnly: true });
  try {
    const sessions = await db.all(`SELECT session, count(*) AS n, count(DISTINCT launch_id) AS ids FROM samples WHERE phase = 'formal' GROUP BY 1 ORDER BY 1`);
    t.deepEqual(
      sessions.map((s) => [Number(s['session']), Number(s['n']), Number(s['ids'])]),
      [1, 2, 3, 4].map((k) => [k, 24, 24]),
    );
  } finally {
    db.close();
  }
});

rootTest(
  'design.adaptive on Slurm: the planned sessions are jobs, each added session is one more job over only the undecided cells, and adaptive.json says where it stopped',
  async (t) => {
    const dir = smokeProject();
    const sets = ['--executor', 'slurm', '--set', 'design.rounds=3', '--set', 'analysis.bootstrap.resamples=200'];
    const adaptive = ['--set', 'design.adaptive.min_sessions=2', '--set', 'design.adaptive.max_sessions=3'];
    const r = await runCli(['run', '--json', ...sets, ...adaptive], dir);
    t.is(r.code, 0, r.stderr);
    t.regex(r.stderr, /slurm: submitting 2 session job\(s\): benchgraph-S1-a1, benchgraph-S2-a1\n/);
    const lock = JSON.parse(readFileSync(join(dir, 'pipeline.lock'), 'utf8'));
    const out = join(dir, '.data', 'stages', 'sample', lock.stages.sample.key, 'outputs');
    const record = JSON.parse(readFileSync(join(out, 'adaptive.json'), 'utf8')) as {
      sessionsRun: number;
      comparisons: { cohort: string; a: string; b: string; verdict: string; sessions: number }[];
    };
    t.true(record.sessionsRun === 2 || record.sessionsRun === 3);
    const db = await Database.open(join(out, 'samples.duckdb'), { readOnly: true });
    try {
      const third = await db.all(`SELECT DISTINCT cohort, path FROM samples WHERE phase = 'formal' AND session = 3 ORDER BY ALL`);
      if (record.sessionsRun === 3) {
        t.regex(r.stderr, /slurm: submitting 1 session job\(s\): benchgraph-S3-a1\n/);
        // Session 3 visits only cohorts with a comparison still open after session 2.
        const open = new Set(record.comparisons.filter((c) => c.sessions === 3 || c.verdict === 'undecided').map((c) => c.cohort));
        t.true(third.length > 0 && third.every((x) => open.has(String(x['cohort']))), JSON.stringify(third));
      } else t.deepEqual(third, []);
    } finally {
      db.close();
    }
  },
);
