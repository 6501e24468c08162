// Host classes from the canary (harness/stats/host-class.ts), on made-up
// runs (our own rule, no measurement): three classes with a known factor per
// piece and run-to-run noise like the published class's are recovered; a
// same-class pair is never called another class; a class ×2 on mem and exec
// is never called the same. And on the real archive: the shared replicate is
// another class than the published run.
import test from 'ava';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { compareHostClass, hostClasses, splitAtGaps, type CanaryMedians } from '../harness/stats/host-class.js';
import { seededRandom } from '../harness/stats/seeded-random.js';
import { projectRoot } from '../harness/process/project-root.js';

const base: CanaryMedians = { cpu: 30, mem: 34, fs: 4, wake: 65, exec: 0.6 };
// run-to-run sd of the log run medians, about the published class's (cpu 0.0075, mem 0.02, fs 0.10, wake 0.085, exec 0.11)
const sd: Record<string, number> = { cpu: 0.01, mem: 0.02, fs: 0.1, wake: 0.085, exec: 0.11 };
const classes: Record<string, number>[] = [
  { cpu: 1, mem: 1, fs: 1, wake: 1, exec: 1 },
  { cpu: 1.27, mem: 5.5, fs: 2.2, wake: 0.75, exec: 5.3 }, // the PTI class of the shared replicate
  { cpu: 1, mem: 2, fs: 1, wake: 1, exec: 2 }, // ×2 on mem and exec only
];

function run(cls: number, random: () => number): CanaryMedians {
  const normal = (): number => Math.sqrt(-2 * Math.log(1 - random())) * Math.cos(2 * Math.PI * random());
  return Object.fromEntries(Object.entries(base).map(([p, v]) => [p, v! * classes[cls]![p]! * Math.exp(sd[p]! * normal())]));
}

test('made-up runs on three classes (4 runs each) are grouped into those three classes, in 200 of 200 seeded archives', (t) => {
  let recovered = 0;
  for (let i = 0; i < 200; i++) {
    const random = seededRandom(`host-class|${i}`);
    const runs = [0, 1, 2].flatMap((c) => Array.from({ length: 4 }, () => run(c, random)));
    const got = hostClasses(runs).classes.map((g) => g.join(','));
    if (JSON.stringify(got) === JSON.stringify(['0,1,2,3', '4,5,6,7', '8,9,10,11'])) recovered++;
  }
  t.is(recovered, 200);
});

test('with the spread of an archive of one class, a same-class pair is another class in under 2% of pairs (ALPHA a piece) and a ×2 mem/exec pair never the same (2,000 seeded pairs each)', (t) => {
  const random = seededRandom('host-class-pairs');
  const archive = Array.from({ length: 6 }, () => run(0, random));
  const spread = hostClasses(archive).spread;
  let sameCalledOther = 0;
  let otherCalledSame = 0;
  for (let i = 0; i < 2000; i++) {
    if (!compareHostClass(run(0, random), run(0, random), spread).same) sameCalledOther++;
    if (compareHostClass(run(0, random), run(2, random), spread).same) otherCalledSame++;
  }
  t.is(otherCalledSame, 0);
  // the rule's own rate: ALPHA (0.2%) a piece, about 1% of pairs over five pieces
  t.true(sameCalledOther / 2000 < 0.02, `${sameCalledOther} of 2000 same-class pairs called another class`);
});

test('the shared replicate of the default experiment (PTI on) is another host class than the published run, by mem and exec', (t) => {
  const replicate = join(projectRoot(), '..', 'shared', 'replicates', 'lazy-startup-2026-12-06-1b539537c7f0', 'run.json');
  if (!existsSync(replicate)) return t.pass('no shared/ beside this checkout');
  const canary = (file: string): CanaryMedians =>
    Object.fromEntries(
      (JSON.parse(readFileSync(file, 'utf8')) as { canary: { pieces: { piece: string; medianMs: number }[] } }).canary.pieces.map((p) => [p.piece, p.medianMs]),
    );
  const runs = ['2026-12-04-660cd5314ef6', '2026-12-04-710788c2d305', '2026-12-04-ea8cfc82341e', '2026-12-05-f6b8e493f9fe'].map((r) =>
    canary(join(projectRoot(), 'reports', 'lazy-startup', 'runs', r, 'run.json')),
  );
  const h = hostClasses([...runs, canary(replicate)]);
  t.deepEqual(h.classes, [[0, 1, 2, 3], [4]]);
  const c = compareHostClass(runs[3]!, canary(replicate), h.spread);
  t.false(c.same);
  t.deepEqual(
    c.pieces.filter((p) => !p.within).map((p) => p.piece),
    ['exec', 'mem'],
  );
});

test('a run being placed does not widen the spread it is held to: ×1.45 on cpu and mem against four runs of one class is another class', (t) => {
  const random = seededRandom('host-class-placing');
  const archive = Array.from({ length: 4 }, () => run(0, random));
  const slower = Object.fromEntries(Object.entries(run(0, random)).map(([p, v]) => [p, p === 'cpu' || p === 'mem' ? v! * 1.45 : v!]));
  // within the ×1.5 screen, so it is screened with the archive; placed, its distance stays out of the spread
  t.deepEqual(hostClasses([slower, ...archive], [0]).classes, [[0], [1, 2, 3, 4]]);
  t.true(hostClasses([slower, ...archive], [0]).spread['cpu']!.df === 3, 'the spread rests on the four archived runs');
});

test('two classes within the screen of each other are split before the spread is estimated: the archive’s classes A and C (cpu ×1.33)', (t) => {
  const canary = (id: string): CanaryMedians =>
    Object.fromEntries(
      (
        JSON.parse(readFileSync(join(projectRoot(), 'reports', 'lazy-startup', 'runs', id, 'run.json'), 'utf8')) as {
          canary: { pieces: { piece: string; medianMs: number }[] };
        }
      ).canary.pieces.map((p) => [p.piece, p.medianMs]),
    );
  const a = ['2026-12-04-660cd5314ef6', '2026-12-04-710788c2d305', '2026-12-04-ea8cfc82341e', '2026-12-05-f6b8e493f9fe'];
  const c = ['2026-12-07-5f8e0c3d58e6', '2026-12-07-c5f18700caeb'];
  const runs = [...a, ...c].map(canary);
  t.deepEqual(splitAtGaps([0, 1, 2, 3, 4, 5], runs), [
    [0, 1, 2, 3],
    [4, 5],
  ]);
  const h = hostClasses(runs);
  t.deepEqual(h.classes, [
    [0, 1, 2, 3],
    [4, 5],
  ]);
  t.true(h.spread['cpu']!.sd < 0.03, `cpu sd ${h.spread['cpu']!.sd}`);
  // placed, as the analysis places its own run, C's published run is still of C, not A
  t.deepEqual(hostClasses(runs, [4]).classes, [
    [0, 1, 2, 3],
    [4, 5],
  ]);
});

test('a gap split rarely cuts one class of noisy runs: archives of 5, 6 and 12 runs of one made-up class, 1,000 seeded archives each', (t) => {
  for (const n of [5, 6, 12]) {
    let cut = 0;
    for (let seed = 0; seed < 1000; seed++) {
      const random = seededRandom(`host-class-gap-${n}-${seed}`);
      const runs = Array.from({ length: n }, () => run(0, random));
      if (splitAtGaps([...runs.keys()], runs).length > 1) cut++;
    }
    t.true(cut <= 10, `${n} runs: cut in ${cut} of 1,000`);
  }
});
