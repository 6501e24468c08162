// Real engine test (root only; CI runs it as root): `pipeline run` of the
// real-mini experiment (busybox-static image, 3 paths, cold and warm) through
// the real registry, nginx, private dockerd, rclone, erofs and crun; no failed
// launch, full pulls on cold docker/oci-full, and nothing left running or mounted.
import test from 'ava';
import { readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCli, startCli, tempDir } from './helpers/cli.js';
import { writePipelineVariant } from './helpers/pipeline-variant.js';
import { Database } from '../harness/db/duckdb.js';
import { mountsUnder } from '../harness/process/mount-table.js';
import { processesMentioning } from './helpers/processes.js';

const isRoot = process.getuid?.() === 0;
const rootTest = isRoot ? test : test.skip;
/** rclone's --vfs-read-chunk-size and its limit in harness/paths/lazy-launch.sh. */
const LAZY_CHUNK_BYTES = 64 * 1024;
if (!isRoot) console.warn('real-mini-pipeline: skipped, needs root; CI runs it as root');

rootTest(
  'pipeline run of real-mini passes every launch with identical content bytes per whole-blob cell, lazy ones apart by whole chunks at most, and leaves nothing behind',
  async (t) => {
    t.timeout(300_000);
    const dir = tempDir('bg-real-mini-');
    writePipelineVariant(dir, 'real-mini.fragment.yaml');
    const r = await runCli(['run', '--set', 'design.rounds=3'], dir);
    t.is(r.code, 0, r.stderr);
    const sampleDir = join(dir, '.data', 'stages', 'sample');
    const key = readdirSync(sampleDir)[0]!;
    const db = await Database.open(join(sampleDir, key, 'outputs', 'samples.duckdb'), { readOnly: true });
    try {
      const rows = await db.all(
        `SELECT path, state, count(*) AS n, count(*) FILTER (WHERE NOT ok) AS failed, min(content_bytes) AS lo, max(content_bytes) AS hi
       FROM samples WHERE phase = 'formal' GROUP BY path, state ORDER BY path, state`,
      );
      t.is(rows.length, 6);
      for (const row of rows) {
        t.is(Number(row['failed']), 0, `${String(row['path'])}/${String(row['state'])} has no failed launch`);
        const cell = `${String(row['path'])}/${String(row['state'])}`;
        const spread = Number(row['hi']) - Number(row['lo']);
        if (row['path'] === 'lazy') {
          // On-demand reads: a range the kernel asks for again is fetched again, in rclone's 64 KiB chunks
          // (lazy-launch.sh). Seen once in a parallel suite run: one cold launch 9 chunks above the others
          // (2,764,800 against 2,174,976 bytes); the report flags such a cell. Anything else is a counting fault.
          t.is(spread % LAZY_CHUNK_BYTES, 0, `content bytes within ${cell} differ by ${spread}, not by whole 64 KiB chunks`);
          if (spread) t.log(`${cell}: content bytes ${String(row['lo'])} to ${String(row['hi'])}, ${spread / LAZY_CHUNK_BYTES} chunks apart`);
        } else {
          t.is(spread, 0, `content bytes are identical within ${cell} (whole blobs)`);
        }
      }
      const cold = Object.fromEntries(rows.filter((r) => r['state'] === 'cold').map((r) => [String(r['path']), Number(r['lo'])]));
      t.is(cold['docker'], cold['oci-full'], 'docker and oci-full both retrieve every blob');
      t.true(cold['lazy']! > 0);
      // Cold docker and oci-full launches mark their steps on stderr; warm launches and lazy mark none.
      const marks = await db.all(
        `SELECT path, state, names, count(*) AS launches FROM (
         SELECT s.path, s.state, s.launch_id, string_agg(p.name, ',' ORDER BY p.seq) AS names
         FROM phases p JOIN samples s USING (launch_id) WHERE s.phase = 'formal' GROUP BY ALL)
       GROUP BY ALL ORDER BY ALL`,
      );
      t.deepEqual(
        marks.map((m) => [m['path'], m['state'], m['names'], Number(m['launches'])]),
        [
          ['docker', 'cold', 'pull-done', 3],
          ['oci-full', 'cold', 'copy-done,unpack-done', 3],
        ],
      );
    } finally {
      db.close();
    }
    const verify = JSON.parse(
      readFileSync(join(dir, '.data', 'stages', 'verify', readdirSync(join(dir, '.data', 'stages', 'verify'))[0]!, 'outputs', 'verify.json'), 'utf8'),
    ) as { ok: boolean };
    t.true(verify.ok);
    t.deepEqual(mountsUnder(dir), [], 'nothing stays mounted');
    const again = await runCli(['run', '--set', 'design.rounds=3'], dir);
    t.is(again.code, 0, again.stderr);
    t.regex(again.stderr + again.stdout, /0 ran/, 'a second run reuses every stage');
    if (mountsUnder(dir).length === 0) rmSync(dir, { recursive: true, force: true });
  },
);

rootTest('SIGINT during sampling of real-mini leaves no mount, no service process and no engine folder', async (t) => {
  t.timeout(300_000);
  const dir = tempDir('bg-real-sigint-');
  writePipelineVariant(dir, 'real-mini.fragment.yaml');
  const enginesBefore = new Set(readdirSync(tmpdir()).filter((f) => f.startsWith('bg-engine-')));
  const child = startCli(['run', '--set', 'design.rounds=200'], dir);
  let stderr = '';
  await new Promise<void>((resolve) => {
    child.stderr!.on('data', (b: Buffer) => {
      stderr += b.toString();
      if (/formal round 2\//.test(stderr)) resolve();
    });
    child.on('close', () => resolve());
  });
  child.kill('SIGINT');
  const code = await new Promise<number | null>((resolve) => child.on('close', (c) => resolve(c)));
  t.not(code, 0, stderr.slice(-2000));
  t.deepEqual(mountsUnder(dir), [], 'nothing stays mounted');
  t.deepEqual(processesMentioning(dir), [], 'no process of the run is left');
  // Other runs may be using engines of their own: a leftover is a new folder no live dockerd uses.
  const enginesAfter = readdirSync(tmpdir()).filter(
    (f) => f.startsWith('bg-engine-') && !enginesBefore.has(f) && processesMentioning(join(tmpdir(), f)).length === 0,
  );
  t.deepEqual(enginesAfter, [], 'the private engine folder is removed');
  if (mountsUnder(dir).length === 0) rmSync(dir, { recursive: true, force: true });
});
