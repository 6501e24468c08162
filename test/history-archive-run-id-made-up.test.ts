// Our own logic on made-up data: an archived run is named after the run digest
// the store would tag it with (the experiment and each stage's key, output
// digest and manifest digest), and audit still catches an edit of any field of
// its run.json: its stages (the run digest no longer recomputes) or anything
// else (the record's own digest).
import test from 'ava';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { archiveRun } from '../harness/history/archive-run.js';
import { auditArchive } from '../harness/history/audit-archive.js';
import type { ArchivedStage, RunRecord } from '../harness/history/run-record.js';
import { runDigestOf } from '../harness/digest/run-digest.js';
import { tempDir } from './helpers/cli.js';

const stage = (uses: string): ArchivedStage => ({
  uses,
  key: `${uses}-key`,
  outputDigest: `${uses}-out`,
  code: {},
  config: {},
  params: {},
  manifest: `sha256:${uses}-manifest`,
});

function filed(stages: Record<string, ArchivedStage>): { runsDir: string; id: string; file: string } {
  const dir = tempDir('bg-run-id-');
  const reportDir = join(dir, 'report');
  mkdirSync(reportDir);
  writeFileSync(join(reportDir, 'statistics.csv'), 'cohort,path\nshell,a\n');
  writeFileSync(join(reportDir, 'differences.csv'), 'a,b\nx,y\n');
  const runsDir = join(dir, 'runs');
  const sessions = [{ session: 1, attempt: 1, host: 'h', startedAt: '2026-12-07T10:00:00.000Z', endedAt: '2026-12-07T10:05:00.000Z', fingerprint: null }];
  const { id, folder } = archiveRun({ reportDir, runsDir, experiment: 'made-up', source: 'published', stages, sessions });
  return { runsDir, id, file: join(folder, 'run.json') };
}

test('an archived run is named <date>-<the first 12 hex digits of the run digest the store tags it with>', (t) => {
  const stages = { sample: stage('sample'), analyze: stage('analyze') };
  const { id, file } = filed(stages);
  const digest = runDigestOf('made-up', {
    analyze: { uses: 'analyze', key: 'analyze-key', outputDigest: 'analyze-out', manifest: 'sha256:analyze-manifest' },
    sample: { uses: 'sample', key: 'sample-key', outputDigest: 'sample-out', manifest: 'sha256:sample-manifest' },
  });
  t.is(id, `2026-12-07-${digest.slice(0, 12)}`);
  t.is((JSON.parse(readFileSync(file, 'utf8')) as RunRecord).runDigest, digest);
});

test('audit passes an untouched archived run and names run.json when a stage record or any other field of it was edited', (t) => {
  const edits: ((r: RunRecord) => void)[] = [
    (r) => void (r.stages!['sample']!.outputDigest = 'other-out'),
    (r) => void (r.sessions[0]!.host = 'another-host'),
    (r) => void (r.time = '2026-12-07T11:00:00.000Z'),
  ];
  for (const edit of edits) {
    const { runsDir, file } = filed({ sample: stage('sample') });
    t.deepEqual(auditArchive(runsDir).findings, []);
    const record = JSON.parse(readFileSync(file, 'utf8')) as RunRecord;
    edit(record);
    writeFileSync(file, JSON.stringify(record, null, 1) + '\n');
    t.deepEqual(auditArchive(runsDir).findings, [{ file, problem: 'changed' }], edit.toString());
  }
});

test('a run whose stages carry no manifest digest (filed before) keeps the name of its run.json digest', (t) => {
  const { sample } = { sample: stage('sample') };
  const { runsDir, file } = filed({ sample: { ...sample, manifest: undefined } as ArchivedStage });
  const record = JSON.parse(readFileSync(file, 'utf8')) as RunRecord;
  t.is(record.runDigest, undefined);
  t.deepEqual(auditArchive(runsDir).findings, []);
});
