// Integrity on pull against a real Distribution registry: a blob damaged in
// the registry's storage, and a manifest whose layers are not the files its
// stage manifests name, are refused by name, and nothing local is touched.
import test from 'ava';
import { cpSync, existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { projectRoot, runCli, tempDir } from './helpers/cli.js';
import { startTestRegistry, type TestRegistry } from './helpers/oci-registry.js';
import { frozenSmokeRun } from './helpers/store-runs.js';
import { OciClient } from '../harness/store/oci-client.js';
import { listRuns } from '../harness/store/run-index.js';
import { fetchManifest } from '../harness/store/run-index.js';
import { MEDIA_TYPES, TITLE } from '../harness/store/run-artifact.js';

let damaged: TestRegistry;
let forged: TestRegistry;
let run: string;
let damagedAt: string;
let forgedAt: string;
let samplesDigest: string;

function blobFile(storage: string, digest: string): string {
  const hex = digest.replace(/^sha256:/, '');
  return join(storage, 'docker', 'registry', 'v2', 'blobs', 'sha256', hex.slice(0, 2), hex, 'data');
}

async function push(registry: TestRegistry, repo: string): Promise<string> {
  const r = await runCli(['push', `${registry.address}/${repo}`], run);
  if (r.code !== 0) throw new Error(r.stderr);
  return r.stdout.trim();
}

test.before(async () => {
  [damaged, forged, run] = await Promise.all([startTestRegistry(), startTestRegistry(), frozenSmokeRun()]);
  damagedAt = await push(damaged, 'team/damaged');
  forgedAt = await push(forged, 'team/forged');
  const client = new OciClient(damaged.address, 'team/damaged', { actions: 'pull', credentials: null });
  const [remote] = await listRuns(client);
  const { manifest } = await fetchManifest(client, remote!.tag);
  client.close();
  samplesDigest = manifest.layers.find((l) => l.annotations?.[TITLE] === 'sample/outputs/samples.duckdb')!.digest;
  // One byte flipped in the middle of the stored samples, the size kept.
  const file = blobFile(damaged.storageDir, samplesDigest);
  const bytes = readFileSync(file);
  const middle = bytes.length >> 1;
  bytes.writeUInt8(bytes[middle]! ^ 0xff, middle);
  writeFileSync(file, bytes);
  // A manifest for the same tag whose session.json layer is another blob of the run.
  const writer = new OciClient(forged.address, 'team/forged', { actions: 'pull,push', credentials: null });
  const [f] = await listRuns(writer);
  const fm = (await fetchManifest(writer, f!.tag)).manifest;
  const other = fm.layers.find((l) => l.annotations?.[TITLE] === 'warmup/outputs/warmup.json')!;
  const layers = fm.layers.map((l) => (l.annotations?.[TITLE] === 'sample/outputs/session.json' ? { ...l, digest: other.digest, size: other.size } : l));
  const put = await writer.send('PUT', writer.path(`manifests/${f!.tag}`), {
    headers: { 'content-type': MEDIA_TYPES.manifest },
    body: Buffer.from(JSON.stringify({ ...fm, layers })),
  });
  writer.close();
  if (put.status !== 201) throw new Error(`forged manifest refused: ${put.status}`);
});

test.after.always(async () => {
  await Promise.all([damaged?.stop(), forged?.stop()]);
});

function emptyProject(): string {
  const dir = tempDir();
  cpSync(join(projectRoot, 'pipelines', 'smoke.yaml'), join(dir, 'pipeline.yaml'));
  return dir;
}

/** Nothing but the pipeline file, and at most an empty data folder with an empty tmp/ and the data lock. */
function untouched(dir: string): string[] {
  const top = readdirSync(dir).filter((n) => n !== 'pipeline.yaml' && n !== '.data');
  const data = existsSync(join(dir, '.data')) ? readdirSync(join(dir, '.data')).filter((n) => n !== 'tmp' && n !== 'run.lock') : [];
  const tmp = existsSync(join(dir, '.data', 'tmp')) ? readdirSync(join(dir, '.data', 'tmp')) : [];
  return [...top, ...data.map((n) => `.data/${n}`), ...tmp.map((n) => `.data/tmp/${n}`)];
}

test('a blob damaged in the registry storage is refused on pull, naming the blob, and nothing local is touched', async (t) => {
  const dir = emptyProject();
  const r = await runCli(['pull', damagedAt], dir);
  t.is(r.code, 1, r.stderr);
  t.true(r.stderr.includes(samplesDigest), r.stderr);
  t.true(r.stderr.includes('sample/outputs/samples.duckdb'), r.stderr);
  t.deepEqual(untouched(dir), []);
});

test('audit --remote re-hashes every blob and names the damaged one', async (t) => {
  const r = await runCli(['audit', '--remote', damagedAt], tempDir());
  t.is(r.code, 1, r.stderr);
  const problems = r.stdout.split('\n').filter((l) => l.startsWith('CHANGED'));
  t.is(problems.length, 1, r.stdout);
  t.true(problems[0]!.includes(samplesDigest));
});

test('a run whose manifest puts another blob where its stage manifest names a file is refused, and nothing local is touched (made-up manifest)', async (t) => {
  const dir = emptyProject();
  const r = await runCli(['pull', forgedAt], dir);
  t.is(r.code, 1, r.stderr);
  t.regex(r.stderr, /outputs\/session\.json is not the file the stage manifest names/);
  t.deepEqual(untouched(dir), []);
});

test('audit --remote passes an intact run', async (t) => {
  const intact = await push(forged, 'team/intact');
  const r = await runCli(['audit', '--remote', intact], tempDir());
  t.is(r.code, 0, r.stdout + r.stderr);
  t.regex(r.stdout, /blobs checked, 0 problems/);
});
