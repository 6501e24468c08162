// The sessions' disk probes in the report: disk.csv and the table that sets
// the session medians of each cold cell whose path declares a full pull
// (paths.<id>.cold_check) beside them, as association only
// (made-up probe records around the synthetic samples of helpers/report-run.ts,
// a test of our own rendering).
import test from 'ava';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { SessionRecord } from '../harness/contract/exchange-files.js';
import { probe } from './helpers/disk-probe.js';
import { parseCsvTable } from '../harness/compare/csv-table.js';
import { readPublishedReport } from '../harness/compare/read-published-report.js';
import { runReport } from './helpers/report-run.js';

const record: SessionRecord = {
  session: 1,
  attempt: 1,
  host: 'vm',
  startedAt: '2026-10-07T09:58:00.000Z',
  endedAt: '2026-10-07T10:30:00.000Z',
  noise: {
    wallMs: 1_920_000,
    cpuModel: 'cpu',
    cpuCount: 2,
    loadAverageStart: [0.1, 0.1, 0.1],
    loadAverageEnd: [1, 1, 1],
    memAvailableStartBytes: 4e9,
    memAvailableEndBytes: 4e9,
    memTotalBytes: 8e9,
    stealShare: 0,
    iowaitShare: 0.07,
    idleShare: 0.5,
    foreignCpuMs: 1000,
    topForeign: [],
    noisy: false,
    reasons: [],
  },
  disk: { start: probe(812, 1450), end: probe(305, 1398) },
};

test('session disk probes give disk.csv and a table of the cold cells of the paths that declare a full pull beside them, worded as association only', async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'benchgraph-disk-report-'));
  try {
    await mkdir(join(dir, 'observations'), { recursive: true });
    await writeFile(join(dir, 'observations', 'sessions.json'), JSON.stringify([record]));
    const { reportDir } = await runReport(dir);
    const md = await readFile(join(reportDir, 'report.md'), 'utf8');
    const section = md.slice(md.indexOf('## Appendix: Disk in each session'));
    t.true(md.includes('## Appendix: Disk in each session'));
    // docker and oci-full declare cold_check full-pull, lazy does not: the label is what a path declares, not its byte count
    // (synthetic content bytes are 100 000 x the path median, so docker reads less than half of oci-full's)
    t.regex(
      section,
      /\| session \| attempt \| write \/ read MB\/s at start \| at end \| shell docker cold \| shell oci-full cold \| numpy docker cold \| numpy oci-full cold \|/,
    );
    t.regex(section, /\| 1 \| 1 \| 812 \/ 1450 \| 305 \/ 1398 \| [\d.]+ \| [\d.]+ \| [\d.]+ \| [\d.]+ \|/);
    t.regex(section, /declares a full pull \(paths\.<id>\.cold_check: full-pull\): docker, oci-full\./);
    t.false(section.slice(0, section.indexOf('\n## ', 5)).includes('lazy cold'));
    t.regex(section, /association only/);
    t.notRegex(section.slice(0, section.indexOf('\n###', 5)), /\b(because|caused|due to)\b/);
    const disk = parseCsvTable(await readFile(join(reportDir, 'disk.csv'), 'utf8'));
    t.deepEqual(
      disk.rows.map((r) => [r['moment'], r['write_mb_s'], r['read_mode']]),
      [
        ['start', '812.0', 'cache-dropped'],
        ['end', '305.0', 'cache-dropped'],
      ],
    );
    t.deepEqual(
      readPublishedReport(reportDir).disks.map((d) => d.writeMBps),
      [812, 305],
    );
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

test('without disk probes the report has no disk section and no disk.csv', async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'benchgraph-disk-report-'));
  try {
    const { reportDir } = await runReport(dir);
    t.false((await readFile(join(reportDir, 'report.md'), 'utf8')).includes('Disk in each session'));
    t.false(existsSync(join(reportDir, 'disk.csv')));
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});
