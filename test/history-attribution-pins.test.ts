// Attribution of pinned binaries between two archived runs (made-up runs, our
// own logic): since reports list only the tools their experiment used, a
// binary on one run's list only is not a change when both runs share the pin
// stage (busybox and node went "(absent)" at 2026-12-03-217768e3b495 with the
// pin stage's key 1926006dcd8d unchanged).
import test from 'ava';
import { join } from 'node:path';
import { attribute } from '../harness/history/attribution.js';
import { readRunFolder } from '../harness/history/read-runs.js';
import { tempDir } from './helpers/cli.js';
import { around, fileMadeUpRun } from './helpers/history-runs.js';

function pair(pinKeys: [string | undefined, string | undefined]) {
  const root = tempDir('benchgraph-pins-');
  const lists: Record<string, string>[] = [{ crun: 'crun version 1.8.1', busybox: 'busybox 1.35' }, { crun: 'crun version 1.8.1' }];
  const folders = [0, 1].map((i) =>
    fileMadeUpRun(
      root,
      join(root, 'runs'),
      { cells: { 'shell lazy cold ready': around(300) }, config: {}, time: `2026-11-1${i}T10:00:00.000Z`, binaries: lists[i], pinKey: pinKeys[i] },
      i + 1,
    ),
  );
  return attribute(readRunFolder(folders[0]!), readRunFolder(folders[1]!));
}

test('a binary listed by one run only is not named as a change when both runs have the same pin stage key', (t) => {
  t.deepEqual(
    pair(['pin-a', 'pin-a']).changed.filter((c) => c.kind === 'binary'),
    [],
  );
});

test('a binary listed by one run only is named when the pin stage changed, or is not recorded', (t) => {
  for (const keys of [
    ['pin-a', 'pin-b'],
    [undefined, undefined],
  ] as [string | undefined, string | undefined][]) {
    t.deepEqual(
      pair(keys)
        .changed.filter((c) => c.kind === 'binary')
        .map((c) => [c.key, c.after]),
      [['binary busybox', '(absent)']],
      JSON.stringify(keys),
    );
  }
});
