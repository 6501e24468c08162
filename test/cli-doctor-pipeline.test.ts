// `pipeline doctor -f FILE` (issue 47 item 6): only the requirements of what
// that pipeline uses. The smoke pipeline runs shell commands and needs none of
// the real paths' tools; the restore sweep needs mkfs.erofs and busybox but no Docker
// engine, registry or rclone (its own sample stage checks runsc and
// drop_caches, listed as such); without -f, doctor lists every real path's part.
import test from 'ava';
import { projectRoot, runCli } from './helpers/cli.js';

test('doctor -f names only the tools and kernel parts the pipeline uses', async (t) => {
  const sweep = await runCli(['doctor', '-f', 'pipelines/restore-sweep.yaml', '--quiet'], projectRoot);
  t.regex(sweep.stdout, /^requirements of pipelines\/restore-sweep\.yaml \(what its paths, services and images use\):$/m);
  t.regex(sweep.stdout, /binary mkfs\.erofs/);
  // runsc and drop_caches are checked by the sweep's sample stage itself: listed among the sandbox parts
  t.regex(sweep.stdout, /sandbox parts its sample stage checks when it runs/);
  t.regex(sweep.stdout, /runsc/);
  for (const absent of [/binary dockerd/, /binary docker-registry/, /binary rclone/, /binary nginx/, /parts of effect rows/]) t.notRegex(sweep.stdout, absent);
  const smoke = await runCli(['doctor', '-f', 'pipelines/smoke.yaml'], projectRoot);
  t.notRegex(smoke.stdout, /binary |kernel file system|\/dev\/fuse/);
  t.regex(smoke.stdout, /^all requirements of pipelines\/smoke\.yaml are met$/m);
  t.is(smoke.code, 0, smoke.stdout + smoke.stderr);
  const all = await runCli(['doctor', '--quiet'], projectRoot);
  t.regex(all.stdout, /binary dockerd/);
  t.regex(all.stdout, /parts of effect rows/);
});

test('doctor -f of burst-startup names what its with.paths run (crun, runsc, rclone and erofs for the lazy path) and nothing they only name, and no data file system warning for a pipeline that samples on its own journaled image', async (t) => {
  const r = await runCli(['doctor', '-f', 'pipelines/burst-startup.yaml', '--quiet'], projectRoot);
  for (const part of [/binary crun/, /binary runsc/, /binary rclone/, /binary dockerd/, /binary nginx/, /kernel file system erofs/, /\/dev\/fuse/])
    t.regex(r.stdout, part);
  // cleanup-pair.sh names estargz-mount's pid file, but the lazy path never runs it
  t.notRegex(r.stdout, /estargz-mount/);
  t.notRegex(r.stdout, /warn\s+data file system/);
  const onlyCrun = await runCli(['doctor', '-f', 'pipelines/aa-burst.yaml', '--quiet'], projectRoot);
  t.regex(onlyCrun.stdout, /binary crun/);
  for (const absent of [/binary runsc/, /binary rclone/, /binary dockerd/]) t.notRegex(onlyCrun.stdout, absent);
});

test('doctor -f with a file that does not exist is one line naming it, exit 2', async (t) => {
  const r = await runCli(['doctor', '-f', 'pipelines/no-such.yaml'], projectRoot);
  t.is(r.code, 2, r.stdout + r.stderr);
  t.regex(r.stderr, /no-such\.yaml/);
  t.notRegex(r.stderr, /\n\s+at /);
});
