// What `pipeline run` files in run.json (harness/history/published-run.ts),
// on a made-up store (our own logic): each session's noise flag is the one the
// report uses, calibrated on the canary (analysis.json `noise`), not the fixed
// thresholds that flag every session of the published host kind; the run's
// canary is kept; a run without analysis.json keeps the fixed flag, marked as such.
import test from 'ava';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { canaryStatistics, type CanaryLaunchRow } from '../harness/analysis/canary-statistics.js';
import { sessionNoise } from '../harness/analysis/session-noise.js';
import type { SessionRecord } from '../harness/contract/exchange-files.js';
import { noisyFlags } from '../harness/history/attribution.js';
import { filePublishedRun, type FrozenStage } from '../harness/history/published-run.js';
import { readRunFolder } from '../harness/history/read-runs.js';
import type { RunRecord } from '../harness/history/run-record.js';
import { tempDir } from './helpers/cli.js';

/** A session 10 minutes on 2 CPUs with the host's agent at 12% of the capacity: the fixed thresholds (10%) flag it. */
function record(session: number): SessionRecord {
  const capacity = 600_000 * 2;
  return {
    session,
    attempt: 1,
    host: 'h',
    startedAt: `2026-12-04T1${session}:00:00.000Z`,
    endedAt: `2026-12-04T1${session}:10:00.000Z`,
    noise: {
      wallMs: 600_000,
      cpuModel: 'made-up',
      cpuCount: 2,
      loadAverageStart: [0.5, 0.5, 0.5],
      loadAverageEnd: [1, 1, 1],
      memAvailableStartBytes: 3e9,
      memAvailableEndBytes: 3e9,
      memTotalBytes: 4e9,
      stealShare: 0.001,
      iowaitShare: 0.02,
      idleShare: 0.5,
      foreignCpuMs: 0.12 * capacity,
      topForeign: [{ name: 'agent', cpuMs: 0.12 * capacity, processes: 1 }],
      noisy: true,
      reasons: ['other processes used 12.0% of CPU capacity'],
    },
  };
}

/** Canary launches: 5 repeats of two pieces per session, session 2's fs piece ×1.5. */
function canaryRows(): CanaryLaunchRow[] {
  const rows: CanaryLaunchRow[] = [];
  for (const session of [1, 2, 3])
    for (const [piece, ms] of [
      ['cpu', 100],
      ['fs', 40],
    ] as const)
      for (let repeat = 1; repeat <= 5; repeat++)
        rows.push({ session, piece, repeat, ok: true, completionMs: ms * (piece === 'fs' && session === 2 ? 1.5 : 1) * (1 + 0.002 * repeat) });
  return rows;
}

function madeUpRun(withAnalysis: boolean): RunRecord {
  const root = tempDir('benchgraph-run-record-');
  const stage = (uses: string): FrozenStage => {
    const dir = join(root, 'stages', uses, `${uses}-key`);
    mkdirSync(join(dir, 'observations'), { recursive: true });
    mkdirSync(join(dir, 'outputs'), { recursive: true });
    return {
      id: uses,
      uses,
      key: `${uses}-key`,
      outputDigest: `${uses}-out`,
      keyInputs: { code: {}, config: {}, params: {} },
      observationsDir: join(dir, 'observations'),
      manifestDigest: `sha256:${uses}-manifest`,
    };
  };
  const sample = stage('sample');
  const analyze = stage('analyze');
  const records = [1, 2, 3].map(record);
  writeFileSync(join(sample.observationsDir, 'sessions.json'), JSON.stringify(records));
  if (withAnalysis) {
    const canary = canaryStatistics(canaryRows(), { resamples: 200, confidence: 0.95, seed: 'made-up' });
    writeFileSync(join(analyze.observationsDir, '..', 'outputs', 'analysis.json'), JSON.stringify({ canary, noise: sessionNoise(records, canary) }));
  }
  const report = join(root, 'report');
  mkdirSync(report);
  writeFileSync(join(report, 'statistics.csv'), 'cohort,path,state,metric,unit,n,p50\nshell,lazy,cold,ready,ms,30,100\n');
  writeFileSync(join(report, 'differences.csv'), 'kind,cohort,state,metric,a,b,unit,value,low,high,detected\n');
  const filed = filePublishedRun(report, 'made-up', [sample, analyze]);
  return JSON.parse(readFileSync(join(filed.folder, 'run.json'), 'utf8')) as RunRecord;
}

test('run.json keeps the noise flag calibrated on the canary, as the report says it, and the run canary (made-up store)', (t) => {
  const r = madeUpRun(true);
  t.deepEqual(
    r.sessions.map((s) => [s.session, s.noise?.noisy, s.noise?.rule]),
    [
      [1, false, 'canary'],
      [2, true, 'canary'],
      [3, false, 'canary'],
    ],
  );
  t.regex(r.sessions[1]!.noise!.reasons[0]!, /^canary fs ×1\.5\d the other sessions$/);
  t.deepEqual(
    r.canary?.pieces.map((p) => p.piece),
    ['cpu', 'fs'],
  );
  t.is(r.canary?.sessions.length, 3);
});

test('without analysis.json run.json keeps the fixed-threshold flag and no canary, and history says which flag it read (made-up store)', (t) => {
  const r = madeUpRun(false);
  t.deepEqual(
    r.sessions.map((s) => [s.noise?.noisy, s.noise?.rule]),
    [
      [true, undefined],
      [true, undefined],
      [true, undefined],
    ],
  );
  t.false('canary' in r);
});

test('history reads the calibrated flag from run.json: 1/3 noisy where the fixed thresholds said 3/3 (made-up store)', (t) => {
  const root = tempDir('benchgraph-run-flags-');
  const calibrated = madeUpRun(true);
  const fixed = madeUpRun(false);
  const run = (record: RunRecord) => ({ ...readRunFolderless(root), record });
  t.is(noisyFlags(run(calibrated))?.text, '1/3 noisy');
  t.is(noisyFlags(run(fixed))?.text, '3/3 noisy (fixed thresholds)');
});

/** A HistoryRun shell for noisyFlags, which reads only the record. */
function readRunFolderless(root: string): ReturnType<typeof readRunFolder> {
  return {
    id: 'r',
    digest: null,
    folder: root,
    time: '',
    label: null,
    record: null,
    report: { cells: [], differences: [] },
    sessionMedians: {},
    provenance: [],
    fingerprint: null,
  } as unknown as ReturnType<typeof readRunFolder>;
}
