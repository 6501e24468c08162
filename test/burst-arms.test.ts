// Burst arms are a path and a level named <path>-n<N>; levels are checked at load (our own naming logic).
import test from 'ava';
import { burstArmName, burstArmOf, burstArms, checkLevels } from '../harness/burst/burst-arms.js';
import { UserError } from '../harness/errors.js';

test('an arm name gives back its path and level, and only a burst arm name does', (t) => {
  t.is(burstArmName('runsc', 16), 'runsc-n16');
  t.deepEqual(burstArmOf('runsc-n16'), { path: 'runsc', level: 16 });
  t.deepEqual(burstArmOf('crun-two-n3'), { path: 'crun-two', level: 3 });
  t.is(burstArmOf('runsc'), null);
  t.is(burstArmOf('runsc-n0'), null);
  t.is(burstArmOf('runsc-n04'), null);
});

test('every path at every level, levels ascending', (t) => {
  t.deepEqual(burstArms(['crun', 'docker'], [4, 1]), ['crun-n1', 'crun-n4', 'docker-n1', 'docker-n4']);
});

test('levels without 1, repeated or out of range are refused naming the key', (t) => {
  const at = { file: 'p.yaml', key: 'stages.sample.with.levels' };
  t.deepEqual(checkLevels([8, 1, 2], 128, at), [1, 2, 8]);
  for (const [bad, words] of [
    [[2, 4], /lack 1/],
    [[1, 1, 2], /repeat/],
    [[1, 200], /from 1 to 128/],
    ['8', /list of whole numbers/],
  ] as const) {
    const e = t.throws(() => checkLevels(bad, 128, at), { instanceOf: UserError });
    t.regex(e!.message, words);
    t.is((e as UserError).place.key, 'stages.sample.with.levels');
  }
});
