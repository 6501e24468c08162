// Signing of pushed runs, on by store.signing in pipeline.yaml, against a real
// Distribution registry on 127.0.0.1: a run signed by a trusted ed25519 key is
// pulled; an unsigned run, or one signed by a key not trusted, is refused and
// nothing local is touched.
import test from 'ava';
import { generateKeyPairSync } from 'node:crypto';
import { appendFileSync, cpSync, existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { projectRoot, runCli, tempDir } from './helpers/cli.js';
import { startTestRegistry, type TestRegistry } from './helpers/oci-registry.js';
import { frozenSmokeRun } from './helpers/store-runs.js';

let registry: TestRegistry;
let run: string;
const keys = tempDir('benchgraph-keys-');

function keyPair(name: string): { key: string; pub: string } {
  const { privateKey, publicKey } = generateKeyPairSync('ed25519');
  const key = join(keys, `${name}.pem`);
  const pub = join(keys, `${name}.pub.pem`);
  writeFileSync(key, privateKey.export({ type: 'pkcs8', format: 'pem' }));
  writeFileSync(pub, publicKey.export({ type: 'spki', format: 'pem' }));
  return { key, pub };
}

const team = keyPair('team');
const stranger = keyPair('stranger');

test.before(async () => {
  [registry, run] = await Promise.all([startTestRegistry(), frozenSmokeRun()]);
});

test.after.always(async () => {
  await registry?.stop();
});

/** Pushes the frozen run to `repo`, signed with `key` (or unsigned), and returns REF@RUN. */
async function pushAs(repo: string, key: string | null): Promise<string> {
  const file = join(run, key ? `signed-${repo.replace(/\W/g, '-')}.yaml` : 'pipeline.yaml');
  if (key) {
    cpSync(join(run, 'pipeline.yaml'), file);
    cpSync(join(run, 'pipeline.lock'), file.replace(/\.yaml$/, '.lock'));
    appendFileSync(file, `\nstore:\n  signing:\n    key: ${JSON.stringify(key)}\n`);
  }
  const r = await runCli(['push', '-f', file, `${registry.address}/${repo}`], run);
  if (r.code !== 0) throw new Error(r.stderr);
  return r.stdout.trim();
}

/** An empty project whose pipeline.yaml trusts `trusted`. */
function trustingProject(trusted: string): string {
  const dir = tempDir();
  cpSync(join(projectRoot, 'pipelines', 'smoke.yaml'), join(dir, 'pipeline.yaml'));
  appendFileSync(join(dir, 'pipeline.yaml'), `\nstore:\n  signing:\n    trusted: [${JSON.stringify(trusted)}]\n`);
  return dir;
}

test('with signing on, a run signed by a trusted key is pulled', async (t) => {
  const at = await pushAs('team/signed', team.key);
  const dir = trustingProject(team.pub);
  const r = await runCli(['pull', at], dir);
  t.is(r.code, 0, r.stderr);
  t.true(existsSync(join(dir, 'pipeline.lock')));
});

test('with signing on, an unsigned run is refused and nothing local is touched', async (t) => {
  const at = await pushAs('team/unsigned', null);
  const dir = trustingProject(team.pub);
  const r = await runCli(['pull', at], dir);
  t.is(r.code, 1);
  t.regex(r.stderr, /is refused: the run is unsigned/);
  t.false(existsSync(join(dir, 'pipeline.lock')));
  t.false(existsSync(join(dir, '.data', 'stages')));
});

test('with signing on, a run signed by a key not trusted is refused', async (t) => {
  const at = await pushAs('team/stranger', stranger.key);
  const dir = trustingProject(team.pub);
  const r = await runCli(['pull', at], dir);
  t.is(r.code, 1);
  t.regex(r.stderr, /is refused: the run is signed by sha256:[0-9a-f]{12}, a key not in store\.signing\.trusted/);
  t.false(existsSync(join(dir, 'pipeline.lock')));
});

test('with signing off, a signed run is pulled like any other', async (t) => {
  const at = await pushAs('team/signed-off', team.key);
  const dir = tempDir();
  cpSync(join(projectRoot, 'pipelines', 'smoke.yaml'), join(dir, 'pipeline.yaml'));
  const r = await runCli(['pull', at], dir);
  t.is(r.code, 0, r.stderr);
});
