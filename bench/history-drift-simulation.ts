// Benchmark (not a test): how often `pipeline history` reports a cell change
// that is not there, and how often it finds a real single-cell step, over
// 6-run series with run-level drift (issue 28). Each series: CELLS cells, 6
// runs of 3 sessions. Per run a factor shared by every cell, ln-normal with
// sd RUN_SD; per run and cell a deviation with sd CELL_SD; per session a
// deviation with sd SESSION_SD (so a run's level of a cell varies by
// √(CELL_SD² + SESSION_SD²/3) around the run's factor). The figures are those
// of harness/stats/host-kind-drift.ts (shared factor ×1.14 between one
// same-key pair: sd 0.10; cells around it 0.026) and of the same-host
// replicates (ratio of differences median ×0.99 [0.85, 1.10], which a cell sd
// of 0.05 covers: the "wide" rows). Scenarios:
//   same key, no change          false series: any cell change reported
//   keys A,A,A,B,B,B, one cell ×1.3 from run 4       found: that cell at run 4
//   every run its own key (no replicates: the host-kind figure is used)
// A false series has a cell change other than the planted one at run 4: in an
// unchanged cell, or the planted cell at another run (a step one run off).
// Seeded: the same arguments print the same table.
// Run: npx tsc -p . && node dist/bench/history-drift-simulation.js [SERIES] [CELLS]
import { clopperPearson } from '../harness/stats/clopper-pearson.js';
import { seededRandom, type Random } from '../harness/stats/seeded-random.js';
import { runDrift } from '../harness/history/run-drift.js';

const args = process.argv.slice(2).map(Number);
const SERIES = args[0] || 1000;
const CELLS = args[1] || 40;
const RUNS = 6;
const SESSIONS = 3;
const RUN_SD = 0.1;
const SESSION_SD = 0.035;

function normal(random: Random): number {
  const u = Math.max(random(), 1e-12);
  return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * random());
}

interface Scenario {
  name: string;
  keys: string[];
  cellSd: number;
  /** ln step of cell 0 from run 4 on (0: none), and of every cell (a shared shift). */
  step: number;
  shared: number;
}

function simulate(s: Scenario, seed: string): { falseSeries: number; otherCell: number; found: number; shifts: number } {
  const random = seededRandom(seed);
  let falseSeries = 0;
  let otherCell = 0;
  let found = 0;
  let shifts = 0;
  for (let n = 0; n < SERIES; n++) {
    const factor = Array.from({ length: RUNS }, (_, r) => RUN_SD * normal(random) + (r >= 3 ? s.shared : 0));
    const base = Array.from({ length: CELLS }, () => Math.log(100 + 4900 * random()));
    const cells = base.map((m, c) => ({
      key: `c${c}`,
      perRun: factor.map((f, r) => {
        const level = m + f + s.cellSd * normal(random) + (c === 0 && r >= 3 ? s.step : 0);
        return Array.from({ length: SESSIONS }, () => Math.exp(level + SESSION_SD * normal(random)));
      }),
    }));
    const d = runDrift({ sampleKeys: s.keys, cells });
    const changed = [...d.cellChanges].filter(([, list]) => list.length);
    const wrong = changed.filter(([k, list]) => !(s.step !== 0 && k === 'c0' && list.every((x) => x.run === 4)));
    if (wrong.length) falseSeries++;
    if (changed.some(([k]) => !(s.step !== 0 && k === 'c0'))) otherCell++;
    if (s.step !== 0 && d.cellChanges.get('c0')!.some((x) => x.run === 4)) found++;
    if (d.shifts.length) shifts++;
  }
  return { falseSeries, otherCell, found, shifts };
}

const same = Array.from({ length: RUNS }, () => 'k');
const ab = ['a', 'a', 'a', 'b', 'b', 'b'];
const own = Array.from({ length: RUNS }, (_, i) => `k${i}`);
const scenarios: Scenario[] = [];
for (const [label, cellSd] of [
  ['measured', 0.02],
  ['wide', 0.05],
] as const) {
  scenarios.push(
    { name: `${label}: same key, no change`, keys: same, cellSd, step: 0, shared: 0 },
    { name: `${label}: keys a,a,a,b,b,b, one cell ×1.3 from run 4`, keys: ab, cellSd, step: Math.log(1.3), shared: 0 },
    { name: `${label}: keys a,a,a,b,b,b, every cell ×1.15 and one ×1.3 more from run 4`, keys: ab, cellSd, step: Math.log(1.3), shared: Math.log(1.15) },
    { name: `${label}: every run its own key (host-kind figure), no change`, keys: own, cellSd, step: 0, shared: 0 },
    { name: `${label}: every run its own key, one cell ×1.3 from run 4`, keys: own, cellSd, step: Math.log(1.3), shared: 0 },
  );
}

const pct = (k: number): string => {
  const ci = clopperPearson(k, SERIES);
  return `${((100 * k) / SERIES).toFixed(1)}% [${(100 * ci.low).toFixed(1)}, ${(100 * ci.high).toFixed(1)}]`;
};
console.log(`${SERIES} series per row, ${CELLS} cells, ${RUNS} runs of ${SESSIONS} sessions; run factor sd ${RUN_SD}, session sd ${SESSION_SD} (ln)`);
console.log(
  '| scenario | cell sd | series with a false cell change | of them in an unchanged cell | ×1.3 step found at run 4 | series with a shift reported |',
);
console.log('|---|---:|---:|---:|---:|---:|');
const started = Date.now();
for (const s of scenarios) {
  const r = simulate(s, s.name);
  console.log(`| ${s.name} | ${s.cellSd} | ${pct(r.falseSeries)} | ${pct(r.otherCell)} | ${s.step ? pct(r.found) : '–'} | ${pct(r.shifts)} |`);
}
console.log(`(${((Date.now() - started) / 1000).toFixed(0)} s)`);
