import test from 'ava';
import { withoutStagePrefix } from '../harness/engine/stage-log-line.js';

test("a line that names its own stage or stage kind is not prefixed twice ('pin: pin: …')", (t) => {
  t.is(withoutStagePrefix('pin: debian-minbase: reusing the build', 'pin', 'pin'), 'debian-minbase: reusing the build');
  t.is(withoutStagePrefix('prepare: registry: pushed x in 0.5 s', 'prepare-mirror', 'prepare'), 'registry: pushed x in 0.5 s');
  t.is(withoutStagePrefix('registry: pushed x', 'prepare', 'prepare'), 'registry: pushed x');
  t.is(withoutStagePrefix('pinned: 3 images', 'pin', 'pin'), 'pinned: 3 images');
});
