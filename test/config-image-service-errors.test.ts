// The errors a newcomer meets when naming an image or a service get the
// project's shape: `FILE:LINE:COL: key: what is wrong (hint)`, exit 2, no
// stack trace, and every cross-key problem of a file at once.
import test from 'ava';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runCli, tempDir } from './helpers/cli.js';

const base = (images: string, extra = '') => `experiment:
  name: t
  question: q?
artifacts:
  images:
${images}
${extra}cohorts:
  c:
    command: [sh, -c, 'echo {marker}']
paths:
  p:
    launch: ['{command}']
stages:
  - id: warmup
    uses: warmup
  - id: sample
    uses: sample
    needs: [warmup]
`;

async function errorOf(text: string): Promise<{ code: number | null; line: string; stderr: string }> {
  const dir = tempDir('benchgraph-img-cfg-');
  writeFileSync(join(dir, 'pipeline.yaml'), text);
  const r = await runCli(['run', '--dry-run'], dir);
  return { code: r.code, line: r.stderr.replace(/^error: /, '').trim(), stderr: r.stderr };
}

test('an unknown image kind lists the valid kinds', async (t) => {
  const r = await errorOf(base('    mine:\n      kind: oci-archve\n      file: x.tar'));
  t.is(r.code, 2);
  t.regex(r.line, /^pipeline\.yaml:7:\d+: artifacts\.images\.mine\.kind: must be one of .*"registry", "oci-archive", "docker-archive", "oci-layout"/);
  t.notRegex(r.stderr, /\n\s+at /, 'no stack trace');
});

test('a missing archive file names the path it looked for and how to write one', async (t) => {
  const r = await errorOf(base('    mine:\n      kind: oci-archive\n      file: ./alpine.tar'));
  t.is(r.code, 2);
  t.regex(r.line, /^pipeline\.yaml:8:\d+: artifacts\.images\.mine\.file: no such file: \/.*\/alpine\.tar \(write it with: skopeo copy/);
});

test('a registry tag without a digest says how to find the digest with skopeo inspect', async (t) => {
  const r = await errorOf(base('    mine:\n      kind: registry\n      reference: registry.example/team/app:1.2'));
  t.is(r.code, 2);
  t.regex(
    r.line,
    /artifacts\.images\.mine\.reference: 'registry\.example\/team\/app:1\.2' is not pinned by digest \(.*skopeo inspect --format '\{\{\.Digest\}\}' docker:\/\/registry\.example\/team\/app:1\.2/,
  );
});

test('a key of another image kind names the kind it belongs to', async (t) => {
  const r = await errorOf(base('    mine:\n      kind: busybox-static\n      file: x.tar'));
  t.is(r.code, 2);
  t.regex(
    r.line,
    /^pipeline\.yaml:8:\d+: artifacts\.images\.mine\.file: kind busybox-static takes no 'file' \(it belongs to kind oci-archive, docker-archive\)/,
  );
});

test('plain HTTP to a registry beyond loopback is refused', async (t) => {
  const r = await errorOf(base(`    mine:\n      kind: registry\n      reference: registry.example/app@sha256:${'a'.repeat(64)}\n      tls_verify: false`));
  t.is(r.code, 2);
  t.regex(r.line, /artifacts\.images\.mine\.tls_verify: tls_verify: false is allowed only for a loopback registry, not registry\.example/);
});

test('a path naming an unknown service lists the services', async (t) => {
  const text = base('    {}', 'services:\n  cache:\n    kind: nginx-files\n  engine:\n    kind: docker-engine\n').replace(
    "    launch: ['{command}']\n",
    "    launch: ['{command}']\n    services: [registry]\n",
  );
  const r = await errorOf(text.replace('  images:\n    {}\n', '  images: {}\n'));
  t.is(r.code, 2);
  t.regex(r.line, /paths\.p\.services\[0\]: unknown service 'registry' \(the services are: cache, engine;/);
});

test('every cross-key problem of a file is reported at once, one line each', async (t) => {
  const text = base(
    '    a:\n      kind: oci-archive\n      file: ./none.tar\n    b:\n      kind: registry\n      reference: example.org/b:1',
    'services:\n  d:\n    kind: command\n    with:\n      command: [mydaemon]\n',
  );
  const r = await errorOf(text);
  t.is(r.code, 2);
  const lines = r.line.split('\n');
  t.is(lines.length, 3, r.line);
  t.regex(lines.join('\n'), /artifacts\.images\.a\.file: no such file/);
  t.regex(lines.join('\n'), /artifacts\.images\.b\.reference: .* is not pinned by digest/);
  t.regex(lines.join('\n'), /services\.d\.with\.command: no readiness probe, and with\.command has no \{port\}/);
});
