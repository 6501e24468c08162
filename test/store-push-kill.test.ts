// kill -9 of `pipeline push` at 20 points of the push (before a blob, in the
// middle of one, between two, before the manifest), each against a fresh
// repository of a real Distribution registry: afterwards no run is there that
// pull would accept, and a retried push completes a run pull accepts.
import test from 'ava';
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { CLI_NODE_FLAGS, cliPath, tempDir } from './helpers/cli.js';
import { startTestRegistry, type TestRegistry } from './helpers/oci-registry.js';
import { frozenSmokeRun } from './helpers/store-runs.js';
import { OciClient } from '../harness/store/oci-client.js';
import { listRuns } from '../harness/store/run-index.js';
import { openRun, readRunManifests } from '../harness/store/pull-run.js';
import { readLocalRun } from '../harness/store/local-run.js';
import { pushRun } from '../harness/store/push-run.js';

let registry: TestRegistry;
let run: string;
/** 64 KiB chunks: samples.duckdb goes in several, so a kill can land inside it. */
const CHUNK = String(64 * 1024);

test.before(async () => {
  [registry, run] = await Promise.all([startTestRegistry(), frozenSmokeRun()]);
});

test.after.always(async () => {
  await registry?.stop();
});

function push(repo: string, env: Record<string, string>): Promise<{ code: number | null; signal: string | null; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [...CLI_NODE_FLAGS, cliPath, 'push', `${registry.address}/${repo}`], {
      cwd: run,
      env: { ...process.env, BENCHGRAPH_STORE_CHUNK_BYTES: CHUNK, ...env },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (b) => (stderr += b));
    child.on('close', (code, signal) => resolve({ code, signal, stderr }));
  });
}

/** Point number -> name, as a complete push passes them. */
async function faultPoints(): Promise<string[]> {
  const log = join(tempDir(), 'points.log');
  const r = await push('kill/survey', { BENCHGRAPH_STORE_FAULT_LOG: log });
  if (r.code !== 0) throw new Error(r.stderr);
  return readFileSync(log, 'utf8')
    .trim()
    .split('\n')
    .map((l) => l.split('\t')[1]!);
}

/** 20 points up to the manifest: the first mid-blob and between-blobs points, the one before the manifest, the rest evenly spread. */
function chosenPoints(names: readonly string[], count = 20): number[] {
  const last = names.indexOf('before-manifest') + 1;
  const picked = new Set([names.indexOf('mid-blob') + 1, names.indexOf('between-blobs') + 1, last]);
  for (let i = 0; picked.size < Math.min(count, last); i++) picked.add(1 + (Math.round((i * (last - 1)) / (count - 1)) % last));
  return [...picked].filter((n) => n >= 1).sort((a, b) => a - b);
}

test('kill -9 of push at 20 points, mid-blob, between blobs and before the manifest included, leaves no run pull accepts, and a retried push completes', async (t) => {
  const names = await faultPoints();
  const points = chosenPoints(names);
  t.is(points.length, 20);
  t.true(['mid-blob', 'between-blobs', 'before-manifest', 'blob-commit'].every((k) => points.some((n) => names[n - 1] === k)));
  const local = readLocalRun(join(run, 'pipeline.yaml'), join(run, '.data'));
  let accepted = 0;
  const killAndRetry = async (n: number): Promise<void> => {
    const repo = `kill/p${n}`;
    const r = await push(repo, { BENCHGRAPH_STORE_KILL_AT: String(n) });
    t.is(r.signal, 'SIGKILL', `point ${n} (${names[n - 1]}): ${r.stderr}`);
    const client = new OciClient(registry.address, repo, { actions: 'pull,push', credentials: null });
    try {
      accepted += (await listRuns(client)).length;
      const retry = await pushRun(client, 'smoke', local);
      t.is(retry.action, 'pushed', `point ${n}`);
      const [remote] = await listRuns(client);
      const opened = await openRun(client, remote!);
      await readRunManifests(client, opened); // throws if any blob or stage does not match
      t.is(opened.config.runDigest, remote!.runDigest);
    } finally {
      client.close();
    }
  };
  // Four at a time: each against its own repository, so they do not meet.
  for (let i = 0; i < points.length; i += 4) await Promise.all(points.slice(i, i + 4).map(killAndRetry));
  t.is(accepted, 0);
});
