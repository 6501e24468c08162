// Real lazy reads (root only; CI runs it as root): the fifth experiment runs end
// to end on the busybox image, two read sizes, cold, in two sessions. Every
// launch's bytes and waiting are counted and cut at Ready, its own stage
// publishes the shares with the peers' figures checked, and `pipeline compare`
// reads the published folder like any other experiment's.
import test from 'ava';
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { parseSampleCsv } from '../harness/analysis/parse-sample-csv.js';
import type { ReadShares } from '../harness/image-reads/read-shares.js';
import { runCli, tempDir } from './helpers/cli.js';
import { writePipelineVariant } from './helpers/pipeline-variant.js';

const isRoot = process.getuid?.() === 0;
const rootTest = isRoot ? test : test.skip;
if (!isRoot) console.warn('real-image-reads: skipped, needs root (mounts, crun); CI runs it as root');

rootTest('image-reads counts each cold launch’s bytes and waiting by Ready and by Completion, publishes the shares, and compare reads it', async (t) => {
  t.timeout(300_000);
  const dir = tempDir('bg-reads-');
  try {
    writePipelineVariant(dir, 'image-reads-mini.fragment.yaml');
    const r = await runCli(['run'], dir);
    t.is(r.code, 0, r.stderr.slice(-2000));
    const out = join(dir, 'reports', 'image-reads-mini');
    const rows = parseSampleCsv(readFileSync(join(out, 'samples.csv'), 'utf8'), 'samples.csv').filter((s) => s['phase'] === 'formal');
    t.is(rows.length, 2 * 2 * 2, '2 sessions x 2 rounds x 2 read sizes, cold only');
    for (const s of rows) {
      const [bytes, byReady, wait, waitByReady, ready] = (
        ['content_bytes', 'ready_content_bytes', 'fetch_wait_ms', 'ready_fetch_wait_ms', 'ready_ms'] as const
      ).map((k) => s[k] as number);
      t.true(s['ok'] === true && bytes! > 0 && byReady! > 0 && byReady! <= bytes!, JSON.stringify(s));
      t.true(wait! > 0 && waitByReady! > 0 && waitByReady! <= wait! && waitByReady! <= ready!, JSON.stringify(s));
      // the hook's fincore count: the busybox image has two regular files (busybox and /etc/os-release), and the shell reads both
      const [read, files] = [s['files_read'] as number, s['image_files'] as number];
      t.true(read === 2 && files === 2, JSON.stringify(s));
    }
    // A larger read size fetches at least as much of the image for the same start-up.
    const median = (path: string) =>
      rows
        .filter((s) => s['path'] === path)
        .map((s) => s['content_bytes'] as number)
        .sort((a, b) => a - b)[1]!;
    t.true(median('lazy-512k') >= median('lazy-64k'));
    const shares = JSON.parse(readFileSync(join(out, 'reads.json'), 'utf8')) as ReadShares;
    t.deepEqual(shares.cells.map((c) => `${c.cohort}/${c.path}/${c.launches}`).sort(), ['shell/lazy-512k/4', 'shell/lazy-64k/4']);
    t.deepEqual(shares.claims.map((c) => c.id).sort(), ['lambda-mean', 'lambda-shell', 'slacker-mean', 'slacker-shell']);
    // Lambda's figure is read at its own 512 KiB chunks
    t.is(shares.claims.find((c) => c.id === 'lambda-mean')?.path, 'lazy-512k');
    const report = readFileSync(join(out, 'report.md'), 'utf8');
    t.regex(report, /## Claims checked/);
    t.regex(report, /Slacker/);
    // each difference names its two ways of reading
    t.regex(report, /\n- shell, 512 KiB against 64 KiB: -?\d+ ms \[/);
    // the shared section over the session records, one row per session (publish/session-sections.ts)
    t.regex(report, /## Appendix: Sessions and host noise/);
    t.regex(report, /\n\| 2 \| 1 \| [^|]+ \| \d{4}-\d\d-\d\d /);
    t.regex(readFileSync(join(out, 'differences.csv'), 'utf8'), /shell,cold,ready,lazy-512k,lazy-64k/);
    const c = await runCli(['compare', out, out, '--json'], dir);
    t.is(c.code, 0, c.stderr);
    t.true((JSON.parse(c.stdout) as { held: number }).held >= 1);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
