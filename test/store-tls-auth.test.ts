// The store over TLS with a test CA (made with openssl) and htpasswd basic
// auth, against a real Distribution registry on 127.0.0.1: credentials from
// the Docker client configuration (auths, or a credential helper), the CA
// from --ca or $BENCHGRAPH_REGISTRY_CA; without either, one line and exit 2.
import test from 'ava';
import { spawn } from 'node:child_process';
import { chmodSync, cpSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { CLI_NODE_FLAGS, cliPath, projectRoot, tempDir, type CliResult } from './helpers/cli.js';
import { startTestRegistry, type TestRegistry } from './helpers/oci-registry.js';
import { frozenSmokeRun } from './helpers/store-runs.js';

let registry: TestRegistry;
let run: string;
let pushed: string;

function cli(args: readonly string[], cwd: string, env: Record<string, string>): Promise<CliResult> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [...CLI_NODE_FLAGS, cliPath, ...args], {
      cwd,
      env: { ...process.env, BENCHGRAPH_REGISTRY_CA: '', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (b) => (stdout += b));
    child.stderr.on('data', (b) => (stderr += b));
    child.on('close', (code, signal) => resolve({ code, signal, stdout, stderr }));
  });
}

/** A Docker client configuration folder holding `config`. */
function dockerConfig(config: unknown): string {
  const dir = tempDir('benchgraph-docker-');
  writeFileSync(join(dir, 'config.json'), JSON.stringify(config));
  return dir;
}

const withLogin = (): string => dockerConfig({ auths: { [registry.address]: { auth: Buffer.from('alice:s3cret-pw').toString('base64') } } });

test.before(async () => {
  [registry, run] = await Promise.all([startTestRegistry({ tls: true, users: { alice: 's3cret-pw' } }), frozenSmokeRun()]);
  const r = await cli(['push', '--ca', registry.caFile!, `${registry.address}/team/tls`], run, { DOCKER_CONFIG: withLogin() });
  if (r.code !== 0) throw new Error(r.stderr);
  pushed = r.stdout.trim();
});

test.after.always(async () => {
  await registry?.stop();
});

function emptyProject(): string {
  const dir = tempDir();
  cpSync(join(projectRoot, 'pipelines', 'smoke.yaml'), join(dir, 'pipeline.yaml'));
  return dir;
}

test('a run pushed over TLS with basic auth from the Docker config pulls with the CA from the environment, and audits clean', async (t) => {
  const dir = emptyProject();
  const r = await cli(['pull', pushed], dir, { DOCKER_CONFIG: withLogin(), BENCHGRAPH_REGISTRY_CA: registry.caFile! });
  t.is(r.code, 0, r.stderr);
  const audit = await cli(['audit'], dir, {});
  t.is(audit.code, 0, audit.stdout + audit.stderr);
});

test('credentials come from the credential helper the Docker config names in credsStore', async (t) => {
  const bin = tempDir('benchgraph-bin-');
  const helper = join(bin, 'docker-credential-benchtest');
  writeFileSync(
    helper,
    `#!/bin/sh\nread server\n[ "$1" = get ] && [ "$server" = "${registry.address}" ] && echo '{"ServerURL":"${registry.address}","Username":"alice","Secret":"s3cret-pw"}'\n`,
  );
  chmodSync(helper, 0o755);
  const r = await cli(['audit', '--remote', pushed, '--ca', registry.caFile!], tempDir(), {
    DOCKER_CONFIG: dockerConfig({ credsStore: 'benchtest' }),
    PATH: `${bin}:${process.env['PATH']}`,
  });
  t.is(r.code, 0, r.stdout + r.stderr);
});

test('without credentials a pull fails in one line naming the 401 and docker login, exit 2', async (t) => {
  const none = tempDir('benchgraph-docker-');
  mkdirSync(none, { recursive: true });
  const r = await cli(['pull', pushed, '--ca', registry.caFile!], emptyProject(), { DOCKER_CONFIG: none });
  t.is(r.code, 2);
  const lines = r.stderr.trim().split('\n');
  t.is(lines.length, 1, r.stderr);
  t.regex(lines[0]!, /^error: .*answered 401 UNAUTHORIZED.*docker login 127\.0\.0\.1:\d+/);
  t.true(lines[0]!.includes(join(none, 'config.json')), `names the configuration it read ($DOCKER_CONFIG): ${lines[0]}`);
});

test('with a wrong password a pull fails in one line saying the credentials were refused, naming the file they came from, exit 2', async (t) => {
  const wrong = dockerConfig({ auths: { [registry.address]: { auth: Buffer.from('alice:not-the-password').toString('base64') } } });
  const r = await cli(['pull', pushed, '--ca', registry.caFile!], emptyProject(), { DOCKER_CONFIG: wrong });
  t.is(r.code, 2);
  const lines = r.stderr.trim().split('\n');
  t.is(lines.length, 1, r.stderr);
  t.regex(lines[0]!, /^error: .*401.*refused/);
  t.true(lines[0]!.includes(join(wrong, 'config.json')), lines[0]);
  t.notRegex(lines[0]!, /no credentials/);
});

test('without the CA a pull from a loopback HTTPS registry fails in one line saying it speaks HTTPS and naming --ca, exit 2', async (t) => {
  const r = await cli(['pull', pushed], emptyProject(), { DOCKER_CONFIG: withLogin() });
  t.is(r.code, 2);
  const lines = r.stderr.trim().split('\n');
  t.is(lines.length, 1, r.stderr);
  t.regex(lines[0]!, /^error: .*speaks HTTPS.*no CA certificate.*--ca FILE/);
});
