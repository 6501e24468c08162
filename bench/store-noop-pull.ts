// Benchmark (run by hand, prints its figures): wall time of a no-op
// `pipeline pull REF@RUN` (the run already present) for a made-up run of 100
// stages, each with a manifest and two small output files, against a real
// Distribution registry on 127.0.0.1. Target: median under 300 ms.
// Usage: node dist/bench/store-noop-pull.js [runs]
import { spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { listFileDigests, merkleRoot } from '../harness/digest/merkle.js';
import { writeLock, type LockEntry } from '../harness/engine/lock-file.js';
import { Store, type StageManifest } from '../harness/engine/store.js';
import { quantile } from '../harness/stats/quantile.js';
import { readLocalRun } from '../harness/store/local-run.js';
import { OciClient } from '../harness/store/oci-client.js';
import { openRun, pullRun, isPresent } from '../harness/store/pull-run.js';
import { pushRun } from '../harness/store/push-run.js';
import { resolveRun } from '../harness/store/run-index.js';
import { tempDir } from '../test/helpers/cli.js';
import { startTestRegistry } from '../test/helpers/oci-registry.js';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const cli = join(root, 'bin', 'pipeline.js');
const runs = Number(process.argv[2] ?? 15);
const STAGES = 100;

async function madeUpRun(dir: string): Promise<string> {
  const store = new Store(join(dir, '.data'));
  const entries: Record<string, LockEntry> = {};
  for (let i = 0; i < STAGES; i++) {
    const id = `s${String(i).padStart(3, '0')}`;
    const key = (i.toString(16).padStart(4, '0') + 'ab').repeat(11).slice(0, 64);
    const temp = store.makeTemp('bench', key);
    writeFileSync(join(temp, 'outputs', 'result.json'), JSON.stringify({ stage: id, value: i }) + '\n');
    writeFileSync(join(temp, 'outputs', 'table.csv'), `stage,value\n${id},${i}\n`);
    const files = await listFileDigests(join(temp, 'outputs'));
    const manifest: StageManifest = {
      manifestVersion: 1,
      id,
      kind: 'bench',
      key,
      keyInputs: { kind: 'bench', code: {}, config: {}, params: { i }, needs: {} },
      outputDigest: merkleRoot(files),
      files,
      observationsDigest: merkleRoot([]),
      observationFiles: [],
      startedAt: '2026-12-03T00:00:00.000Z',
      endedAt: '2026-12-03T00:00:01.000Z',
      seconds: 1,
      host: { kernel: 'k', platform: 'linux', arch: 'x64', cpuModel: 'c', cores: 2, memoryBytes: 1, node: process.version } as StageManifest['host'],
    };
    store.freeze(temp, manifest);
    entries[id] = { uses: 'bench', key, outputDigest: manifest.outputDigest };
  }
  const file = join(dir, 'pipeline.yaml');
  writeLock(file, entries, Object.keys(entries));
  return file;
}

const registry = await startTestRegistry();
try {
  const source = tempDir();
  const sourceFile = await madeUpRun(source);
  const client = new OciClient(registry.address, 'bench/noop', { actions: 'pull,push', credentials: null });
  const pushed = await pushRun(client, 'bench100', readLocalRun(sourceFile, join(source, '.data')));
  const ref = `${registry.address}/bench/noop@${pushed.runId}`;
  const target = tempDir();
  mkdirSync(target, { recursive: true });
  const targetFile = join(target, 'pipeline.yaml');
  const opened = await openRun(client, await resolveRun(client, pushed.runId, 'bench'));
  await pullRun(client, opened, { pipelineFile: targetFile, dataDir: join(target, '.data'), stageIds: () => [], replace: false });
  if (!isPresent(opened.config, targetFile, join(target, '.data'))) throw new Error('the first pull did not make the run present');
  client.close();
  const wall = (args: readonly string[], check: (out: string) => void): number[] => {
    const out: number[] = [];
    for (let i = 0; i < runs; i++) {
      const t0 = process.hrtime.bigint();
      const r = spawnSync(process.execPath, args, { cwd: target, encoding: 'utf8' });
      out.push(Number(process.hrtime.bigint() - t0) / 1e6);
      if (r.status !== 0) throw new Error(r.stderr);
      check(r.stdout);
    }
    return out;
  };
  const pulls = wall([cli, 'pull', '--json', ref], (o) => {
    if ((JSON.parse(o) as { action: string }).action !== 'already present') throw new Error(`not a no-op pull: ${o}`);
  });
  const versions = wall([cli, '--version'], () => undefined);
  const bare = wall(['-e', '0'], () => undefined);
  // The pull's own work, in this process: list the tags, read and check manifest and config, compare 100 local stage manifests.
  const inProcess: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t0 = process.hrtime.bigint();
    const c = new OciClient(registry.address, 'bench/noop', { actions: 'pull', credentials: null });
    const o = await openRun(c, await resolveRun(c, pushed.runId, 'bench'));
    if (!isPresent(o.config, targetFile, join(target, '.data'))) throw new Error('not present');
    c.close();
    inProcess.push(Number(process.hrtime.bigint() - t0) / 1e6);
  }
  const line = (what: string, xs: number[]): string =>
    `${what}, ${runs} runs: median ${quantile(xs, 0.5).toFixed(0)} ms, min ${Math.min(...xs).toFixed(0)} ms, max ${Math.max(...xs).toFixed(0)} ms`;
  console.log(line(`no-op pipeline pull of a ${STAGES}-stage run (${opened.manifest.layers.length} layers), wall`, pulls) + ' (target < 300 ms)');
  console.log(line('pipeline --version, wall (node start-up and CLI load, for scale)', versions));
  console.log(line('node -e 0, wall (bare node start-up)', bare));
  console.log(line('the no-op pull in process (tags, manifest, config, 100 local manifests)', inProcess));
  console.log(
    `load average: ${loadavg()
      .map((x) => x.toFixed(1))
      .join(' ')}`,
  );
} finally {
  await registry.stop();
}
