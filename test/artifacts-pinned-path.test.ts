// A pinned binary built inside the checkout (estargz-mount) is recorded by
// its project-relative path, so the pin's output, and every later stage's
// key, is the same in any folder the project is cloned to; a binary outside
// it keeps its absolute path. Found when a same-key replicate of the
// published default run in another folder got other keys from pin on.
import test from 'ava';
import { join } from 'node:path';
import { projectRoot } from '../harness/process/project-root.js';
import { pinnedPathOf, resolvePinnedPath, BINARIES } from '../harness/artifacts/binary-pins.js';

test('a binary in the checkout is pinned by its project-relative path, and resolves back to it', (t) => {
  const built = join(projectRoot(), 'harness', 'paths', 'estargz', 'build', 'estargz-mount');
  t.is(pinnedPathOf(built), join('harness', 'paths', 'estargz', 'build', 'estargz-mount'));
  t.is(resolvePinnedPath(pinnedPathOf(built)), built);
});

test('a binary outside the checkout keeps its absolute path', (t) => {
  t.is(pinnedPathOf('/usr/bin/docker'), '/usr/bin/docker');
  t.is(resolvePinnedPath('/usr/bin/docker'), '/usr/bin/docker');
  t.is(pinnedPathOf(join(projectRoot(), '..', 'elsewhere', 'tool')), join(projectRoot(), '..', 'elsewhere', 'tool'));
});

test('the binary setup.sh builds is the one whose spec lies in the checkout', (t) => {
  const inCheckout = BINARIES.filter((b) => b.path && !pinnedPathOf(b.path).startsWith('/')).map((b) => b.name);
  t.deepEqual(inCheckout, ['estargz-mount']);
});
