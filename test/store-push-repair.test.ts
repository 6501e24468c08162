// A damaged blob in a real Distribution registry, repaired (issue 47 item 5).
// A plain re-push of the intact run says "already there" and changes nothing;
// push --repair reads every blob back, names the damaged one and where its
// data lies (Distribution keeps the first copy of a digest and skips a
// re-upload), exit 1; once that file is removed, as the registry's operator
// would, push --repair uploads the blob anew and audit --remote passes. Pull's
// refusal of the damaged run names --repair.
import test from 'ava';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { projectRoot, runCli, tempDir } from './helpers/cli.js';
import { startTestRegistry } from './helpers/oci-registry.js';
import { frozenSmokeRun } from './helpers/store-runs.js';
import { OciClient } from '../harness/store/oci-client.js';
import { fetchManifest, listRuns } from '../harness/store/run-index.js';
import { TITLE } from '../harness/store/run-artifact.js';
import { cpSync } from 'node:fs';

function blobFile(storage: string, digest: string): string {
  const hex = digest.replace(/^sha256:/, '');
  return join(storage, 'docker', 'registry', 'v2', 'blobs', 'sha256', hex.slice(0, 2), hex, 'data');
}

test('push --repair names a damaged blob, and uploads it anew once its data is removed', async (t) => {
  const [registry, run] = await Promise.all([startTestRegistry(), frozenSmokeRun()]);
  try {
    const ref = `${registry.address}/team/repair`;
    const first = await runCli(['push', ref], run);
    t.is(first.code, 0, first.stderr);
    const at = first.stdout.trim();
    const client = new OciClient(registry.address, 'team/repair', { actions: 'pull', credentials: null });
    const [remote] = await listRuns(client);
    const { manifest } = await fetchManifest(client, remote!.tag);
    client.close();
    const digest = manifest.layers.find((l) => l.annotations?.[TITLE] === 'sample/outputs/samples.duckdb')!.digest;
    const file = blobFile(registry.storageDir, digest);
    const bytes = readFileSync(file);
    bytes.writeUInt8(bytes[bytes.length >> 1]! ^ 0xff, bytes.length >> 1);
    writeFileSync(file, bytes);

    const dir = tempDir();
    cpSync(join(projectRoot, 'pipelines', 'smoke.yaml'), join(dir, 'pipeline.yaml'));
    const pulled = await runCli(['pull', at], dir);
    t.is(pulled.code, 1, pulled.stderr);
    t.regex(pulled.stderr, /push of the intact run with --repair/);

    const plain = await runCli(['push', ref], run);
    t.is(plain.code, 0, plain.stderr);
    t.regex(plain.stderr, /already there: run [0-9a-f]{12} \(0 blobs uploaded/);

    const named = await runCli(['push', '--repair', ref], run);
    t.is(named.code, 1, named.stdout + named.stderr);
    t.true(named.stderr.includes(digest), named.stderr);
    t.regex(named.stderr, /damaged copy of 1 blob\(s\)/);
    t.regex(named.stderr, /docker\/registry\/v2\/blobs\/sha256/);

    rmSync(file); // the registry operator removes the damaged copy
    const repaired = await runCli(['push', '--repair', '--json', ref], run);
    t.is(repaired.code, 0, repaired.stderr);
    t.like(JSON.parse(repaired.stdout) as object, { action: 'repaired', blobs: { uploaded: 1 } });
    const audit = await runCli(['audit', '--remote', at], tempDir());
    t.is(audit.code, 0, audit.stdout + audit.stderr);
  } finally {
    await registry.stop();
  }
});
