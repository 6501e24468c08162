// The publishing kit's own logic (harness/publish/), on made-up inputs: the
// shared host-noise table keeps CPU shares within 0-100% even for a record
// written before the cap, the differences plot's ticks cover the data's range,
// the tools an experiment used come from what its paths run (the real harness
// scripts), and publish's skeleton writes every file an experiment publishes.
import test from 'ava';
import { join } from 'node:path';
import type { SessionRecord } from '../harness/contract/exchange-files.js';
import type { Table } from '../harness/document/document-model.js';
import { paragraph } from '../harness/document/document-model.js';
import { projectRoot } from '../harness/process/project-root.js';
import { publishedFiles } from '../harness/publish/publish.js';
import { foreignShare, hostNoiseBlocks } from '../harness/publish/session-sections.js';
import { usedParts } from '../harness/publish/used-tools.js';
import { identicalUnits } from '../harness/publish/identical-content.js';
import { symlogTicks } from '../harness/report/launch-plots.js';

function madeUpRecord(foreignCpuMs: number): SessionRecord {
  return {
    session: 1,
    attempt: 1,
    host: 'made-up',
    startedAt: '2026-12-01T10:00:00.000Z',
    endedAt: '2026-12-01T10:01:40.000Z',
    noise: {
      wallMs: 100_000,
      cpuModel: 'made-up',
      cpuCount: 2,
      loadAverageStart: [1, 1, 1],
      loadAverageEnd: [1, 1, 1],
      memAvailableStartBytes: 8e9,
      memAvailableEndBytes: 8e9,
      memTotalBytes: 16e9,
      stealShare: 0,
      iowaitShare: 0.05,
      idleShare: 0.25,
      foreignCpuMs,
      topForeign: [{ name: 'other', cpuMs: foreignCpuMs, processes: 1 }],
      noisy: true,
      // What a record written before the cap said.
      reasons: [`other processes used ${((foreignCpuMs / 200_000) * 100).toFixed(1)}% of CPU capacity (limit 10.0%): other`],
    },
  };
}

test('made-up record: the host-noise table caps other processes at the busy share, so no share exceeds 100% of the capacity', (t) => {
  const r = madeUpRecord(256_000); // 128% of 2 CPUs x 100 s
  t.true(foreignShare(r.noise) <= 1);
  t.is(foreignShare(r.noise), 0.7); // busy = 1 - idle 0.25 - iowait 0.05
  const table = hostNoiseBlocks([r]).find((b): b is Table => b.kind === 'table')!;
  const text = table.rows.flat().join(' ');
  t.notRegex(text, /128\.0%/);
  for (const m of text.matchAll(/(\d+\.\d)%/g)) t.true(Number(m[1]) <= 100, m[0]);
  t.regex(text, /70\.0%/);
  t.deepEqual(hostNoiseBlocks(null), []);
});

test('symmetric-log ticks span the data: values of 250-450 ms get ticks between them, not only 0 and 100', (t) => {
  const ticks = symlogTicks([250, 310, 450, 380]);
  t.true(ticks.includes(0));
  t.true(ticks.filter((v) => v >= 250 && v <= 450).length >= 3, ticks.join(','));
  const wide = symlogTicks([-120, 40, 7000]);
  t.true(wide.includes(1000) && wide.includes(-100), wide.join(','));
});

test("the tools an experiment used are what its paths run: gvisor-full-launch.sh runs runsc, not crun; a description's words do not count", (t) => {
  const harness = join(projectRoot(), 'harness');
  const runscOnly = usedParts(
    { paths: { g: { description: 'like docker and crun', launch: ['{harness}/paths/gvisor-full-launch.sh', '{state}'] } } },
    [],
    harness,
  );
  t.true(runscOnly.tools.includes('runsc'));
  t.false(runscOnly.tools.includes('crun'), runscOnly.tools.join(','));
  t.false(runscOnly.tools.includes('docker'), runscOnly.tools.join(','));
  const lazy = usedParts({ paths: { l: { launch: ['{harness}/paths/lazy-launch.sh'] } } }, [], harness);
  t.true(lazy.tools.includes('crun') && lazy.tools.includes('rclone'), lazy.tools.join(','));
  t.deepEqual(lazy.kernel, ['erofs', 'overlay', 'fuse', 'loop']);
  t.deepEqual(usedParts({ paths: { p: { launch: ['sh', '-c', 'sleep 0'] } } }, [], harness), { tools: [], kernel: [] });
});

test('units whose images pin to the same content are found; one image shared by two units is not news', (t) => {
  const images = { a: { tarSha256: 'x' }, b: { tarSha256: 'x' }, c: { tarSha256: 'y' } };
  t.deepEqual(identicalUnits({ u1: { image: 'a' }, u2: { image: 'b' }, u3: { image: 'c' } }, images), [
    { units: ['u1', 'u2'], images: ['a', 'b'], sha256: 'x' },
  ]);
  t.deepEqual(identicalUnits({ u1: { image: 'a' }, u2: { image: 'a' } }, images), []);
});

test('the skeleton publishes the report, REPRODUCE.md (a document too), the CSVs and extra files, in name order', async (t) => {
  const doc = { title: 'T', opening: [paragraph('hello')], sections: [], appendix: [] };
  const files = await publishedFiles(
    { doc, plots: [], csvs: { 'b.csv': 'x\n1\n' }, reproduce: { ...doc, title: 'Reproducing "T"' }, files: new Map([['a.json', '{}\n']]) },
    null,
  );
  t.deepEqual([...files.keys()], ['REPRODUCE.md', 'a.json', 'b.csv', 'report.md']);
  t.is(files.get('report.md'), '# T\n\nhello\n');
  t.regex(String(files.get('REPRODUCE.md')), /^# Reproducing "T"\n/);
});
