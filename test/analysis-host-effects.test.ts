import test from 'ava';
import { hostEffects } from '../harness/analysis/host-effects.js';
import type { ReplicateRun } from '../harness/analysis/replicate-runs.js';
import { withRerun } from '../harness/analysis/rerun-results.js';
import type { CellStatistics, DifferenceResult } from '../harness/analysis/analysis-result.js';
import { hostEffectText, rerunText } from '../harness/report/rerun-wording.js';
import { seededRandom } from '../harness/stats/seeded-random.js';

// Made-up replicates on two hosts, shaped after the issue's: on the second host
// every cell is about ×1.2, crun ×1.6 and gvisor ×0.8 (path-specific), runc ×1.2.
const base: Record<string, number> = { crun: 300, runc: 320, gvisor: 700 };
const onHost2: Record<string, number> = { crun: 1.6, runc: 1.2, gvisor: 0.8 };

function run(id: string, host: string, factor: (path: string) => number, seed: string): ReplicateRun {
  const random = seededRandom(seed);
  const rows: ReplicateRun['rows'] = [];
  for (let session = 1; session <= 3; session++)
    for (let round = 1; round <= 8; round++)
      for (const state of ['cold', 'warm'])
        for (const path of Object.keys(base)) {
          const v = base[path]! * (state === 'cold' ? 2 : 1) * factor(path) * (1 + 0.02 * (random() - 0.5));
          rows.push({ cohort: 'numpy', path, state, session, round, readyMs: v, completionMs: v + 5 });
        }
  return { id, host, rows };
}

const runs = [
  run('this run', 'h1', () => 1, 'a'),
  run('r2', 'h1', () => 1.01, 'b'),
  run('r3', 'h2', (p) => onHost2[p]!, 'c'),
  run('r4', 'h2', (p) => onHost2[p]! * 1.01, 'd'),
];

test('a second host that moves crun up and gVisor down beyond its common factor shows both as path-specific (made-up multi-host replicates)', (t) => {
  const [e] = hostEffects(runs);
  t.is(e!.host, 'h2');
  t.is(e!.reference, 'h1');
  t.true(Math.abs(e!.common - 1.2) < 0.03, `${e!.common}`);
  const by = new Map(e!.paths.map((p) => [p.path, p]));
  t.true(by.get('crun')!.pathSpecific && by.get('crun')!.beyondCommon > 1.25);
  t.true(by.get('gvisor')!.pathSpecific && by.get('gvisor')!.beyondCommon < 0.7);
  t.false(by.get('runc')!.pathSpecific);
  t.regex(
    hostEffectText([e!]),
    /host h2 against this run's host h1: Ready cells ×1\.2\d \(median of 6\); path-specific, beyond that: crun ×1\.3\d \(cells ×1\.6\d\), gvisor ×0\.6\d \(cells ×0\.8\d\)\.$/,
  );
  t.deepEqual(hostEffects(runs.slice(0, 2)), []);
});

test('with replicates on two hosts every headline difference gets its cross-host range beside the rerun interval, and the scope its host effects (made-up multi-host replicates)', (t) => {
  const cells = ['cold', 'warm'].flatMap((state) =>
    Object.keys(base).map(
      (path) => ({ cohort: 'numpy', path, state, metric: 'ready', p50Ms: base[path]! * (state === 'cold' ? 2 : 1) }) as unknown as CellStatistics,
    ),
  );
  const differences = ['cold', 'warm'].map(
    (state) =>
      ({
        cohort: 'numpy',
        state,
        metric: 'ready',
        a: 'gvisor',
        b: 'crun',
        observedMs: (base['gvisor']! - base['crun']!) * (state === 'cold' ? 2 : 1),
        lowMs: 0,
        highMs: 1000,
        confidence: 0.95,
        detected: true,
      }) as unknown as DifferenceResult,
  );
  const values = runs[0]!.rows.map((r) => ({ ...r, launchId: 0 })) as unknown as Parameters<typeof withRerun>[2];
  const out = withRerun(differences, cells, values, [{ a: 'gvisor', b: 'crun' }] as never, ['ready'], { host: 'h1', runs: runs.slice(1), folder: 'made-up' });
  for (const d of out.differences) {
    const range = d.replicates!.crossHost!;
    // gvisor − crun: 400 ms per unit on h1, 560 − 480 = 80 on h2
    const unit = d.state === 'cold' ? 2 : 1;
    t.true(range.lowMs < 100 * unit && range.highMs > 390 * unit, JSON.stringify(range));
    t.regex(rerunText(d, 0), / hosts -?\d+ to \d+$/);
  }
  t.is(out.scope.hostEffects!.length, 1);
  t.true(out.scope.hostEffects![0]!.paths.filter((p) => p.pathSpecific).length === 2);
});
