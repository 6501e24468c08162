// The team store against a real Distribution registry on 127.0.0.1: a frozen
// smoke run pushed as one OCI artifact, pulled into another project folder,
// audited and re-analysed there; replicates kept side by side; remote runs
// read by compare and history.
import test from 'ava';
import { cpSync, existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { projectRoot, QUICK, runCli, startCli, tempDir } from './helpers/cli.js';
import { startTestRegistry, type TestRegistry } from './helpers/oci-registry.js';
import { folderBytes, frozenSmokeRun } from './helpers/store-runs.js';
import { OciClient } from '../harness/store/oci-client.js';
import { listRuns } from '../harness/store/run-index.js';
import { openRun } from '../harness/store/pull-run.js';

let registry: TestRegistry;
let runA: string;
let runB: string;

test.before(async () => {
  registry = await startTestRegistry();
  // Two runs of one pipeline: the same sample key, other samples (replicates).
  [runA, runB] = await Promise.all([frozenSmokeRun(), frozenSmokeRun()]);
});

test.after.always(async () => {
  await registry?.stop();
});

function emptyProject(): string {
  const dir = tempDir();
  cpSync(join(projectRoot, 'pipelines', 'smoke.yaml'), join(dir, 'pipeline.yaml'));
  return dir;
}

async function push(dir: string, repo: string): Promise<string> {
  const r = await runCli(['push', `${registry.address}/${repo}`], dir);
  if (r.code !== 0) throw new Error(`push failed: ${r.stderr}`);
  return r.stdout.trim();
}

const client = (repo: string): OciClient => new OciClient(registry.address, repo, { actions: 'pull', credentials: null });

test('a pushed run pulled into a second project folder passes audit there, and its re-analysis gives a byte-identical report', async (t) => {
  const at = await push(runA, 'team/round-trip');
  t.regex(at, /@[0-9a-f]{12}$/);
  const dir = emptyProject();
  const pulled = await runCli(['pull', at], dir);
  t.is(pulled.code, 0, pulled.stderr);
  t.is(readFileSync(join(dir, 'pipeline.lock'), 'utf8'), readFileSync(join(runA, 'pipeline.lock'), 'utf8'));
  const audit = await runCli(['audit'], dir);
  t.is(audit.code, 0, audit.stdout + audit.stderr);
  const again = await runCli(['run', '--json', ...QUICK, '--only', 'analyze,report', '--force', 'analyze,report'], dir);
  t.is(again.code, 0, again.stderr);
  const actions = (JSON.parse(again.stdout.trim().split('\n').at(-1)!) as { stages: { id: string; action: string }[] }).stages;
  t.deepEqual(
    actions.map((s) => `${s.id}:${s.action}`),
    ['warmup:reused', 'sample:reused', 'analyze:ran', 'report:ran'],
  );
  const lockOf = (d: string) => (JSON.parse(readFileSync(join(d, 'pipeline.lock'), 'utf8')) as { stages: Record<string, { outputDigest: string }> }).stages;
  t.is(lockOf(dir)['analyze']!.outputDigest, lockOf(runA)['analyze']!.outputDigest, 'the re-analysis is the same analysis');
  t.deepEqual(folderBytes(join(dir, 'reports', 'smoke')), folderBytes(join(runA, 'reports', 'smoke')));
});

test('a second pull of a run already present fetches nothing and leaves the lock untouched', async (t) => {
  const at = await push(runA, 'team/no-op');
  const dir = emptyProject();
  t.is((await runCli(['pull', at], dir)).code, 0);
  const before = statSync(join(dir, 'pipeline.lock')).mtimeMs;
  const r = await runCli(['pull', '--json', at], dir);
  t.is(r.code, 0, r.stderr);
  t.like(JSON.parse(r.stdout), { action: 'already present', stagesFetched: 0, fetchedBytes: 0 });
  t.is(statSync(join(dir, 'pipeline.lock')).mtimeMs, before);
});

test('a pull into a project that has a published run leaves its report and lock alone and says where the run went; --publish replaces them', async (t) => {
  const at = await push(runB, 'team/no-overwrite');
  const dir = await frozenSmokeRun();
  const lockBefore = readFileSync(join(dir, 'pipeline.lock'), 'utf8');
  const reportBefore = folderBytes(join(dir, 'reports', 'smoke'));
  const pulled = await runCli(['pull', '--data', 'theirs', at], dir);
  t.is(pulled.code, 0, pulled.stderr);
  t.regex(pulled.stdout, /^pulled run [0-9a-f]{12} into theirs: \d+ stages, \d+ bytes; its lock record is theirs\/locks\/pipeline-[0-9a-f]{12}\.lock$/m);
  t.regex(pulled.stdout, /the published report and pipeline\.lock are as they were \(--publish replaces them\)/);
  t.is(readFileSync(join(dir, 'pipeline.lock'), 'utf8'), lockBefore);
  t.deepEqual(folderBytes(join(dir, 'reports', 'smoke')), reportBefore);
  // both folders audit clean, each against its own record
  for (const data of [[], ['--data', 'theirs']]) {
    const audit = await runCli(['audit', ...data], dir);
    t.is(audit.code, 0, audit.stdout + audit.stderr);
  }
  const replaced = await runCli(['pull', '--publish', '--data', 'theirs2', at], dir);
  t.is(replaced.code, 0, replaced.stderr);
  t.is(readFileSync(join(dir, 'pipeline.lock'), 'utf8'), readFileSync(join(runB, 'pipeline.lock'), 'utf8'));
});

test('two concurrent pushes of different runs under the same sample key both survive as siblings', async (t) => {
  const ref = `${registry.address}/team/siblings`;
  const pushes = [runA, runB].map(
    (dir) =>
      new Promise<number | null>((res) => {
        const child = startCli(['push', ref], dir);
        child.on('close', res);
      }),
  );
  t.deepEqual(await Promise.all(pushes), [0, 0]);
  const c = client('team/siblings');
  try {
    const runs = await listRuns(c);
    t.is(runs.length, 2);
    const opened = await Promise.all(runs.map((r) => openRun(c, r)));
    const sampleKeys = opened.map((o) => o.config.stages['sample']!.key);
    t.is(sampleKeys[0], sampleKeys[1]);
    t.not(opened[0]!.config.stages['sample']!.outputDigest, opened[1]!.config.stages['sample']!.outputDigest);
  } finally {
    c.close();
  }
  const history = await runCli(['history', '--json', ref], tempDir());
  t.is(history.code, 0, history.stderr);
  const shown = (JSON.parse(history.stdout) as { runs: { folder: string }[] }).runs;
  t.is(shown.length, 2);
  // each row names the run by its registry reference, not the temporary folder it was read from (#47 item 4)
  for (const r of shown) t.true(r.folder.startsWith(`${ref}@`), r.folder);
});

test('one run has one id: the id push prints names the run archived where it was published and the run history reads from the registry (#47 item 4)', async (t) => {
  const ref = `${registry.address}/team/one-id`;
  const pushed = await runCli(['push', '--json', ref], runA);
  t.is(pushed.code, 0, pushed.stderr);
  const id = (JSON.parse(pushed.stdout) as { runId: string }).runId;
  t.regex(id, /^[0-9a-f]{12}$/);
  // the local archive: reports/smoke/runs/<date>-<id>
  const archived = readdirSync(join(runA, 'reports', 'smoke', 'runs')).filter((n) => !n.startsWith('.'));
  t.deepEqual(
    archived.map((n) => n.replace(/^\d{4}-\d{2}-\d{2}-/, '')),
    [id],
  );
  t.is((await runCli(['audit'], runA)).code, 0, 'the archive named after the run digest passes audit');
  // read back from the registry, the run is filed under the same name
  const history = await runCli(['history', ref], tempDir());
  t.is(history.code, 0, history.stderr);
  t.true(history.stderr.includes(`${ref}@${id} is run ${archived[0]}`), history.stderr);
});

test('compare of two runs in the registry reads them without a local copy of either', async (t) => {
  const a = await push(runA, 'team/compare');
  const b = await push(runB, 'team/compare');
  const cwd = tempDir();
  const r = await runCli(['compare', '--json', a, b], cwd);
  // Replicates may disagree on a conclusion (exit 1); either way the comparison is made and printed.
  t.true(r.code === 0 || r.code === 1, r.stderr);
  const json = JSON.parse(r.stdout) as { conclusions: unknown[]; unmatched: number };
  t.true(json.conclusions.length > 0);
  t.is(json.unmatched, 0);
  t.false(existsSync(join(cwd, '.data')));
  t.false(existsSync(join(cwd, 'reports')));
});

test('a push with --mount-from links the blobs another repository of the registry holds instead of uploading them', async (t) => {
  await push(runA, 'team/mount-source');
  const r = await runCli(['push', '--json', '--mount-from', 'team/mount-source', `${registry.address}/team/mount-target`], runA);
  t.is(r.code, 0, r.stderr);
  const out = JSON.parse(r.stdout) as { action: string; blobs: { uploaded: number; mounted: number }; uploadedBytes: number };
  t.is(out.action, 'pushed');
  t.is(out.blobs.uploaded, 0);
  t.true(out.blobs.mounted > 0);
  const pulled = await runCli(['pull', `${registry.address}/team/mount-target@${r.stdout.match(/"runId":"([0-9a-f]+)"/)![1]}`], emptyProject());
  t.is(pulled.code, 0, pulled.stderr);
});

test("pull of a repository without a run id takes the experiment's newest run", async (t) => {
  await push(runA, 'team/newest');
  await push(runB, 'team/newest');
  const c = client('team/newest');
  let newest: string;
  try {
    const opened = await Promise.all((await listRuns(c)).map((r) => openRun(c, r)));
    newest = opened
      .sort((a, b) => a.config.time.localeCompare(b.config.time))
      .at(-1)!
      .config.runDigest.slice(0, 12);
  } finally {
    c.close();
  }
  const r = await runCli(['pull', '--json', `${registry.address}/team/newest`], emptyProject());
  t.is(r.code, 0, r.stderr);
  t.is((JSON.parse(r.stdout) as { runId: string }).runId, newest);
});
