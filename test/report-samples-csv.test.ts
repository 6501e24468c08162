import test from 'ava';
import { copyFile, mkdir, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { stageContext } from './helpers/stage-context.js';
import { sampleColumns } from '../harness/db/sample-columns.js';
import importSamples from '../stages/import-samples.js';
import { reportConfig, reportSamples, runReport } from './helpers/report-run.js';

test('samples.csv re-imported with import-samples gives byte-identical statistics.csv and differences.csv', async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'benchgraph-reimport-'));
  try {
    const first = await runReport(join(dir, 'first'));
    const second = join(dir, 'second');
    await mkdir(second, { recursive: true });
    await copyFile(join(first.reportDir, 'samples.csv'), join(second, 'samples.csv'));
    const importDir = join(second, 'import-out');
    await mkdir(importDir);
    await importSamples.run(stageContext(second, 'import', importDir, {}, reportConfig(second), { file: 'samples.csv' }));
    const again = await runReport(join(second, 'rerun'), join(importDir, 'samples.duckdb'));
    for (const f of ['statistics.csv', 'differences.csv']) {
      t.true((await readFile(join(first.reportDir, f))).equals(await readFile(join(again.reportDir, f))), f);
    }
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

test('samples.csv holds every launch of every phase with the sample schema columns', async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'benchgraph-samplescsv-'));
  try {
    const { reportDir } = await runReport(dir);
    const lines = (await readFile(join(reportDir, 'samples.csv'), 'utf8')).trimEnd().split('\n');
    t.deepEqual(
      lines[0]!.split(','),
      sampleColumns.map((c) => c.name),
    );
    const rows = reportSamples();
    t.is(lines.length - 1, rows.length);
    t.is(lines.filter((l) => l.includes(',warmup,')).length, rows.filter((r) => r['phase'] === 'warmup').length);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});
